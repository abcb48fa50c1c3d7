/**
 * Voice messages (audio attachments in project channels): decode (Ogg Opus, MP3, WAV),
 * resample to 16 kHz mono, transcribe. Returns '' for silence or a known hallucination.
 */
import type { SpeechToText } from '../core/ports/index.js';
import { decodeAudio } from './audio/decode.js';
import { floatToInt16, RECOGNISER_RATE, resampleMono } from './audio/pcm.js';
import { isHallucination, stripNonSpeech } from './stt/hallucinations.js';
import { errorMessage } from '../util/error-text.js';

export function isAudioAttachment(contentType: string | null, name: string): boolean {
  return /^audio\//i.test(contentType ?? '') || /\.(ogg|oga|opus|mp3|wav)$/i.test(name);
}

export async function transcribeVoiceMessage(stt: SpeechToText, data: Uint8Array, mime: string, options: { language?: string; signal?: AbortSignal } = {}): Promise<string> {
  const audio = await decodeAudio(data, mime);
  const pcm = floatToInt16(resampleMono(audio, RECOGNISER_RATE));
  const text = stripNonSpeech(await stt.transcribe(pcm, options));
  return isHallucination(text) ? '' : text;
}

export interface AudioAttachment {
  name: string;
  url: string;
  contentType: string | null;
  size: number;
}

export interface VoiceMessageOptions {
  stt: SpeechToText;
  fetch: typeof fetch;
  /** A download (headers and body) taking longer is abandoned (VOICE_MESSAGE_DOWNLOAD_TIMEOUT_MS). */
  downloadTimeoutMs: number;
  /** Larger attachments are not downloaded, whatever size they declare. Default 25 MB. */
  maxBytes?: number;
  language?: string;
  signal?: AbortSignal;
}

class TooLargeError extends Error {}

/** The body, read up to `maxBytes` (a declared size can lie; a body can be endless). */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw new TooLargeError();
      chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks, total);
}

/**
 * For the Discord message handler: transcribe the audio attachments of a message (voice
 * messages are Ogg Opus). Returns text blocks to append to the message, and short warnings.
 * Each download is time-boxed and size-capped, so a stalled or endless one cannot hold up
 * its channel.
 */
export async function transcribeAudioAttachments(list: readonly AudioAttachment[], options: VoiceMessageOptions): Promise<{ texts: string[]; warnings: string[] }> {
  const texts: string[] = [];
  const warnings: string[] = [];
  const maxBytes = options.maxBytes ?? 25_000_000;
  for (const a of list.filter((x) => isAudioAttachment(x.contentType, x.name))) {
    if (a.size > maxBytes) {
      warnings.push(`${a.name} is too long to transcribe.`);
      continue;
    }
    const timeout = AbortSignal.timeout(options.downloadTimeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    let data: Uint8Array;
    try {
      const response = await options.fetch(a.url, { signal });
      if (!response.ok) throw new Error(`download answered ${response.status}`);
      data = await readCapped(response, maxBytes);
    } catch (error) {
      if (error instanceof TooLargeError) warnings.push(`${a.name} is too long to transcribe.`);
      else if (timeout.aborted) warnings.push(`Couldn't transcribe ${a.name}: it did not download within ${options.downloadTimeoutMs / 1000} s.`);
      else warnings.push(`Couldn't transcribe ${a.name}: ${errorMessage(error)}`);
      if (options.signal?.aborted) break;
      continue;
    }
    try {
      const text = await transcribeVoiceMessage(options.stt, data, a.contentType ?? '', {
        ...(options.language ? { language: options.language } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (text) texts.push(`[voice message ${a.name}] ${text}`);
      else warnings.push(`I couldn't hear any words in ${a.name}.`);
    } catch (error) {
      warnings.push(`Couldn't transcribe ${a.name}: ${errorMessage(error)}`);
    }
  }
  return { texts, warnings };
}
