/**
 * The built-in judge by meaning (core/privacy/meaning-judge.ts) over the packaged sentence
 * encoder: what judges a message before anything leaves when no local memory lane is set.
 */
import type { Logger } from '../core/ports/index.js';
import { MeaningJudge } from '../core/privacy/meaning-judge.js';
import { UseEmbedder } from '../llm/embeddings-use.js';
import { errorMessage } from '../util/error-text.js';

/** The judge; its encoder is loaded once, at the first text or `warm()`, and tried again after a failed load. */
export function builtInJudge(logger: Logger): MeaningJudge {
  let loading: Promise<UseEmbedder> | null = null;
  return new MeaningJudge(
    () =>
      (loading ??= UseEmbedder.load().catch((err: unknown) => {
        loading = null;
        logger.warn({ err: errorMessage(err) }, 'the judge by meaning could not load its sentence encoder: messages are kept from hosted services until it can');
        throw err;
      })),
  );
}
