/**
 * iCalendar in and out with ical.js (Mozilla's parser, already read by the inbox): events of a
 * calendar file, recurring ones expanded into their occurrences near now, and one event written
 * for a CalDAV server.
 *
 * Reading is bounded work that shares the event loop: the file is parsed a few series at a time
 * (a series with its edited occurrences, and the file's time zones, in one small calendar), the
 * loop is yielded to whenever a slice has run `sliceMs`, and a feed gets `budget` recurrence
 * steps in all — a file of 3,000 once-a-second series is cut at its budget (and says so), it
 * does not hold every reminder for a minute.
 */
import ICAL from 'ical.js';
import type { CalendarEvent } from '../../core/time/calendar.js';
import { icsGroups } from './ics-split.js';

const DAY = 86_400_000;
const MAX_OCCURRENCES = 60;
/** Steps one series may walk to reach the window (a weekly series of 19 years). */
const MAX_STEPS_PER_SERIES = 1000;
/** Series (with their edited occurrences) parsed together. */
const GROUPS_PER_CHUNK = 20;

export interface ReadLimits {
  /** Recurrence steps the whole feed may take, shared by its parts (a CalDAV collection's objects); counts down. Default 20,000. */
  budget?: { steps: number };
  /** The longest the loop is held before it is yielded to (default 4 ms). */
  sliceMs?: number;
  /** Called once when the budget ran out: the rest of the feed's recurring events were cut. */
  onBudget?: (cut: { series: number }) => void;
}

/** A feed's budget of recurrence steps (about half a second of ical.js work, spread over slices). */
export function feedBudget(steps = 20_000): { steps: number } {
  return { steps };
}

/** Gives the event loop a turn (timers, I/O, other jobs) when the current slice has used its time. */
class Slices {
  private start = performance.now();
  constructor(private readonly ms: number) {}
  async check(): Promise<void> {
    if (performance.now() - this.start < this.ms) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.start = performance.now();
  }
}

/* eslint-disable @typescript-eslint/no-unnecessary-condition -- ical.js's types say every value is there; real .ics files leave many out */
/** The events of an iCalendar text; occurrences of a recurring one from 30 days ago to a year ahead. */
export async function parseEvents(text: string, now: Date, limits: ReadLimits = {}): Promise<CalendarEvent[]> {
  const slices = new Slices(limits.sliceMs ?? 4);
  const window = { from: now.getTime() - 30 * DAY, until: now.getTime() + 365 * DAY };
  const budget = limits.budget ?? feedBudget();
  const state = { budget, cut: 0 };
  const out: CalendarEvent[] = [];
  for (const chunk of await chunks(text, () => slices.check())) {
    await slices.check();
    const root = new ICAL.Component(ICAL.parse(chunk) as unknown[]);
    for (const vevent of root.getAllSubcomponents('vevent')) {
      if (vevent.hasProperty('recurrence-id')) continue; // an edited occurrence: read with its series
      await slices.check();
      await readEvent(new ICAL.Event(vevent), window, state, slices, out);
    }
  }
  if (state.cut > 0) limits.onBudget?.({ series: state.cut });
  return out;
}

/** The text in small calendars of a few series each (or whole, when it is not a VCALENDAR). */
async function chunks(text: string, pause: () => Promise<void>): Promise<string[]> {
  const split = await icsGroups(text, pause);
  if (!split) return [text];
  const out: string[] = [];
  for (let i = 0; i < split.groups.length; i += GROUPS_PER_CHUNK) out.push(`BEGIN:VCALENDAR\r\n${split.head}${split.groups.slice(i, i + GROUPS_PER_CHUNK).join('')}END:VCALENDAR\r\n`);
  return out;
}

async function readEvent(e: ICAL.Event, window: { from: number; until: number }, state: { budget: { steps: number }; cut: number }, slices: Slices, out: CalendarEvent[]): Promise<void> {
  if (!e.startDate) return;
  const base = {
    uid: e.uid || `${e.summary}@${e.startDate.toString()}`,
    summary: (e.summary || '').replace(/\s+/g, ' ').trim().slice(0, 200),
    location: (e.location || '').replace(/\s+/g, ' ').trim().slice(0, 200),
    allDay: e.startDate.isDate,
    // CLASS:PRIVATE or CONFIDENTIAL: the calendar's own owner marked it; it is labelled sensitive
    ...(/^(?:private|confidential)$/i.test(String(e.component.getFirstPropertyValue('class') ?? '')) ? { private: true } : {}),
  };
  if (!e.isRecurring()) {
    out.push({ ...base, start: e.startDate.toJSDate(), end: e.endDate ? e.endDate.toJSDate() : null });
    return;
  }
  if (state.budget.steps <= 0) {
    state.cut++;
    return;
  }
  const it = e.iterator();
  let kept = 0;
  for (let n = 0, t = it.next(); t && n < MAX_STEPS_PER_SERIES && kept < MAX_OCCURRENCES; n++, t = it.next()) {
    if (--state.budget.steps <= 0) break;
    if (n % 16 === 15) await slices.check();
    const start = t.toJSDate().getTime();
    if (start > window.until) break;
    if (start < window.from) continue;
    const occ = e.getOccurrenceDetails(t) as { startDate: ICAL.Time; endDate?: ICAL.Time };
    out.push({ ...base, uid: `${base.uid}#${t.toString()}`, start: occ.startDate.toJSDate(), end: occ.endDate ? occ.endDate.toJSDate() : null });
    kept++;
  }
}
/* eslint-enable @typescript-eslint/no-unnecessary-condition */

/** One VEVENT in a VCALENDAR, times in UTC. */
export function eventIcs(e: Omit<CalendarEvent, 'allDay'>, stamp: Date): string {
  const cal = new ICAL.Component(['vcalendar', [], []]);
  cal.updatePropertyWithValue('prodid', '-//Charlie//calendar//EN');
  cal.updatePropertyWithValue('version', '2.0');
  const vevent = new ICAL.Component('vevent');
  const event = new ICAL.Event(vevent);
  event.uid = e.uid;
  event.summary = e.summary;
  if (e.location) event.location = e.location;
  // a sensitive event says so on the calendar itself (Charlie reads CLASS back as its label; other clients show it as private)
  if (e.private) vevent.updatePropertyWithValue('class', 'PRIVATE');
  event.startDate = ICAL.Time.fromJSDate(e.start, true);
  if (e.end) event.endDate = ICAL.Time.fromJSDate(e.end, true);
  vevent.updatePropertyWithValue('dtstamp', ICAL.Time.fromJSDate(stamp, true));
  cal.addSubcomponent(vevent);
  return cal.toString();
}
