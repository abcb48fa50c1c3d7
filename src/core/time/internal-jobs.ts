/**
 * Charlie's own periodic work (a backup check, reflection) as jobs of the one scheduler: a job
 * with a fixed id and a cron rule, kept while its setting is on and removed when it is off, so
 * it survives restarts like any reminder, runs under its kind's deadline beside the others, and
 * no module keeps a timer or a `running` flag of its own.
 */
import type { Clock } from '../ports/index.js';
import { INTERNAL_PLACE, type JobKind, type JobStore } from './jobs.js';
import { nextOccurrence } from './recurrence.js';

export interface InternalJob {
  id: string;
  kind: JobKind;
  /** croner syntax, read in `tz`. */
  cron: string;
  tz: string;
}

/** Adds the job when `enabled` (or brings a finished one back), removes it when not. */
export function keepInternalJob(jobs: JobStore, job: InternalJob, enabled: boolean, clock: Clock): void {
  const existing = jobs.get(job.id);
  if (!enabled) {
    if (existing) jobs.remove(job.id);
    return;
  }
  const now = clock.now();
  const rule = { cron: job.cron };
  // the next occurrence only when the job is (re)written: a restart that finds it pending as it was computes none
  const due = () => nextOccurrence({ ...job, rule, owner: '', place: INTERNAL_PLACE(job.kind), payload: {}, due: now, status: 'pending', created: now, fired: 0 }, now) ?? now;
  if (!existing || existing.rule?.cron !== job.cron || existing.tz !== job.tz || existing.status === 'cancelled') {
    if (existing) jobs.remove(job.id);
    jobs.add({ id: job.id, kind: job.kind, owner: '', place: INTERNAL_PLACE(job.kind), due: due(), tz: job.tz, rule, payload: {} }, now);
  } else if (existing.status !== 'pending') jobs.reschedule(job.id, due());
}
