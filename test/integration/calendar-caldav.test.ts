/**
 * Calendars against a real CalDAV server (Radicale on 127.0.0.1): subscribe a project to a
 * collection; an event created on the server (by another device) becomes a record with
 * provenance `calendar` on the next poll; an unchanged poll reads only the collection's marker
 * (no event read, no write, no model call); Charlie creates an event only after the person
 * confirmed it in a later message, and the event is then on the server. The password is only
 * in the settings: neither the job store, the page nor the log holds it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DAVClient } from 'tsdav';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import type { ChatMessage, Logger } from '../../src/core/ports/index.js';
import { CalendarDesk, type CalendarConnector } from '../../src/core/time/calendar.js';
import { askerFor, ReminderDesk } from '../../src/core/time/reminder-desk.js';
import { Scheduler } from '../../src/core/time/scheduler.js';
import { CalendarConnectorImpl } from '../../src/time/calendar/connector.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { calendarRecords } from '../../src/time/calendar-records.js';
import { OutboxRouter } from '../../src/time/outbox-router.js';
import { makeAssistant } from '../support/assistant-fixture.js';
import { FixedClock, InMemoryPrivateStore, ScriptedChatModel } from '../support/fakes.js';
import { radicaleAvailable, startRadicale, type Radicale } from '../support/radicale.js';
import { tempDirs } from '../support/temp-dir.js';

const PASSWORD = 'hunter2-calendar-password';
const tmp = tempDirs('charlie-caldav-');

/** A logger that keeps every line it was given, to check what reached the log. */
function recordingLogger(lines: string[]): Logger {
  const log = (o: object | string, m?: string) => void lines.push(JSON.stringify(o) + (m ?? ''));
  const l: Logger = { debug: log, info: log, warn: log, error: log, child: () => l };
  return l;
}

const ics = (uid: string, summary: string, start: string) =>
  `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//other device//EN\r\nBEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20261201T090000Z\r\nDTSTART:${start}\r\nDTEND:${start.replace(/T(\d\d)/, (_m, h: string) => `T${String(Number(h) + 1).padStart(2, '0')}`)}\r\nSUMMARY:${summary}\r\nLOCATION:Main St 4\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;

describe.skipIf(!radicaleAvailable)('calendars against Radicale (CalDAV)', () => {
  let server: Radicale;
  let collection: string;
  let device: DAVClient;
  beforeAll(async () => {
    server = await startRadicale();
    device = new DAVClient({ serverUrl: server.url, credentials: { username: 'ann', password: PASSWORD }, authMethod: 'Basic', defaultAccountType: 'caldav' });
    await device.login();
    collection = `${device.account!.homeUrl}family/`;
    await device.makeCalendar({ url: collection, props: { displayname: 'Family' } });
  }, 30_000);
  afterAll(async () => server.close());

  it('subscribe, see a server event become a record, unchanged polls cost nothing, create an event after a yes', async () => {
    const clock = new FixedClock(new Date('2026-12-01T10:00:00Z'));
    const projectsDir = tmp();
    const lines: string[] = [];
    const logger = recordingLogger(lines);
    const store = new FileProjectStore({ projectsDir, clock, logger });
    const graph = new Wiki({ projectsDir, clock, logger });
    const jobs = new SqliteJobStore(join(tmp(), 'schedule.db'));
    const real = new CalendarConnectorImpl({ clock, secrets: (h) => (h === 'family' ? { username: 'ann', password: PASSWORD } : null) });
    const reads = { markers: 0, events: 0 };
    const connector: CalendarConnector = {
      open: (sub) => {
        const s = real.open(sub);
        return {
          marker: () => (reads.markers++, s.marker()),
          events: () => (reads.events++, s.events()),
          ...(s.create ? { create: (e: Parameters<NonNullable<typeof s.create>>[0]) => s.create!(e) } : {}),
        };
      },
    };
    const writes: number[] = [];
    const records = calendarRecords(store, graph, new InMemoryPrivateStore() as never);
    const counted = { write: async (p: Place, w: Parameters<typeof records.write>[1]) => (writes.push(w.entities[0]!.facts.length), records.write(p, w)) };
    let n = 0;
    const calendar = new CalendarDesk({ jobs, connector, records: counted, clock, zoneOf: () => 'Europe/Berlin', logger, newId: () => `t${++n}`, pollMinutes: 15 });
    const scheduler = new Scheduler(jobs, clock, logger);
    calendar.attach(scheduler);
    const place: Place = { kind: 'project', origin: { name: 'family', key: 'terminal:family' } };
    const ann = askerFor(place, 'Ann');

    expect(calendar.subscribe(ann, { name: 'Family', kind: 'caldav', url: collection, handle: 'family' }).ok).toBe(true);
    await scheduler.tick(); // the first poll: an empty calendar
    // another device puts the dentist on the calendar
    await device.createCalendarObject({ calendar: { url: collection }, filename: 'dentist.ics', iCalString: ics('dentist-1@phone', 'Dentist', '20261205T090000Z') });
    clock.advance(15 * 60_000);
    await scheduler.tick();
    const page = readdirSync(join(projectsDir, 'family', 'notes'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.md') && !f.startsWith('_'))
      .map((f) => readFileSync(join(projectsDir, 'family', 'notes', f), 'utf8'))
      .join('\n');
    expect(page).toMatch(/- Dentist — Sat 5 Dec 2026, 10:00 \(Europe\/Berlin\) at Main St 4 .*\[type:: commitment\].*\[due:: 2026-12-05\]/);
    expect(page).toContain('[via:: calendar]');
    expect(page).toContain('calendar:family#dentist-1@phone');
    expect(writes).toEqual([1]);

    // unchanged: the marker is read, nothing else — no event read, no write, no model call
    const before = { ...reads };
    for (let i = 0; i < 3; i++) {
      clock.advance(15 * 60_000);
      await scheduler.tick();
    }
    expect(reads.markers - before.markers).toBe(3);
    expect(reads.events - before.events).toBe(0);
    expect(writes).toEqual([1]);
    expect(calendar.agenda(ann, 'Saturday')).toContain('Dentist (Main St 4) [Family]');

    // Charlie proposes an event; it is written only after Ann's yes, in her next message
    let token = '';
    const model = new ScriptedChatModel((req: { messages: ChatMessage[] }, i: number) => {
      const last = req.messages.at(-1);
      if (i === 0) return { toolCalls: [{ name: 'create_event', arguments: '{"title":"Piano lesson","when":"Friday at 5pm","minutes":45}' }] };
      if (i === 1) {
        token = /confirm "([^"]+)"/.exec(last?.role === 'tool' ? last.content : '')?.[1] ?? '';
        return { toolCalls: [{ name: 'create_event', arguments: JSON.stringify({ title: 'Piano lesson', when: 'Friday at 5pm', confirm: token }) }] };
      }
      if (i === 2) return { text: 'Shall I put the piano lesson on Friday at 17:00?' };
      if (i === 3) return { toolCalls: [{ name: 'create_event', arguments: JSON.stringify({ title: 'Piano lesson', when: 'Friday at 5pm', confirm: token }) }] };
      return { text: 'Done.' };
    });
    const reminders = new ReminderDesk({ jobs, settings: jobs, outbox: new OutboxRouter(), clock, defaultZone: 'Europe/Berlin', newId: () => 'r' });
    const { assistant } = makeAssistant({ model, clock, store, reminders, calendar, memoryModel: null });
    await assistant.conversation.handle({ place, speaker: 'Ann', text: 'put piano lesson on the calendar for friday at 5pm', source: 'terminal:1' });
    const sameTurn = model.requests[2]!.messages.at(-1);
    expect(sameTurn?.role === 'tool' && sameTurn.content).toContain('has not confirmed yet');
    const onServer = async () => (await device.fetchCalendarObjects({ calendar: { url: collection } })).map((o) => String(o.data));
    expect((await onServer()).some((d) => d.includes('Piano lesson'))).toBe(false);
    await assistant.conversation.handle({ place, speaker: 'Ann', text: 'yes please', source: 'terminal:2' });
    const created = (await onServer()).find((d) => d.includes('Piano lesson'));
    expect(created).toContain('DTSTART:20261204T160000Z'); // 17:00 in Berlin
    expect(calendar.agenda(ann, 'Friday')).toContain('Piano lesson');

    // the password never left the settings
    expect(JSON.stringify(jobs.list({}))).not.toContain(PASSWORD);
    expect(lines.join('\n')).not.toContain(PASSWORD);
    expect(page).not.toContain(PASSWORD);
    jobs.close();
  }, 60_000);
});

it.runIf(!radicaleAvailable)('CalDAV tests are skipped: the radicale program is not installed (apt-get install radicale)', () => {
  expect(radicaleAvailable).toBe(false);
});
