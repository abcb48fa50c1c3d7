/**
 * The sync while Charlie runs (SYNC_EVERY_MINUTES > 0 and the device set up): one sync at start
 * and then every interval, never two at once; a failure is logged and kept in the state file for
 * `/sync status` and doctor, and the next interval tries again (a device offline for days syncs
 * when it is back). `after` re-indexes what arrived when the watcher is off.
 */
import type { Logger, SyncEngine } from '../core/ports/index.js';

export interface SyncScheduleOptions {
  sync: SyncEngine;
  everyMinutes: number;
  logger: Logger;
  after?: (changed: readonly string[]) => Promise<unknown>;
}

export function startSyncing(o: SyncScheduleOptions): { stop: () => void; idle: () => Promise<void> } {
  if (o.everyMinutes <= 0) return { stop: () => {}, idle: () => Promise.resolve() };
  let running: Promise<void> | null = null;
  const controller = new AbortController();
  const tick = () => {
    if (running) return;
    running = o.sync
      .syncNow(controller.signal)
      .then(async (report) => {
        if (report.changed.length || report.review.length) o.logger.info({ changed: report.changed.length, review: report.review.length, notes: report.notes.length }, 'synced');
        if (report.changed.length && o.after) await o.after(report.changed);
      })
      .catch((err: unknown) => o.logger.warn({ err }, 'sync failed; tried again at the next interval'))
      .finally(() => (running = null));
  };
  const timer = setInterval(tick, o.everyMinutes * 60_000);
  timer.unref();
  tick();
  return {
    stop: () => {
      clearInterval(timer);
      controller.abort();
    },
    idle: async () => {
      await running;
    },
  };
}
