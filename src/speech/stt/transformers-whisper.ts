/**
 * Local Whisper with transformers.js (ONNX Runtime, the same runtime as the embeddings).
 * The model is downloaded once into `cacheDir` (data/models) with progress, or read from a
 * folder the owner provides (`localDir`: either the model folder itself — config.json,
 * onnx/… — or a folder that holds `<org>/<model>/`).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Logger, SpeechToText } from '../../core/ports/index.js';
import { silentLogger } from '../../core/ports/index.js';
import { int16ToFloat } from '../audio/pcm.js';
import { downloadProgress, loadTransformers, sourceOptions, type TransformersLib } from '../../llm/transformers-runtime.js';
import { SpeechModelMissingError, SttError } from './errors.js';

export interface TransformersWhisperOptions {
  /** Hugging Face id of an ONNX Whisper export, e.g. `Xenova/whisper-base.en`. */
  model: string;
  /** Download cache (data/models). */
  cacheDir: string;
  localDir?: string;
  /** false = never touch the network; a missing model is an error. */
  allowDownload: boolean;
  /** ONNX weights to use: `q8` (8-bit, small and fastest on CPU), `fp32`, `fp16`, `q4`. */
  dtype: 'q8' | 'fp32' | 'fp16' | 'q4';
  logger?: Logger;
}

type AsrPipeline = (audio: Float32Array, options?: Record<string, unknown>) => Promise<{ text: string } | { text: string }[]>;

interface Resolved {
  /** What to give `pipeline()` as the model: an id or a folder path. */
  modelRef: string;
  cacheDir: string;
  present: boolean;
  where: string;
}

export class TransformersWhisper implements SpeechToText {
  readonly id: string;
  private loading: Promise<AsrPipeline> | null = null;
  private readonly log: Logger;

  constructor(private readonly options: TransformersWhisperOptions) {
    this.id = `transformers-whisper:${options.model}`;
    this.log = (options.logger ?? silentLogger).child({ stt: this.id });
  }

  /** Where the model is (or would be downloaded to), and whether it is there. */
  locate(): Resolved {
    const { model, localDir } = this.options;
    if (localDir) {
      const dir = resolve(localDir);
      if (existsSync(join(dir, 'config.json'))) return { modelRef: dir, cacheDir: dir, present: true, where: dir };
      const nested = join(dir, model);
      return { modelRef: model, cacheDir: dir, present: existsSync(join(nested, 'config.json')), where: nested };
    }
    const cacheDir = resolve(this.options.cacheDir);
    const where = join(cacheDir, model);
    return { modelRef: model, cacheDir, present: existsSync(join(where, 'config.json')), where };
  }

  async warmUp(): Promise<void> {
    await this.load();
  }

  /** Load the pipeline (once). Throws `SpeechModelMissingError` with what to do when the model is absent. */
  load(): Promise<AsrPipeline> {
    this.loading ??= this.doLoad().catch((error: unknown) => {
      this.loading = null;
      throw error;
    });
    return this.loading;
  }

  private async doLoad(): Promise<AsrPipeline> {
    const found = this.locate();
    const mayDownload = this.options.allowDownload && !this.options.localDir;
    if (!found.present && !mayDownload) {
      throw new SpeechModelMissingError(
        `Whisper model ${this.options.model} not found at ${found.where} — put the model folder (config.json, onnx/*.onnx) there, ` +
          `or run once with network access so it is downloaded into ${this.options.cacheDir}, or set STT_BASE_URL to a whisper server`,
      );
    }
    if (!found.present) this.log.info({ model: this.options.model, into: found.cacheDir }, 'downloading the Whisper model (once)');
    let transformers: TransformersLib;
    try {
      transformers = await loadTransformers();
    } catch (cause) {
      throw new SttError('transformers.js could not load (ONNX Runtime missing?) — reinstall dependencies or set STT_BASE_URL to a whisper server', { cause });
    }
    try {
      const asr = await transformers.pipeline('automatic-speech-recognition', found.modelRef, {
        ...sourceOptions({ model: found.modelRef, cacheDir: found.cacheDir, localOnly: found.present }),
        dtype: this.options.dtype,
        progress_callback: downloadProgress(this.log, 'downloading Whisper model'),
      });
      this.log.info({ model: this.options.model }, 'Whisper model ready');
      return asr;
    } catch (cause) {
      if (found.present) throw new SttError(`Whisper model at ${found.where} could not be loaded — is it a complete ONNX export? (${String(cause)})`, { cause });
      throw new SpeechModelMissingError(
        `could not download Whisper model ${this.options.model} into ${found.cacheDir} (${String(cause)}) — check the network, ` +
          `or copy the model folder there by hand, or set STT_MODEL_DIR / STT_BASE_URL`,
        { cause },
      );
    }
  }

  async transcribe(pcm16k: Int16Array, options: { language?: string; signal?: AbortSignal } = {}): Promise<string> {
    const asr = await this.load();
    options.signal?.throwIfAborted();
    const english = /\.en$/.test(this.options.model);
    const out = await asr(int16ToFloat(pcm16k), {
      ...(options.language && !english ? { language: options.language, task: 'transcribe' } : {}),
      chunk_length_s: 30,
    });
    options.signal?.throwIfAborted();
    const text = Array.isArray(out) ? out.map((o) => o.text).join(' ') : out.text;
    return text.trim();
  }
}
