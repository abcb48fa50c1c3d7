/**
 * A search waits for its project's index to catch up only so long: a project whose huge archive
 * was never indexed (250,000 entries take minutes) answers from the index as it is, and the
 * catch-up goes on behind the turn. The wait is a port so tests decide when it runs out.
 */

/** Resolves when the search should stop waiting for the sync; `signal` aborts when the sync ended first. */
export type SyncWait = (signal: AbortSignal) => Promise<void>;

/**
 * 15 s: far more than an incremental sync or the first indexing of an ordinary project takes (so a
 * search still sees a page changed just before it), well inside the turn deadline (180 s).
 */
export const SYNC_WAIT_MS = 15_000;

export const defaultSyncWait: SyncWait = (signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, SYNC_WAIT_MS);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** The sync's result, or `late` when the wait ran out first (the sync goes on). */
export async function boundedSync<T>(sync: Promise<T>, wait: SyncWait): Promise<T | 'late'> {
  const done = new AbortController();
  try {
    return await Promise.race([sync, wait(done.signal).then(() => 'late' as const)]);
  } finally {
    done.abort();
  }
}
