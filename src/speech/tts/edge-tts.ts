/**
 * Edge-TTS (Microsoft's online read-aloud voices) via `edge-tts-universal`. The text leaves
 * the machine. The library can hang forever when the network is down, so every call runs
 * under a timeout. The service answers MP3 (the output format is fixed in the library);
 * playback decodes it with a WebAssembly MP3 decoder, no ffmpeg.
 */
import type { SynthesizedAudio, TextToSpeech } from '../../core/ports/index.js';
import { TtsError } from './errors.js';
import { withTimeout } from './timeout.js';

export interface EdgeChunk {
  type: string;
  data?: Uint8Array;
}

/** Opens one synthesis stream; injectable so tests can script a hanging or failing service. */
export type EdgeStreamFactory = (text: string, voice: string) => AsyncIterable<EdgeChunk>;

/** The library is loaded on the first synthesis (it is not needed to start Charlie). */
export const edgeStream: EdgeStreamFactory = async function* (text, voice) {
  const { Communicate } = await import('edge-tts-universal');
  yield* new Communicate(text, { voice }).stream();
};

export interface EdgeTtsOptions {
  voice: string;
  timeoutMs: number;
  stream?: EdgeStreamFactory;
}

export class EdgeTts implements TextToSpeech {
  readonly id: string;
  readonly locality = 'hosted' as const;
  private readonly open: EdgeStreamFactory;

  constructor(private readonly options: EdgeTtsOptions) {
    this.id = `edge-tts:${options.voice}`;
    this.open = options.stream ?? edgeStream;
  }

  synthesize(text: string, options: { signal?: AbortSignal } = {}): Promise<SynthesizedAudio> {
    return withTimeout(this.collect(text, options.signal), this.options.timeoutMs, 'Edge-TTS', options.signal);
  }

  private async collect(text: string, signal?: AbortSignal): Promise<SynthesizedAudio> {
    const parts: Uint8Array[] = [];
    try {
      for await (const chunk of this.open(text, this.options.voice)) {
        if (signal?.aborted) break;
        if (chunk.type === 'audio' && chunk.data) parts.push(chunk.data);
      }
    } catch (cause) {
      throw new TtsError(`Edge-TTS failed (voice ${this.options.voice}) — check the network or set TTS=local`, { cause });
    }
    signal?.throwIfAborted();
    if (!parts.length) throw new TtsError(`Edge-TTS returned no audio (voice ${this.options.voice} — is the voice name right?)`);
    return { mime: 'audio/mpeg', data: Buffer.concat(parts) };
  }
}
