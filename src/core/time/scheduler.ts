/**
 * The scheduler: asks the job store for what is due and hands each occurrence to the handler of
 * its kind. It owns no timer: an adapter calls `tick()` (src/time/ticker.ts), tests call it with a
 * fake clock. Claiming an occurrence and moving the job on are one transaction in the store; the
 * delivery is then marked done. An occurrence whose process died before that is handed out again
 * on start with `redelivery` and the same idempotency key, so the front door sends it once
 * (Discord's enforced nonce, an upsert keyed by it). A job missed while Charlie was down fires
 * once, late, and a recurring one then goes on from now (not once per missed occurrence).
 */
import type { Clock, Logger } from '../ports/index.js';
import type { Claim, JobKind, JobStore } from './jobs.js';
import { nextOccurrence, showTime } from './recurrence.js';

export interface Delivery extends Claim {
  /** Delivered more than the grace period after it was due (Charlie was down, or busy). */
  late: boolean;
}

export type JobHandler = (delivery: Delivery) => Promise<void>;

export interface SchedulerOptions {
  /** A delivery this long after its due time says it is late. */
  graceMs?: number;
  /** A failed delivery is tried again after this long… */
  retryMs?: number;
  /** …at most this many times. */
  maxAttempts?: number;
  /** Occurrences claimed per tick. */
  batch?: number;
}

export class Scheduler {
  private readonly handlers = new Map<JobKind, JobHandler>();
  private readonly graceMs: number;
  private readonly retryMs: number;
  private readonly maxAttempts: number;
  private readonly batch: number;
  private running: Promise<number> | null = null;
  private started = false;

  constructor(
    private readonly store: JobStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: SchedulerOptions = {},
  ) {
    this.graceMs = options.graceMs ?? 90_000;
    this.retryMs = options.retryMs ?? 60_000;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.batch = options.batch ?? 50;
  }

  /** The one handler of a kind (reminders, follow-ups, polls, briefs register theirs). */
  handle(kind: JobKind, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Delivers what is due now; returns how many occurrences were handed out. One tick at a time. */
  tick(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.run().finally(() => (this.running = null));
    return this.running;
  }

  /** When the next job is due (for the adapter's timer). */
  nextDue(): Date | null {
    return this.store.nextDue();
  }

  private async run(): Promise<number> {
    const now = this.clock.now();
    // On the first tick, every unfinished occurrence is a previous process's: hand it out again.
    const again = this.store.unfinished(this.started ? new Date(now.getTime() - this.retryMs) : now);
    this.started = true;
    const claims = [...again, ...this.store.claimDue(now, nextOccurrence, this.batch)];
    for (const claim of claims) await this.deliver(claim, now);
    return claims.length;
  }

  private async deliver(claim: Claim, now: Date): Promise<void> {
    const handler = this.handlers.get(claim.job.kind);
    const log = this.logger.child({ job: claim.job.id, kind: claim.job.kind });
    if (!handler) {
      log.warn('no handler for this kind of job; it is tried again later');
      this.store.failed(claim.key, now, claim.attempts + 1 >= this.maxAttempts);
      return;
    }
    try {
      await handler({ ...claim, late: now.getTime() - claim.due.getTime() > this.graceMs });
      this.store.delivered(claim.key, this.clock.now());
    } catch (err) {
      const final = claim.attempts + 1 >= this.maxAttempts;
      log.warn({ err, attempts: claim.attempts + 1, final }, 'job delivery failed');
      this.store.failed(claim.key, this.clock.now(), final);
    }
  }
}

/** The line a late delivery starts with. */
export function lateLine(due: Date, tz: string): string {
  return `late: this was due at ${showTime(due, tz)}`;
}
