/**
 * Time is a port: jobs (reminders, commitment follow-ups, calendar polls, morning briefs) are
 * rows in a durable store, written before they are acknowledged. The core never sets a timer of
 * its own; an adapter calls `Scheduler.tick()` (src/core/time/scheduler.ts) and tests drive it
 * with a fake clock.
 */
import type { Place } from '../place.js';

export type JobKind = 'reminder' | 'follow-up' | 'follow-up-scan' | 'calendar-poll' | 'brief';

/** How a job comes back: a cron expression (croner, with `#` and `L`) read in `tz`. */
export interface Recurrence {
  cron: string;
}

export interface NewJob {
  /** Stable id; a second `add` with the same id is refused (exactly one follow-up per record). */
  id: string;
  kind: JobKind;
  /** Who the job is for (a Discord user id, `terminal:<name>`, or '' for a project's job). */
  owner: string;
  /** Where it is delivered: the channel or the DM it was asked in. */
  place: Place;
  /** Due time (first occurrence). */
  due: Date;
  /** IANA time zone the job's wall-clock times are read in. */
  tz: string;
  rule?: Recurrence;
  /** What the job's handler needs (a reminder's text, a record id …); JSON. */
  payload: Record<string, unknown>;
}

export interface Job extends NewJob {
  status: 'pending' | 'done' | 'cancelled';
  created: Date;
  /** How many occurrences were claimed so far. */
  fired: number;
}

/** One occurrence of a job, claimed for delivery. `key` is its idempotency key. */
export interface Claim {
  job: Job;
  /** The occurrence's due time. */
  due: Date;
  key: string;
  /** Claimed before, by a process that died before it could say the delivery was done. */
  redelivery: boolean;
  attempts: number;
}

/**
 * The durable job table. Every method is one transaction: `claimDue` records the delivery
 * (keyed by job and occurrence) and moves the job to its next occurrence together, so a crash at
 * any moment leaves either an unclaimed job or a claimed occurrence, never both, never two.
 */
export interface JobStore {
  /** false when a job with this id exists (any status). */
  add(job: NewJob, now: Date): boolean;
  get(id: string): Job | null;
  list(filter: { owner?: string; kind?: JobKind; status?: Job['status'] }): Job[];
  cancel(id: string): boolean;
  /** Moves a pending or done job to a new due time (snooze, "not yet"); pending again. */
  reschedule(id: string, due: Date): boolean;
  /** Patches a job's payload (e.g. a calendar's change marker). */
  setPayload(id: string, payload: Record<string, unknown>): void;
  /** Claims every occurrence due at `now`, and moves each job to `next(job, now)` or done. */
  claimDue(now: Date, next: (job: Job, after: Date) => Date | null, limit: number): Claim[];
  /** Occurrences claimed but not yet delivered (a crash, or a failed delivery) and not retried since `before`. */
  unfinished(before: Date): Claim[];
  /** The delivery happened. */
  delivered(key: string, at: Date): void;
  /** The delivery failed; it is tried again later unless `final`. */
  failed(key: string, at: Date, final: boolean): void;
  /** The earliest due time of a pending job (the adapter's timer sleeps until then). */
  nextDue(): Date | null;
}

/** Per-person settings of time: their time zone and morning brief. */
export interface TimeSettings {
  zoneOf(owner: string): string | null;
  setZone(owner: string, tz: string): void;
}
