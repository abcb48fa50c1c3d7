/**
 * An event keeps its label through the calendar (third outside sweep). A turn that drew on
 * something labelled proposes an event whose words no rule knows ("Declan's Tuesday rooms at
 * St Jude's"); on a calendar server of the owner's own (local), Charlie writes it after the yes.
 * Before: it was written as an ordinary event, the next poll read it back unlabelled, and its
 * title went to the hosted chat model (agenda, event reminders), the hosted embedder and hosted
 * MCP clients (the calendar page), and the "Created …" answer labelled nothing, so the reply that
 * retold it went to the online voice. Now a sensitive event is written CLASS:PRIVATE — the label
 * travels in the calendar's own field, across polls, restarts and devices — and the answer to the
 * yes taints its turn. An ordinary event stays ordinary.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import type { GraphWrite } from '../../src/core/ports/index.js';
import { CalendarDesk, type CalendarConnector, type CalendarEvent } from '../../src/core/time/calendar.js';
import { askerFor } from '../../src/core/time/reminder-desk.js';
import { createEvent } from '../../src/core/tools/calendar-tools.js';
import type { SensitiveRecord } from '../../src/core/privacy/egress.js';
import type { ToolContext } from '../../src/core/tools/tool.js';
import { eventIcs, parseEvents } from '../../src/time/calendar/ical.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { recordingCalendarDesk } from '../support/calendar-desk.js';
import { tempDirs } from '../support/temp-dir.js';

const tmp = tempDirs('charlie-cal-label-');
const place: Place = { kind: 'project', origin: { name: 'family', key: 'terminal:family' } };
const ann = askerFor(place, 'Ann');
const NOW = new Date('2026-12-01T10:00:00Z');

/** A CalDAV server of the owner's own: each created event is stored as iCalendar text and read back through the real reader. */
function ownServer() {
  const stored: string[] = [];
  const connector: CalendarConnector = {
    open: () => ({
      marker: async () => String(stored.length),
      events: async () => (await Promise.all(stored.map((ics) => parseEvents(ics, NOW)))).flat(),
      create: async (e: Omit<CalendarEvent, 'allDay'>) => void stored.push(eventIcs(e, NOW)),
    }),
  };
  return { connector, stored };
}

function desk(connector: CalendarConnector) {
  const jobs = new SqliteJobStore(join(tmp(), 'schedule.db'));
  const { calendar, writes } = recordingCalendarDesk(jobs, connector, NOW, { localityOf: () => 'local' });
  calendar.subscribe(ann, { name: 'Home', kind: 'caldav', url: 'http://192.168.1.20:5232/ann/home/' });
  return { calendar, jobs, writes };
}

/** The create_event tool as a turn calls it: what it answered, and what it told the turn it showed. */
async function callCreateEvent(calendar: CalendarDesk, args: { title: string; when: string; confirm?: string }, source: string, tainted: boolean) {
  const seen: SensitiveRecord[] = [];
  const ctx = { source, modelLocality: 'hosted', tainted: () => tainted, sawSensitive: (r: SensitiveRecord) => void seen.push(r), time: { calendar, asker: ann } } as unknown as ToolContext;
  const out = await createEvent.execute(createEvent.params.parse(args), ctx);
  return { content: out.content, seen };
}

const factsOf = (writes: GraphWrite[]) => writes.flatMap((w) => w.entities.flatMap((e) => e.facts));

describe('an event keeps its label through the calendar', () => {
  it('proposed by a tainted turn: written CLASS:PRIVATE, read back labelled, withheld from a hosted agenda, and its "Created" taints the turn', async () => {
    const server = ownServer();
    const { calendar, jobs, writes } = desk(server.connector);
    const title = "Declan's Tuesday rooms at St Jude's";
    const proposed = await callCreateEvent(calendar, { title, when: 'Friday at 7pm' }, 'terminal:1', true);
    const token = /confirm "([^"]+)"/.exec(proposed.content)?.[1] ?? '';
    expect(token).not.toBe('');
    // the yes comes in a later message, in a turn that read nothing labelled itself
    const confirmed = await callCreateEvent(calendar, { title, when: 'Friday at 7pm', confirm: token }, 'terminal:2', false);
    expect(confirmed.content).toMatch(/^Created "Declan's Tuesday rooms/);
    expect(confirmed.seen.map((r) => r.origin)).toEqual(['the calendar']);
    // on the server itself
    expect(server.stored).toHaveLength(1);
    expect(server.stored[0]).toMatch(/^CLASS:PRIVATE\r?$/m);
    // read back by the poll the yes ran: the record is labelled, and a hosted model's agenda withholds it
    const fact = factsOf(writes).find((f) => f.text.includes('Tuesday rooms'));
    expect(fact?.sensitivity).toBe('sensitive');
    expect(calendar.agenda(ann, 'Friday', { hosted: true })).not.toContain('Tuesday rooms');
    expect(calendar.agenda(ann, 'Friday')).toContain('Tuesday rooms');
    jobs.close();
  });

  it('an event the rules call sensitive is written CLASS:PRIVATE too; an ordinary one stays ordinary', async () => {
    const server = ownServer();
    const { calendar, jobs, writes } = desk(server.connector);
    for (const title of ['Carol HIV clinic', 'Piano lesson']) {
      const proposed = await callCreateEvent(calendar, { title, when: 'Friday at 5pm' }, 'terminal:1', false);
      const token = /confirm "([^"]+)"/.exec(proposed.content)?.[1] ?? '';
      const confirmed = await callCreateEvent(calendar, { title, when: 'Friday at 5pm', confirm: token }, 'terminal:2', false);
      expect(confirmed.content).toMatch(/^Created/);
      expect(confirmed.seen.length, title).toBe(title === 'Piano lesson' ? 0 : 1);
    }
    expect(server.stored.map((ics) => /CLASS:PRIVATE/.test(ics))).toEqual([true, false]);
    const facts = factsOf(writes);
    expect(facts.find((f) => f.text.startsWith('Piano lesson'))?.sensitivity).toBeUndefined();
    expect(calendar.agenda(ann, 'Friday', { hosted: true })).toContain('Piano lesson');
    jobs.close();
  });
});
