/**
 * iCalendar in and out with ical.js (Mozilla's parser, already read by the inbox): events of a
 * calendar file, recurring ones expanded into their occurrences near now, and one event written
 * for a CalDAV server.
 */
import ICAL from 'ical.js';
import type { CalendarEvent } from '../../core/time/calendar.js';

const DAY = 86_400_000;
const MAX_OCCURRENCES = 60;

/* eslint-disable @typescript-eslint/no-unnecessary-condition -- ical.js's types say every value is there; real .ics files leave many out */
/** The events of an iCalendar text; occurrences of a recurring one from 30 days ago to a year ahead. */
export function parseEvents(text: string, now: Date): CalendarEvent[] {
  const root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const out: CalendarEvent[] = [];
  const from = now.getTime() - 30 * DAY;
  const until = now.getTime() + 365 * DAY;
  for (const vevent of root.getAllSubcomponents('vevent')) {
    if (vevent.hasProperty('recurrence-id')) continue; // an edited occurrence: read with its series
    const e = new ICAL.Event(vevent);
    if (!e.startDate) continue;
    const base = {
      uid: e.uid || `${e.summary}@${e.startDate.toString()}`,
      summary: (e.summary || '').replace(/\s+/g, ' ').trim().slice(0, 200),
      location: (e.location || '').replace(/\s+/g, ' ').trim().slice(0, 200),
      allDay: e.startDate.isDate,
    };
    if (!e.isRecurring()) {
      out.push({ ...base, start: e.startDate.toJSDate(), end: e.endDate ? e.endDate.toJSDate() : null });
      continue;
    }
    const it = e.iterator();
    let kept = 0;
    for (let n = 0, t = it.next(); t && n < 1000 && kept < MAX_OCCURRENCES; n++, t = it.next()) {
      const start = t.toJSDate().getTime();
      if (start > until) break;
      if (start < from) continue;
      const occ = e.getOccurrenceDetails(t) as { startDate: ICAL.Time; endDate?: ICAL.Time };
      out.push({ ...base, uid: `${base.uid}#${t.toString()}`, start: occ.startDate.toJSDate(), end: occ.endDate ? occ.endDate.toJSDate() : null });
      kept++;
    }
  }
  return out;
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
  event.startDate = ICAL.Time.fromJSDate(e.start, true);
  if (e.end) event.endDate = ICAL.Time.fromJSDate(e.end, true);
  vevent.updatePropertyWithValue('dtstamp', ICAL.Time.fromJSDate(stamp, true));
  cal.addSubcomponent(vevent);
  return cal.toString();
}
