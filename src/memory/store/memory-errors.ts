import { CharlieError } from '../../core/errors.js';
import type { FileProblem } from '../../core/ports/index.js';
import { formatProblem } from '../../util/error-text.js';

/** A Markdown file that does not parse; it is left untouched until a person fixes it. */
export class MemoryFileError extends CharlieError {
  constructor(
    readonly problem: FileProblem,
    options?: { cause?: unknown },
  ) {
    super(`${formatProblem(problem)} — fix the file by hand; Charlie will not overwrite it`, options);
  }
}
