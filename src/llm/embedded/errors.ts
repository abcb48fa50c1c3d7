/** Failures of the embedded model, each saying what to do. */
import { ModelError, type ModelErrorKind } from '../../core/errors.js';
import { errorMessage } from '../../util/error-text.js';

export type EmbeddedErrorKind = 'missing_file' | 'load_failed' | 'out_of_memory' | 'context_overflow' | 'generation_failed';

/** The model-error kind the turn acts on (a context overflow is retried with less history). */
const AS_MODEL_ERROR: Record<EmbeddedErrorKind, ModelErrorKind> = {
  missing_file: 'unreachable',
  load_failed: 'unreachable',
  out_of_memory: 'unreachable',
  context_overflow: 'context_too_long',
  generation_failed: 'server_error',
};

export class EmbeddedModelError extends ModelError {
  readonly kind: ModelErrorKind;
  override readonly remedy = 'the built-in model could not run; the owner should run `npm run doctor`';
  constructor(
    /** What went wrong in the embedded runtime, more precisely than `kind`. */
    readonly reason: EmbeddedErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.kind = AS_MODEL_ERROR[reason];
  }

  /** Nothing here is worth retrying at once: the same file and memory give the same result. */
  override get isRetryable(): boolean {
    return false;
  }
}

function text(err: unknown): string {
  return errorMessage(err);
}

export function embeddedLoadError(modelPath: string, err: unknown): EmbeddedModelError {
  const m = text(err);
  if (err instanceof EmbeddedModelError) return err;
  if (/ENOENT|no such file|not found/i.test(m))
    return new EmbeddedModelError('missing_file', `the embedded model file ${modelPath} is missing — run \`npm run models -- pull\` or set EMBEDDED_MODEL_PATH`, { cause: err });
  if (/memory|VRAM|alloc/i.test(m))
    return new EmbeddedModelError(
      'out_of_memory',
      `not enough memory to load the embedded model ${modelPath} (${m}) — lower EMBEDDED_CONTEXT_SIZE or EMBEDDED_GPU_LAYERS, or pick a smaller EMBEDDED_MODEL`,
      { cause: err },
    );
  return new EmbeddedModelError('load_failed', `the embedded model ${modelPath} could not be loaded: ${m} — is it a complete GGUF file? \`npm run models -- pull\` fetches it again`, { cause: err });
}

export function embeddedGenerationError(err: unknown): EmbeddedModelError {
  if (err instanceof EmbeddedModelError) return err;
  const m = text(err);
  if (/context size|context shift/i.test(m))
    return new EmbeddedModelError('context_overflow', `the conversation does not fit the embedded model's context (${m}) — raise EMBEDDED_CONTEXT_SIZE or lower HISTORY_MESSAGES`, { cause: err });
  if (/memory|alloc/i.test(m)) return new EmbeddedModelError('out_of_memory', `the embedded model ran out of memory (${m}) — lower EMBEDDED_CONTEXT_SIZE`, { cause: err });
  return new EmbeddedModelError('generation_failed', `the embedded model failed: ${m}`, { cause: err });
}
