/**
 * A local sentence-embedding model run by transformers.js (ONNX). Weights are downloaded
 * once into `data/models` with visible progress, or read from a folder the owner provides
 * (then nothing is ever fetched).
 */
import type { Embedder, Logger } from '../core/ports/index.js';
import { CharlieError } from '../core/errors.js';
import { embedderId, normalize } from '../memory/index/embedder.js';
import { downloadProgress, loadTransformers, sourceOptions, type ModelDownloadStep, type TransformersLib } from './transformers-runtime.js';
import { errorMessage } from '../util/error-text.js';

export interface TransformersEmbedderOptions {
  /** Hugging Face id, e.g. `Xenova/all-MiniLM-L6-v2` or `Xenova/bge-small-en-v1.5`. */
  model: string;
  /** Download cache (`data/models`). */
  cacheDir: string;
  /** A folder holding `<model>/` with its config, tokenizer and onnx/ weights; disables downloads. */
  modelDir?: string;
  /** Text put before queries (bge models want "Represent this sentence for searching relevant passages: "). */
  queryPrefix?: string;
  batchSize?: number;
  logger: Logger;
  /** Each 10 % of a file's download (the terminal chat shows it). */
  onDownload?: (step: ModelDownloadStep) => void;
}

/** The embedding model could not be loaded: says why, so the caller can name its fallback. */
export class EmbeddingModelError extends CharlieError {}

type Extractor = (texts: string[], options: { pooling: 'mean' | 'cls'; normalize: boolean }) => Promise<{ data: Float32Array; dims: number[] }>;

export class TransformersEmbedder implements Embedder {
  readonly locality = 'local' as const;
  readonly semantic = true;
  readonly id: string;

  private constructor(
    private readonly extractor: Extractor,
    readonly dimensions: number,
    private readonly options: TransformersEmbedderOptions,
  ) {
    this.id = embedderId(options.model, dimensions);
  }

  static async load(options: TransformersEmbedderOptions): Promise<TransformersEmbedder> {
    let lib: TransformersLib;
    try {
      lib = await loadTransformers();
    } catch (err) {
      throw new EmbeddingModelError(`transformers.js could not start (${String(err)})`, { cause: err });
    }
    // the owner's folder, read only; otherwise the download cache (fetched once)
    const source = { model: options.model, cacheDir: options.modelDir ?? options.cacheDir, localOnly: options.modelDir !== undefined };
    let extractor: Extractor;
    try {
      const pipe = await lib.pipeline('feature-extraction', options.model, {
        ...sourceOptions(source),
        progress_callback: downloadProgress(options.logger, 'downloading embedding model', { model: options.model }, options.onDownload),
        dtype: 'fp32',
      });
      extractor = pipe as unknown as Extractor;
    } catch (err) {
      const where = options.modelDir ? `from ${options.modelDir}` : `(downloading into ${options.cacheDir})`;
      throw new EmbeddingModelError(`embedding model ${options.model} could not be loaded ${where}: ${errorMessage(err)}`, { cause: err });
    }
    const probe = await extractor(['dimension probe'], { pooling: 'mean', normalize: true });
    const dims = probe.dims[probe.dims.length - 1] ?? 0;
    if (!dims) throw new EmbeddingModelError(`embedding model ${options.model} returned no vector`);
    return new TransformersEmbedder(extractor, dims, options);
  }

  async embedQuery(text: string): Promise<Float32Array> {
    const [v] = await this.embed([`${this.options.queryPrefix ?? ''}${text}`]);
    return v!;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const size = this.options.batchSize ?? 32;
    const pooling = /bge|gte/i.test(this.options.model) ? 'cls' : 'mean';
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += size) {
      const batch = texts.slice(i, i + size);
      const t = await this.extractor(batch, { pooling, normalize: true });
      for (let j = 0; j < batch.length; j++) out.push(normalize(t.data.slice(j * this.dimensions, (j + 1) * this.dimensions)));
    }
    return out;
  }
}
