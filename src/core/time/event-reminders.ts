/**
 * Upcoming calendar events trigger reminders ("Dentist in 30 minutes"): a subscription with a
 * lead time keeps exactly one reminder job per upcoming event, keyed by the subscription and the
 * event's uid — added when the event appears, moved when it moves, cancelled when it is deleted
 * or the lead time is turned off. A poll that finds the calendar unchanged touches nothing, and
 * a changed one only moves what moved: no duplicates across polls. A reminder carries its event's
 * label (`sensitivity` in its payload), so what it says is judged like the event.
 */
import type { Place } from '../place.js';
import type { JobStore } from './jobs.js';
import { showTime } from './recurrence.js';

export interface UpcomingEvent {
  uid: string;
  summary: string;
  /** Start, ms since the epoch. */
  start: number;
  allDay: boolean;
  location: string;
  /** The event's label as it entered Charlie; the reminder made from it carries it. */
  sensitivity?: string;
}

export interface EventReminderScope {
  /** The subscription's job id. */
  subId: string;
  /** The calendar's name, shown with the reminder. */
  name: string;
  owner: string;
  place: Place;
  tz: string;
  /** 0: off (every reminder of this subscription is cancelled). */
  leadMinutes: number;
}

/** How far ahead events get their reminder (later ones get it on a later poll). */
const HORIZON_MS = 14 * 86_400_000;

/** FNV-1a: a short, stable id part for a uid of any length (Discord button ids are short). */
function shortHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
}

export function eventReminderPrefix(subId: string): string {
  return `evr-${shortHash(subId)}-`;
}

/** Brings the reminders of one subscription in line with its events; returns what changed. */
export function syncEventReminders(jobs: JobStore, scope: EventReminderScope, events: readonly UpcomingEvent[], now: Date): { added: number; moved: number; cancelled: number } {
  const prefix = eventReminderPrefix(scope.subId);
  const wanted = new Map<string, { due: Date; text: string; label: { sensitivity?: string } }>();
  if (scope.leadMinutes > 0) {
    for (const e of events) {
      if (e.allDay || e.start <= now.getTime() || e.start - now.getTime() > HORIZON_MS) continue;
      const due = new Date(Math.max(now.getTime(), e.start - scope.leadMinutes * 60_000));
      const text = `${e.summary || '(no title)'} in ${scope.leadMinutes} minutes: ${showTime(new Date(e.start), scope.tz)}${e.location ? `, ${e.location}` : ''} [${scope.name}]`;
      wanted.set(`${prefix}${shortHash(e.uid)}`, { due, text, label: e.sensitivity ? { sensitivity: e.sensitivity } : {} });
    }
  }
  const out = { added: 0, moved: 0, cancelled: 0 };
  const existing = jobs.list({ kind: 'reminder', owner: scope.owner }).filter((j) => j.id.startsWith(prefix));
  for (const job of existing) {
    const want = wanted.get(job.id);
    wanted.delete(job.id);
    if (!want) {
      if (job.status === 'pending' && jobs.cancel(job.id)) out.cancelled++;
      continue;
    }
    if (job.due.getTime() === want.due.getTime() && job.payload.text === want.text && job.payload.sensitivity === want.label.sensitivity) continue;
    if (job.status === 'cancelled') continue;
    // moved (or its text changed): the same job, at the new time; one already delivered comes again only if the event moved later
    if (job.status === 'done' && want.due.getTime() <= job.due.getTime()) continue;
    const { sensitivity: _was, ...rest } = job.payload;
    jobs.setPayload(job.id, { ...rest, text: want.text, ...want.label });
    jobs.reschedule(job.id, want.due);
    out.moved++;
  }
  for (const [id, want] of wanted) {
    if (jobs.add({ id, kind: 'reminder', owner: scope.owner, place: scope.place, due: want.due, tz: scope.tz, payload: { text: want.text, by: scope.name, event: true, ...want.label } }, now))
      out.added++;
  }
  return out;
}
