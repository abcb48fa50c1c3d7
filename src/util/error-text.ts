/**
 * Error to text, written once: for replies, notices and check results. Logs take the error
 * object itself (`logger.warn({ err }, …)`), so the logger keeps its stack and cause.
 */

/** A problem in a file, as `path:line: message` (the line is left out when unknown). */
export interface LocatedProblem {
  path: string;
  line?: number;
  message: string;
}

/** The message of an error, or the thrown value as text. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The message and, when there is one it does not already say, the message of its cause: "fetch failed: ECONNREFUSED". */
export function errorWithCause(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error && !err.message.includes(err.cause.message) ? `${err.message}: ${err.cause.message}` : err.message;
}

/** A problem in a file as `path:line: message` (the line left out when unknown). */
export function formatProblem(p: LocatedProblem): string {
  return `${p.path}${p.line ? `:${p.line}` : ''}: ${p.message}`;
}
