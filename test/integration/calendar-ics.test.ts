/**
 * An `.ics` secret address, served on 127.0.0.1: a calendar subscribed in a DM records its
 * events in that person's private records (never Markdown); an unchanged address is fetched
 * and hashed but not parsed or written; a changed one writes only the new event; a recurring
 * event is expanded near now; the secret address is never shown back; a health event is recorded
 * as sensitive and withheld from a hosted model's agenda.
 */
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { CalendarDesk } from '../../src/core/time/calendar.js';
import { askerFor } from '../../src/core/time/reminder-desk.js';
import { CalendarConnectorImpl } from '../../src/time/calendar/connector.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';
import { calendarRecords } from '../../src/time/calendar-records.js';
import { FixedClock, InMemoryProjectStore } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';

const tmp = tempDirs('charlie-ics-');
const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((c) => c()));

const event = (uid: string, summary: string, start: string, extra = '') => `BEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:${start}\r\nSUMMARY:${summary}\r\n${extra}END:VEVENT\r\n`;
const calendar = (...events: string[]) => `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n${events.join('')}END:VCALENDAR\r\n`;

async function serve(body: () => string): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'text/calendar' }).end(body());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => server.close());
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/calendar/ical/secret-token-abc123/basic.ics`, hits: () => hits };
}

describe('an .ics calendar subscribed in a DM', () => {
  it('records events privately, skips an unchanged calendar, writes only what changed', async () => {
    const clock = new FixedClock(new Date('2026-12-01T10:00:00Z'));
    let body = calendar(event('a@x', 'Parents evening', '20261203T170000Z'), event('b@x', 'Yoga', '20261202T070000Z', 'RRULE:FREQ=WEEKLY;COUNT=10\r\n'));
    const site = await serve(() => body);
    const dir = tmp();
    const privateStore = new SqlitePrivateStore(join(dir, 'private.db'));
    const projects = new InMemoryProjectStore();
    const writes: number[] = [];
    const records = calendarRecords(projects, { write: async () => ({ created: [], updated: [], factsAdded: 0, factsRefreshed: 0, linksAdded: 0, refused: [] }) }, privateStore.records);
    const jobs = new SqliteJobStore(join(dir, 'schedule.db'));
    const desk = new CalendarDesk({
      jobs,
      connector: new CalendarConnectorImpl({ clock, secrets: () => null }),
      records: { write: async (p, w) => (writes.push(w.entities[0]!.facts.length), records.write(p, w)) },
      clock,
      zoneOf: () => 'Europe/London',
      logger: silentLogger,
      newId: () => 'x',
      pollMinutes: 15,
    });
    const dm: Place = { kind: 'private', userId: '123456789012', userName: 'Ann' };
    const ann = askerFor(dm, 'Ann', '123456789012');
    const sub = desk.subscribe(ann, { name: 'School', kind: 'ics', url: site.url });
    expect(sub.line).not.toContain('secret-token-abc123');
    expect(desk.subscriptions(ann)[0]?.address).toBe('http://127.0.0.1:' + new URL(site.url).port + '/…');
    const [job] = jobs.list({ kind: 'calendar-poll' });

    expect(await desk.poll(job!.id)).toEqual({ changed: true, written: 11 }); // 1 + 10 weekly yoga sessions
    const mine = privateStore.records.list('123456789012', clock.now());
    expect(mine.find((r) => r.statement.startsWith('Parents evening'))).toMatchObject({ category: 'commitment', due: '2026-12-03', via: 'calendar', confidence: 1 });
    expect(mine.filter((r) => r.statement.startsWith('Yoga'))).toHaveLength(10);
    expect(projects.projects.size).toBe(0);
    expect(existsSync(join(dir, 'projects'))).toBe(false);

    expect(await desk.poll(job!.id)).toEqual({ changed: false, written: 0 });
    expect(site.hits()).toBe(2);
    expect(writes).toEqual([11]);

    body = calendar(
      event('a@x', 'Parents evening', '20261203T170000Z'),
      event('b@x', 'Yoga', '20261202T070000Z', 'RRULE:FREQ=WEEKLY;COUNT=10\r\n'),
      event('c@x', 'School play', '20261210T180000Z'),
      event('d@x', 'Therapy session', '20261204T150000Z'),
    );
    expect(await desk.poll(job!.id)).toEqual({ changed: true, written: 2 });
    expect(writes).toEqual([11, 2]);
    expect(desk.agenda(ann, 'this week')).toContain('Parents evening');
    // a health event is recorded as sensitive, and a hosted model's agenda withholds it
    expect(privateStore.records.list('123456789012', clock.now()).find((r) => r.statement.startsWith('Therapy'))?.sensitivity).toBe('sensitive/phi');
    expect(desk.agenda(ann, 'this week')).toContain('Therapy session');
    const hosted = desk.agenda(ann, 'this week', { hosted: true });
    expect(hosted).not.toContain('Therapy');
    expect(hosted).toContain('[withheld: a School event is marked sensitive]');
    expect(hosted).toContain('Parents evening');
    expect(desk.agenda(askerFor({ kind: 'project', origin: { name: 'g', key: 'terminal:g' } }, 'Ann'), 'this week')).toContain('No calendar is subscribed here');
    privateStore.close();
    jobs.close();
  });
});
