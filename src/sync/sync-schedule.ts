/**
 * The sync while Charlie runs (SYNC_EVERY_MINUTES > 0 and the device set up): a job kind of the
 * one scheduler (a fixed-id job with a cron rule, like the backup check), plus one sync at start;
 * never two at once; a failure is logged and kept in the state file for `/sync status` and doctor,
 * and the next occurrence tries again (a device offline for days syncs when it is back). `after`
 * re-indexes what arrived when the watcher is off, also after a sync a front door starts
 * (`forDoors`: the web app's "Sync now").
 */
import type { Clock, Logger, SyncEngine, SyncReport } from '../core/ports/index.js';
import type { Scheduler } from '../core/time/scheduler.js';
import type { JobStore } from '../core/time/jobs.js';
import { keepInternalJob } from '../core/time/internal-jobs.js';

export interface SyncScheduleOptions {
  /** null: this device is not set up for sync, so no sync job is kept (one left from before is removed). */
  sync: SyncEngine | null;
  everyMinutes: number;
  logger: Logger;
  after?: (changed: readonly string[]) => Promise<unknown>;
  tz: string;
  clock: Clock;
}

/** The sync job's id in the job store. */
export const SYNC_JOB_ID = 'internal-sync';

/** A cron rule for "every N minutes": minutes that divide an hour, else whole hours (at least one). */
export function syncCron(everyMinutes: number): string {
  if (everyMinutes < 60) return `*/${Math.max(1, Math.round(everyMinutes))} * * * *`;
  const hours = Math.min(24, Math.max(1, Math.round(everyMinutes / 60)));
  return hours >= 24 ? '0 3 * * *' : `0 */${hours} * * *`;
}

interface Syncing {
  stop: () => void;
  idle: () => Promise<void>;
  /** The engine as front doors use it: a sync they start re-indexes what arrived, as the scheduled one does (null stays null). */
  forDoors: (engine: SyncEngine | null) => SyncEngine | null;
}

export function attachSyncing(scheduler: Scheduler, jobs: JobStore, o: SyncScheduleOptions): Syncing {
  let running: Promise<void> | null = null;
  const controller = new AbortController();
  const { sync } = o;
  const every = sync ? o.everyMinutes : 0;
  const run = async (engine: SyncEngine, signal: AbortSignal): Promise<SyncReport> => {
    const report = await engine.syncNow(signal);
    if (report.changed.length || report.review.length) o.logger.info({ changed: report.changed.length, review: report.review.length, notes: report.notes.length }, 'synced');
    if (report.changed.length && o.after) await o.after(report.changed);
    return report;
  };
  const both = (signal?: AbortSignal) => (signal ? AbortSignal.any([signal, controller.signal]) : controller.signal);
  const once = (signal?: AbortSignal): Promise<void> => {
    if (running) return running;
    if (!sync) return Promise.resolve();
    running = run(sync, both(signal))
      .then(() => {})
      .catch((err: unknown) => o.logger.warn({ err }, 'sync failed; tried again at the next interval'))
      .finally(() => (running = null));
    return running;
  };
  scheduler.handle('sync', async (claim) => {
    if (every > 0) await once(claim.signal);
  });
  keepInternalJob(jobs, { id: SYNC_JOB_ID, kind: 'sync', cron: syncCron(Math.max(1, o.everyMinutes)), tz: o.tz }, every > 0, o.clock);
  if (every > 0) void once();
  return {
    stop: () => controller.abort(),
    idle: async () => {
      await running;
    },
    // the engine runs one sync at a time itself (a queue and a lock file): one started here waits for the scheduled one
    forDoors: (engine) => engine && { status: () => engine.status(), syncNow: (signal) => run(engine, both(signal)) },
  };
}
