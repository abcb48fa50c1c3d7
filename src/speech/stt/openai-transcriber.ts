/**
 * Speech to text through an OpenAI-compatible `/v1/audio/transcriptions` endpoint
 * (whisper.cpp server, faster-whisper-server, speaches, LocalAI, or OpenAI itself).
 * Sends the utterance as a 16 kHz mono WAV in a multipart form.
 */
import type { SpeechToText } from '../../core/ports/index.js';
import { encodeWav } from '../audio/wav.js';
import { publicUrl } from '../../core/privacy/public-url.js';
import { SttError } from './errors.js';

export interface OpenAITranscriberOptions {
  /** e.g. `http://localhost:8080/v1` (with or without the trailing `/v1`). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

export function transcriptionsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return /\/v\d+$/.test(base) ? `${base}/audio/transcriptions` : `${base}/v1/audio/transcriptions`;
}

export class OpenAITranscriber implements SpeechToText {
  readonly id: string;
  private readonly url: string;
  /** For messages: without user name, password or query. */
  private readonly shownUrl: string;

  constructor(private readonly options: OpenAITranscriberOptions) {
    this.url = transcriptionsUrl(options.baseUrl);
    this.shownUrl = publicUrl(this.url);
    this.id = `openai-stt:${options.model}@${publicUrl(options.baseUrl)}`;
  }

  async transcribe(pcm16k: Int16Array, options: { language?: string; signal?: AbortSignal } = {}): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([encodeWav(pcm16k, 16_000)], { type: 'audio/wav' }), 'utterance.wav');
    form.append('model', this.options.model);
    form.append('response_format', 'json');
    form.append('temperature', '0');
    if (options.language) form.append('language', options.language);
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(this.url, {
        method: 'POST',
        body: form,
        signal,
        headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
      });
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      if (timeout.aborted) throw new SttError(`speech server at ${this.shownUrl} did not answer within ${this.options.timeoutMs} ms — is it running? raise STT_TIMEOUT_MS if it is slow`, { cause });
      throw new SttError(`no speech server at ${this.shownUrl} — start your whisper server or unset STT_BASE_URL to use the local model`, { cause });
    }
    const body = await response.text();
    if (!response.ok) throw new SttError(`speech server answered ${response.status} for ${this.url}: ${body.slice(0, 300)}`);
    return parseTranscription(body);
  }
}

/** `{"text": "..."}` (json / verbose_json) or plain text. */
export function parseTranscription(body: string): string {
  const trimmed = body.trim();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (cause) {
      throw new SttError(`speech server sent malformed JSON: ${trimmed.slice(0, 200)}`, { cause });
    }
    const text = (parsed as { text?: unknown }).text;
    if (typeof text !== 'string') throw new SttError(`speech server reply has no "text" field: ${trimmed.slice(0, 200)}`);
    return text.trim();
  }
  return trimmed;
}
