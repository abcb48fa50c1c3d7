import { TtsTimeoutError } from './errors.js';

/**
 * Settle with `work`, or reject after `ms` with a `TtsTimeoutError`, or on abort — whichever
 * comes first. `work` may never settle (edge-tts-universal offline); it is abandoned.
 */
export function withTimeout<T>(work: Promise<T>, ms: number, engine: string, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => done(() => reject(new TtsTimeoutError(engine, ms))), ms);
    const onAbort = () => done(() => reject(signal?.reason as Error));
    signal?.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    function done(fn: () => void) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fn();
    }
    work.then(
      (v) => done(() => resolve(v)),
      (e: unknown) =>
        done(() => {
          reject(e);
        }),
    );
  });
}
