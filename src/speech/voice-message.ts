/**
 * Voice messages (audio attachments in project channels): decode (Ogg Opus, MP3, WAV),
 * resample to 16 kHz mono, transcribe. Returns '' for silence or a known hallucination.
 */
import type { SpeechToText } from '../core/ports.js';
import { decodeAudio } from './audio/decode.js';
import { floatToInt16, RECOGNISER_RATE, resampleMono } from './audio/pcm.js';
import { isHallucination, stripNonSpeech } from './stt/hallucinations.js';

export function isAudioAttachment(contentType: string | null, name: string): boolean {
  return /^audio\//i.test(contentType ?? '') || /\.(ogg|oga|opus|mp3|wav)$/i.test(name);
}

export async function transcribeVoiceMessage(
  stt: SpeechToText,
  data: Uint8Array,
  mime: string,
  options: { language?: string; signal?: AbortSignal } = {},
): Promise<string> {
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
  /** Larger attachments are not downloaded. Default 25 MB. */
  maxBytes?: number;
  language?: string;
  signal?: AbortSignal;
}

/**
 * For the Discord message handler: transcribe the audio attachments of a message (voice
 * messages are Ogg Opus). Returns text blocks to append to the message, and short warnings.
 */
export async function transcribeAudioAttachments(list: readonly AudioAttachment[], options: VoiceMessageOptions): Promise<{ texts: string[]; warnings: string[] }> {
  const texts: string[] = [];
  const warnings: string[] = [];
  for (const a of list.filter((x) => isAudioAttachment(x.contentType, x.name))) {
    if (a.size > (options.maxBytes ?? 25_000_000)) {
      warnings.push(`${a.name} is too long to transcribe.`);
      continue;
    }
    try {
      const response = await options.fetch(a.url, options.signal ? { signal: options.signal } : {});
      if (!response.ok) throw new Error(`download answered ${response.status}`);
      const data = new Uint8Array(await response.arrayBuffer());
      const text = await transcribeVoiceMessage(options.stt, data, a.contentType ?? '', {
        ...(options.language ? { language: options.language } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (text) texts.push(`[voice message ${a.name}] ${text}`);
      else warnings.push(`I couldn't hear any words in ${a.name}.`);
    } catch (error) {
      warnings.push(`Couldn't transcribe ${a.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { texts, warnings };
}
