/**
 * Time is a port: jobs (reminders, commitment follow-ups, calendar polls, morning briefs, backups, reflection) are
 * rows in a durable store, written before they are acknowledged. The core never sets a timer of
 * its own; an adapter calls `Scheduler.tick()` (src/core/time/scheduler.ts) and tests drive it
 * with a fake clock.
 */
import type { Place } from '../place.js';

/** Every kind of job, the one list (the store's schema and the tests read it). */
export const JOB_KINDS = ['reminder', 'follow-up', 'follow-up-scan', 'calendar-poll', 'brief', 'backup', 'reflection', 'sync', 'index-sweep'] as const;

export type JobKind = (typeof JOB_KINDS)[number];

/** How long one delivery of each kind may take before it is a failed attempt (SchedulerOptions.deadlines changes them). */
export const JOB_DEADLINES: Record<JobKind, number> = {
  reminder: 30_000,
  'follow-up': 30_000,
  'follow-up-scan': 120_000,
  'calendar-poll': 120_000,
  brief: 60_000,
  backup: 3_600_000,
  reflection: 900_000,
  // a sync's git calls each have SYNC_TIMEOUT_MS; the whole sync may take a few of them
  sync: 900_000,
  // letting go of idle projects' search data: in memory, no reads
  'index-sweep': 30_000,
};

/** Kinds that do work rather than show something: together they never take the last free slot. */
export const BACKGROUND_KINDS: ReadonlySet<JobKind> = new Set<JobKind>(['follow-up-scan', 'calendar-poll', 'backup', 'reflection', 'sync', 'index-sweep']);

/** Where Charlie's own jobs (a scan, a backup, reflection) say they belong: no front door delivers to it. */
export const INTERNAL_PLACE = (name: string): Place => ({ kind: 'project', origin: { name: 'all', key: `internal:${name}` } });

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
  /** Deletes a job and its deliveries (Charlie's own jobs, when their setting is switched off). */
  remove(id: string): void;
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
  /** No front door could show it yet: tried again later (or when one opens), and not counted as an attempt. */
  waiting(key: string, at: Date): void;
  /** The latest time an occurrence was claimed (a clock now far behind it was set back), or null. */
  latestClaim(): Date | null;
  /** Forgets finished deliveries claimed after `at` (a clock set back: those occurrences come again); returns how many. */
  forgetClaimsAfter(at: Date): number;
  /** Forgets finished deliveries older than `before`. */
  prune(before: Date): void;
  /** The earliest due time of a pending job (the adapter's timer sleeps until then). */
  nextDue(): Date | null;
}

/** Per-person settings of time: their time zone and morning brief. */
export interface TimeSettings {
  zoneOf(owner: string): string | null;
  setZone(owner: string, tz: string): void;
}
