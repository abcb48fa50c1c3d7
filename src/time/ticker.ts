/**
 * The scheduler's one timer (the core owns none): wakes when the next job is due, or every
 * `maxSleepMs` at most (a job added meanwhile, a changed clock), and calls `tick()`.
 */
import type { Logger } from '../core/ports/index.js';
import type { Scheduler } from '../core/time/scheduler.js';

export function startTicker(scheduler: Scheduler, logger: Logger, maxSleepMs = 15_000): () => void {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const loop = () => {
    if (stopped) return;
    scheduler
      .tick()
      .catch((err: unknown) => logger.warn({ err }, 'scheduler tick failed'))
      .finally(() => {
        if (stopped) return;
        const next = scheduler.nextDue();
        const sleep = next ? Math.min(maxSleepMs, Math.max(250, next.getTime() - Date.now())) : maxSleepMs;
        timer = setTimeout(loop, sleep);
        timer.unref();
      });
  };
  loop();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
