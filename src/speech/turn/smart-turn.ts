/**
 * A learned end-of-turn model: Smart Turn v3 (pipecat-ai/smart-turn-v3, BSD-2, ~8 MB ONNX,
 * Whisper-tiny encoder) — audio in, the probability that the speaker finished out. It hears
 * what the text rules cannot: intonation, a drawn-out last syllable. Runs with ONNX Runtime
 * (the runtime transformers.js already ships), features made by transformers.js's
 * WhisperFeatureExtractor: the last 8 s of 16 kHz audio, normalised, left-padded with zeros,
 * 80 log-mel bins × 800 frames → `input_features` [1, 80, 800] → one sigmoid probability.
 * Loaded only when its file is present; nothing is downloaded.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import { CharlieError } from '../../core/errors.js';
import type { TurnEvidence, TurnModel } from '../../core/ports/index.js';
import { int16ToFloat } from '../audio/pcm.js';
import { loadTransformers } from '../../llm/transformers-runtime.js';

/** The turn model could not be used; the message says what to do. */
export class TurnModelError extends CharlieError {}

const RATE = 16_000;
const SECONDS = 8;
const SAMPLES = RATE * SECONDS;
const BINS = 80;
const FRAMES = 800;

/** Where the file is expected and whether it is there; `missing` names what to do when it is not. */
export function locateTurnModel(path: string): { present: boolean; missing?: string } {
  if (existsSync(path)) return { present: true };
  return {
    present: false,
    missing: `end-of-turn model not found at ${path} — put smart-turn-v3.0.onnx from huggingface.co/pipecat-ai/smart-turn-v3 there (or set VOICE_TURN_MODEL to its path); until then the text rules decide`,
  };
}

/** The last 8 s, zero mean and unit variance (Smart Turn's `do_normalize`), left-padded with zeros to 8 s. */
export function prepareAudio(pcm16k: Int16Array): Float32Array {
  const tail = int16ToFloat(pcm16k.length > SAMPLES ? pcm16k.subarray(pcm16k.length - SAMPLES) : pcm16k);
  let mean = 0;
  for (const v of tail) mean += v;
  mean /= tail.length || 1;
  let variance = 0;
  for (const v of tail) variance += (v - mean) * (v - mean);
  const std = Math.sqrt(variance / (tail.length || 1) + 1e-7);
  const out = new Float32Array(SAMPLES);
  const offset = SAMPLES - tail.length;
  for (let i = 0; i < tail.length; i++) out[offset + i] = (tail[i]! - mean) / std;
  return out;
}

type Extractor = (audio: Float32Array, options: { max_length: number }) => Promise<{ input_features: { data: Float32Array; dims: number[] } }>;

export class SmartTurnModel implements TurnModel {
  readonly id: string;
  private loading: Promise<{ session: InferenceSession; extractor: Extractor; ort: typeof import('onnxruntime-node') }> | null = null;

  constructor(private readonly path: string) {
    this.id = basename(path);
  }

  /** Load the ONNX session and the feature extractor (once). Throws `TurnModelError` saying what is wrong. */
  load(): Promise<unknown> {
    return this.ready();
  }

  private ready() {
    this.loading ??= this.doLoad().catch((error: unknown) => {
      this.loading = null;
      throw error;
    });
    return this.loading;
  }

  private async doLoad() {
    const where = locateTurnModel(this.path);
    if (!where.present) throw new TurnModelError(where.missing!);
    const ort = await import('onnxruntime-node');
    let session: InferenceSession;
    try {
      session = await ort.InferenceSession.create(this.path, { executionProviders: ['cpu'], intraOpNumThreads: 1, graphOptimizationLevel: 'all' });
    } catch (cause) {
      throw new TurnModelError(`end-of-turn model at ${this.path} could not be loaded — is it the Smart Turn v3 ONNX file? (${String(cause)})`, { cause });
    }
    if (!session.inputNames.includes('input_features') || session.outputNames.length === 0) {
      throw new TurnModelError(`${this.path} is not a Smart Turn model: it takes ${session.inputNames.join(', ') || 'nothing'}, expected input_features [1, 80, 800]`);
    }
    const { WhisperFeatureExtractor } = await loadTransformers();
    const fe = new WhisperFeatureExtractor({
      feature_size: BINS,
      sampling_rate: RATE,
      hop_length: 160,
      n_fft: 400,
      chunk_length: SECONDS,
      n_samples: SAMPLES,
      nb_max_frames: FRAMES,
      padding_value: 0,
    });
    const extractor: Extractor = (audio, options) => fe._call(audio, options) as ReturnType<Extractor>;
    return { session, extractor, ort };
  }

  /** The model's input for an utterance: [1, 80, 800] log-mel features. */
  async features(pcm16k: Int16Array): Promise<{ data: Float32Array; dims: number[] }> {
    const { extractor } = await this.ready();
    return (await extractor(prepareAudio(pcm16k), { max_length: SAMPLES })).input_features;
  }

  async probability(evidence: TurnEvidence, signal?: AbortSignal): Promise<number> {
    const { session, ort } = await this.ready();
    const features = await this.features(evidence.pcm);
    signal?.throwIfAborted();
    const out = await session.run({ input_features: new ort.Tensor('float32', features.data, [1, BINS, FRAMES]) });
    const value = Number(out[session.outputNames[0]!]?.data[0]);
    if (!Number.isFinite(value)) throw new TurnModelError(`end-of-turn model ${this.id} returned no probability`);
    return Math.min(1, Math.max(0, value));
  }
}
