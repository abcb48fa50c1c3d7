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

/** What an end-of-turn detector sees of an utterance so far (voice/end-of-turn.ts; a learned model in speech/turn). */
export interface TurnEvidence {
  /** Speculative transcript of the utterance so far. */
  transcript: string;
  /** Silence since the last voiced frame, in ms (grows while the detector is re-asked). */
  pauseMs: number;
  /** Audio received in this utterance, ms. */
  speechMs: number;
  /** How many dB the last voiced frames are below the utterance's typical level (positive = fell away). */
  endFallDb: number;
  /** 16 kHz mono s16: the utterance so far (for audio models). */
  pcm: Int16Array;
}

/** A learned end-of-turn model: the probability (0–1) that the utterance so far is a finished turn. */
export interface TurnModel {
  readonly id: string;
  probability(evidence: TurnEvidence, signal?: AbortSignal): Promise<number>;
  /** Optional: load now rather than at the first pause. */
  load?(): Promise<unknown>;
}
