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

/**
 * A `progress_callback` that logs each file's download at most once per 10 %, at info level
 * (the terminal chat echoes these lines on screen).
 */
export function downloadProgress(logger: Logger, message: string, fields: Record<string, unknown> = {}): (event: unknown) => void {
  const lastStep = new Map<string, number>();
  return (event) => {
    const e = event as { status?: string; file?: string; progress?: number; loaded?: number; total?: number };
    if (e.status !== 'progress' || !e.file || typeof e.progress !== 'number') return;
    const step = Math.floor(e.progress / 10) * 10;
    if ((lastStep.get(e.file) ?? -1) >= step) return;
    lastStep.set(e.file, step);
    logger.info({ ...fields, file: e.file, percent: step, loaded: e.loaded, total: e.total }, message);
  };
}
