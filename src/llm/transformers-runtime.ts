/**
 * The one door to transformers.js (ONNX models run locally: the embedder and Whisper).
 *
 * transformers.js keeps its settings in a process-global `env` (cacheDir, localModelPath,
 * allowRemoteModels, …). Changing them for one model changes them for every other: the
 * embedder used to set `allowRemoteModels = false` when EMBEDDING_MODEL_DIR was set, which
 * silently stopped the Whisper download. So nothing here, and nothing else, writes `env`:
 * where a model is read from and whether it may be downloaded go into that pipeline's own
 * options (`cache_dir`, `local_files_only`), which transformers.js supports per call.
 */
import type { ProgressCallback, ProgressInfo } from '@huggingface/transformers';
import type { Logger } from '../core/ports/index.js';

export type TransformersLib = typeof import('@huggingface/transformers');

export interface ModelSource {
  /** Hugging Face id (`Xenova/all-MiniLM-L6-v2`) or a folder that holds the model itself. */
  model: string;
  /** A folder holding `<org>/<model>/` (the download cache, or a folder the owner filled). */
  cacheDir: string;
  /** true = never touch the network; a missing file is an error. */
  localOnly: boolean;
}

/** Imports transformers.js (lazily: it loads ONNX Runtime). */
export function loadTransformers(): Promise<TransformersLib> {
  return import('@huggingface/transformers');
}

/** The per-call options that say where a pipeline's files come from. */
export function sourceOptions(source: ModelSource): { cache_dir: string; local_files_only: boolean } {
  return { cache_dir: source.cacheDir, local_files_only: source.localOnly };
}

/** One step of a model file's download, as the terminal chat shows it on screen. */
export interface ModelDownloadStep {
  /** What is downloaded: `downloading embedding model`. */
  label: string;
  file: string;
  /** 0, 10, … 100. */
  percent: number;
}

/**
 * A `progress_callback` that logs each file's download at most once per 10 %, at info level,
 * and hands the same step to `onStep` (the terminal chat echoes it on screen). It reads the
 * library's typed `progress` event, not the log line.
 */
export function downloadProgress(logger: Logger, message: string, fields: Record<string, unknown> = {}, onStep?: (step: ModelDownloadStep) => void): ProgressCallback {
  const lastStep = new Map<string, number>();
  return (event: ProgressInfo) => {
    if (event.status !== 'progress') return;
    const step = Math.floor(event.progress / 10) * 10;
    if ((lastStep.get(event.file) ?? -1) >= step) return;
    lastStep.set(event.file, step);
    logger.info({ ...fields, file: event.file, percent: step, loaded: event.loaded, total: event.total }, message);
    onStep?.({ label: message, file: event.file, percent: step });
  };
}
