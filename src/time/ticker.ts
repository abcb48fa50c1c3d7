/**
 * The process's repeating timers, all here (test/unit/one-scheduler.test.ts fails on a
 * `setInterval` anywhere else in src). The scheduler's one timer (the core owns none): wakes when the next job is due, or every `maxSleepMs` at most
 * (a job added meanwhile, a changed clock), and calls `tick()`. It does not wait for the tick's
 * deliveries to end: each runs under its own deadline, so the next wake-up is never late because
 * one job is stuck.
 */
import type { Logger } from '../core/ports/index.js';
import type { Scheduler } from '../core/time/scheduler.js';

export function startTicker(scheduler: Scheduler, logger: Logger, maxSleepMs = 15_000): () => void {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const loop = () => {
    if (stopped) return;
    try {
      scheduler.tick().catch((err: unknown) => logger.warn({ err }, 'scheduler tick failed'));
    } catch (err) {
      logger.warn({ err }, 'scheduler tick failed');
    }
    const next = scheduler.nextDue();
    const sleep = next ? Math.min(maxSleepMs, Math.max(250, next.getTime() - Date.now())) : maxSleepMs;
    timer = setTimeout(loop, sleep);
    timer.unref();
  };
  loop();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    scheduler.close();
  };
}

/**
 * A beat bound to one connection or one turn, not a job: Discord's typing indicator while a reply
 * is written, an open event stream's keep-alive. Whoever starts it stops it when its turn or
 * connection ends; periodic work of Charlie's own is a job kind of the scheduler instead.
 */
export function heartbeat(beat: () => void, everyMs: number): () => void {
  const timer = setInterval(beat, everyMs);
  return () => clearInterval(timer);
}
