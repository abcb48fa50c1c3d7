/**
 * The scheduler: asks the job store for what is due and hands each occurrence to the handler of
 * its kind. It owns no timer: an adapter calls `tick()` (src/time/ticker.ts), tests call it with a
 * fake clock. Claiming an occurrence and moving the job on are one transaction in the store; the
 * delivery is then marked done. An occurrence whose process died before that is handed out again
 * on start with `redelivery` and the same idempotency key, so the front door sends it once
 * (Discord's enforced nonce, an upsert keyed by it). A job missed while Charlie was down fires
 * once, late, and a recurring one then goes on from now (not once per missed occurrence).
 *
 * Every periodic job of Charlie is a kind here (reminders, follow-ups, calendar polls, briefs,
 * backups, reflection). Due occurrences run concurrently, up to `concurrency`, each under its
 * kind's deadline (JOB_DEADLINES) with an AbortSignal: a stuck calendar poll holds one slot until
 * its deadline and never delays a reminder (background kinds leave one slot free for deliveries).
 * A front door that is not open yet (`NoDoorOpenError`) is not a failed attempt: the occurrence
 * waits, and `wake()` — called when a door opens — delivers what waits at once. A clock set back
 * (behind the latest claim) moves recurring jobs to their next occurrence from the new now, and
 * what was delivered "in the future" is delivered again when the clock gets there: the new clock
 * is the one trusted.
 */
import { withDeadline } from '../ports/deadlines.js';
import type { Clock, Logger } from '../ports/index.js';
import { BACKGROUND_KINDS, JOB_DEADLINES, type Claim, type JobKind, type JobStore } from './jobs.js';
import { isNoDoorOpen } from './outbox.js';
import { nextOccurrence, showTime } from './recurrence.js';

export interface Delivery extends Claim {
  /** Delivered more than the grace period after it was due (Charlie was down, or busy). */
  late: boolean;
  /** Aborted when the job's deadline passes (or Charlie closes). */
  signal: AbortSignal;
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
  /** Occurrences delivered at the same time at most (SCHEDULER_CONCURRENCY). */
  concurrency?: number;
  /** Deadlines per kind, over JOB_DEADLINES. */
  deadlines?: Partial<Record<JobKind, number>>;
}

/** A clock this far behind the latest claim was set back. */
const CLOCK_BACK_MS = 5 * 60_000;
const PRUNE_EVERY_MS = 86_400_000;
const KEEP_DELIVERIES_MS = 7 * 86_400_000;

interface Queued {
  claim: Claim;
  done: () => void;
}

export class Scheduler {
  private readonly handlers = new Map<JobKind, JobHandler>();
  private readonly graceMs: number;
  private readonly retryMs: number;
  private readonly maxAttempts: number;
  private readonly batch: number;
  private readonly concurrency: number;
  private readonly deadlines: Record<JobKind, number>;
  /** Keys queued or being delivered (never handed out twice at once). */
  private readonly keys = new Set<string>();
  /** Jobs whose handler is still running (past its deadline too): their next occurrence waits. */
  private readonly busyJobs = new Set<string>();
  private readonly queue: Queued[] = [];
  private running = 0;
  private runningBackground = 0;
  private started = false;
  private doorOpened = false;
  /** The latest time seen: the store's latest claim at start, then each tick's now. */
  private latest: number | null = null;
  /** The now at which recurring jobs were last recomputed after a jump back. */
  private recomputedAt: number | null = null;
  private lastPrune = 0;
  /** How many times a door opened; a delivery that found none while one opened is tried again at once. */
  private wakes = 0;
  private wakeAgain = false;
  /** Occurrences that found no front door open (a door that opens delivers them at once). */
  private readonly waitingKeys = new Set<string>();
  private readonly closing = new AbortController();

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
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.deadlines = { ...JOB_DEADLINES, ...options.deadlines };
  }

  /** The one handler of a kind (reminders, follow-ups, polls, briefs, backups, reflection register theirs). */
  handle(kind: JobKind, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /**
   * Claims what is due now and starts delivering it; resolves, with how many occurrences were
   * handed out, when those deliveries ended (each within its deadline). A tick never waits for
   * another: what a stuck delivery holds is its own slot.
   */
  tick(): Promise<number> {
    const claims = this.claim(this.clock.now());
    return Promise.all(claims.map((claim) => this.enqueue(claim))).then(() => claims.length);
  }

  /** A front door opened: what waited for one is delivered now. */
  wake(): Promise<number> {
    this.wakes++;
    this.doorOpened = true;
    return this.tick();
  }

  /** When the next job is due (for the adapter's timer). */
  nextDue(): Date | null {
    return this.store.nextDue();
  }

  /** Aborts the deliveries under way (Charlie is closing). */
  close(): void {
    this.closing.abort();
  }

  private claim(now: Date): Claim[] {
    this.recomputeIfClockWentBack(now);
    if (now.getTime() - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = now.getTime();
      this.store.prune(new Date(now.getTime() - KEEP_DELIVERIES_MS));
    }
    // On the first tick every unfinished occurrence is a previous process's; after a door opened, what waited for one waits no longer.
    const first = !this.started;
    const woken = this.doorOpened;
    this.started = true;
    this.doorOpened = false;
    let again = this.store.unfinished(first ? now : new Date(now.getTime() - this.retryMs));
    if (woken && !first) {
      const seen = new Set(again.map((c) => c.key));
      again = [...again, ...this.store.unfinished(now).filter((c) => this.waitingKeys.has(c.key) && !seen.has(c.key))];
    }
    return [...again, ...this.store.claimDue(now, nextOccurrence, this.batch)].filter((c) => !this.keys.has(c.key));
  }

  private recomputeIfClockWentBack(now: Date): void {
    const t = now.getTime();
    this.latest ??= this.store.latestClaim()?.getTime() ?? t;
    if (this.latest - t > CLOCK_BACK_MS && (this.recomputedAt === null || t < this.recomputedAt)) {
      this.recomputedAt = t;
      let moved = 0;
      for (const job of this.store.list({ status: 'pending' })) {
        const next = job.rule ? nextOccurrence(job, new Date(t - 1)) : null;
        if (next && next < job.due && this.store.reschedule(job.id, next)) moved++;
      }
      // occurrences delivered "in the future" come again when the clock reaches them
      const forgotten = this.store.forgetClaimsAfter(now);
      this.logger.warn({ behindMs: this.latest - t, moved, forgotten }, 'the clock was set back: recurring jobs go on from the new time');
    }
    this.latest = Math.max(this.latest, t);
  }

  private enqueue(claim: Claim): Promise<void> {
    this.keys.add(claim.key);
    return new Promise<void>((done) => {
      this.queue.push({ claim, done });
      this.pump();
    });
  }

  /** Starts queued deliveries while slots are free; a background kind never takes the last slot. */
  private pump(): void {
    for (let i = 0; i < this.queue.length && this.running < this.concurrency;) {
      const { claim, done } = this.queue[i]!;
      const background = BACKGROUND_KINDS.has(claim.job.kind);
      if (this.busyJobs.has(claim.job.id) || (background && this.runningBackground >= this.concurrency - 1 && this.concurrency > 1)) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      this.running++;
      if (background) this.runningBackground++;
      void this.deliver(claim).finally(() => {
        this.running--;
        if (background) this.runningBackground--;
        this.keys.delete(claim.key);
        done();
        if (this.wakeAgain) {
          this.wakeAgain = false;
          void this.wake();
        }
        this.pump();
      });
    }
  }

  private async deliver(claim: Claim): Promise<void> {
    const now = this.clock.now();
    const { kind, id } = claim.job;
    const handler = this.handlers.get(kind);
    const log = this.logger.child({ job: id, kind });
    if (!handler) {
      log.warn('no handler for this kind of job; it is tried again later');
      this.store.failed(claim.key, now, claim.attempts + 1 >= this.maxAttempts);
      return;
    }
    const late = now.getTime() - claim.due.getTime() > this.graceMs;
    const wakes = this.wakes;
    this.busyJobs.add(id);
    let work: Promise<void> = Promise.resolve();
    try {
      await withDeadline(
        kind,
        this.deadlines[kind],
        (signal) => {
          work = handler({ ...claim, late, signal });
          return work;
        },
        { signal: this.closing.signal, logger: log, what: 'scheduled job' },
      );
      this.store.delivered(claim.key, this.clock.now());
      this.waitingKeys.delete(claim.key);
    } catch (err) {
      if (isNoDoorOpen(err)) {
        this.waitingKeys.add(claim.key);
        log.debug('no front door is open for this job yet: it waits (not a failed attempt)');
        this.store.waiting(claim.key, this.clock.now());
        if (this.wakes !== wakes) this.wakeAgain = true; // a door opened while this one looked for it
        return;
      }
      this.waitingKeys.delete(claim.key);
      const final = claim.attempts + 1 >= this.maxAttempts;
      log.warn({ err, attempts: claim.attempts + 1, final }, 'job delivery failed');
      this.store.failed(claim.key, this.clock.now(), final);
    } finally {
      // a handler past its deadline may still be running: the job's next occurrence waits for it
      void work
        .catch(() => {})
        .finally(() => {
          this.busyJobs.delete(id);
          this.pump();
        });
    }
  }
}

/** The line a late delivery starts with. */
export function lateLine(due: Date, tz: string): string {
  return `late: this was due at ${showTime(due, tz)}`;
}
