/**
 * Wall-clock time in a person's zone: the next occurrence of a cron rule (croner, which keeps
 * 09:00 at 09:00 across a daylight-saving change), zone checks and how a time is shown (luxon).
 * Both are kept libraries: time-zone arithmetic is where hand-written code goes wrong.
 */
import { Cron } from 'croner';
import { DateTime, IANAZone } from 'luxon';
import type { Job } from './jobs.js';

export function validZone(tz: string): boolean {
  return IANAZone.isValidZone(tz);
}

/** Whether a cron expression parses (croner syntax: 5 or 6 fields, `#` for "first Monday", `L`). */
export function validCron(cron: string, tz: string): boolean {
  try {
    new Cron(cron, { timezone: tz, paused: true });
    return true;
  } catch {
    return false;
  }
}

/** The first occurrence of `cron` in `tz` strictly after `after`, or null when there is none. */
export function nextOfRule(cron: string, tz: string, after: Date): Date | null {
  return new Cron(cron, { timezone: tz, paused: true }).nextRun(after);
}

/** A job's next occurrence after `after`: its rule's, or none for a one-off job. */
export function nextOccurrence(job: Job, after: Date): Date | null {
  return job.rule ? nextOfRule(job.rule.cron, job.tz, after) : null;
}

/** "Fri 4 Dec 2026, 18:00 (Europe/Berlin)": the time as the person reads it. */
export function showTime(at: Date, tz: string): string {
  return `${DateTime.fromJSDate(at, { zone: tz }).toFormat('ccc d LLL yyyy, HH:mm')} (${tz})`;
}

/** The person's calendar day of `at` (YYYY-MM-DD). */
export function dayIn(at: Date, tz: string): string {
  return DateTime.fromJSDate(at, { zone: tz }).toISODate() ?? at.toISOString().slice(0, 10);
}

/** `day` (YYYY-MM-DD) at `hour`:`minute` in `tz`, as an instant (a DST gap moves forward, as luxon does). */
export function atLocal(day: string, hour: number, minute: number, tz: string): Date {
  return DateTime.fromISO(day, { zone: tz }).set({ hour, minute, second: 0, millisecond: 0 }).toJSDate();
}
