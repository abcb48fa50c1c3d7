/** Ports owned by the core: speech. Adapters implement them; nothing here imports infrastructure. */
import type { Locality } from './chat-model.js';

export interface SpeechToText {
  readonly id: string;
  /** 16 kHz mono signed 16-bit PCM in, text out. */
  transcribe(pcm16k: Int16Array, options?: { language?: string; signal?: AbortSignal }): Promise<string>;
  /** Optional: load (or download) the model now rather than on the first utterance. */
  warmUp?(): Promise<void>;
}

export interface SynthesizedAudio {
  /** Container/codec of `data`, e.g. `audio/mpeg` or `audio/wav`. */
  mime: string;
  data: Uint8Array;
  /** Set by the speech guard: which kind of voice spoke it (the web's Read aloud says so). */
  spokenBy?: Locality;
}

export interface TextToSpeech {
  readonly id: string;
  readonly locality: Locality;
  /** For a hosted voice: the local engine that speaks what must not leave the machine (none: it is not spoken). */
  readonly localVoice?: TextToSpeech;
  synthesize(text: string, options?: { signal?: AbortSignal }): Promise<SynthesizedAudio>;
  /** Optional: get the local engine ready now (compile, first run) rather than on the first reply. */
  warmUp?(): Promise<void>;
}
