/** Backoff for retried model requests: exponential with jitter, Retry-After respected but capped. */

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** Random source in [0, 1); injectable for tests. */
  random?: () => number;
}

/** Delay before retry number `attempt` (0 = first retry). */
export function backoffDelay(attempt: number, retryAfterMs: number | undefined, options: BackoffOptions): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), options.maxMs);
  const exp = options.baseMs * 2 ** attempt;
  const jitter = 0.5 + (options.random ?? Math.random)() * 0.5; // 50–100 % of the step
  return Math.min(Math.round(exp * jitter), options.maxMs);
}

/** `Retry-After` as seconds or an HTTP date → milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Sleep that rejects with the signal's reason when it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The error to throw for an aborted signal: its reason when that is an Error, else an AbortError. */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('the request was aborted', 'AbortError');
}
