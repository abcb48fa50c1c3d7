/**
 * Error to text, written once: for replies, notices and check results. Logs take the error
 * object itself (`logger.warn({ err }, …)`), so the logger keeps its stack and cause.
 */

/** The message of an error, or the thrown value as text. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
