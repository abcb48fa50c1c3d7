/**
 * The scheduler's one timer (the core owns none, and no other periodic timer runs in src: see
 * test/unit/one-scheduler.test.ts): wakes when the next job is due, or every `maxSleepMs` at most
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
