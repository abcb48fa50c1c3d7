/**
 * Upcoming events trigger reminders (issue 27): a subscription with a lead time of 30 minutes
 * keeps one reminder per upcoming event of a changing `.ics` on 127.0.0.1, driven by a fake
 * clock — added on the first poll, untouched by unchanged polls (no duplicates), moved when the
 * event moves, cancelled when it is deleted — and delivered once, 30 minutes before, where the
 * calendar was subscribed.
 */
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { CalendarDesk } from '../../src/core/time/calendar.js';
import type { Outbox, OutboxMessage } from '../../src/core/time/outbox.js';
import { askerFor, ReminderDesk } from '../../src/core/time/reminder-desk.js';
import { Scheduler } from '../../src/core/time/scheduler.js';
import { CalendarConnectorImpl } from '../../src/time/calendar/connector.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { calendarCommand } from '../../src/terminal/time.js';
import { FixedClock } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';

const tmp = tempDirs('charlie-event-reminders-');
const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((c) => c()));

const event = (uid: string, summary: string, start: string) => `BEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:${start}\r\nSUMMARY:${summary}\r\nEND:VEVENT\r\n`;
const calendar = (...events: string[]) => `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n${events.join('')}END:VCALENDAR\r\n`;

describe('upcoming events trigger reminders', () => {
  it('one reminder per event, moved with it, cancelled with it, delivered once', async () => {
    let body = calendar(event('dentist@x', 'Dentist', '20261202T100000Z'), event('call@x', 'Call with the bank', '20261202T150000Z'));
    const server = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/calendar' }).end(body));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => server.close());
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/family.ics`;

    const clock = new FixedClock(new Date('2026-12-01T10:00:00Z'));
    const jobs = new SqliteJobStore(join(tmp(), 'schedule.db'));
    closers.push(() => jobs.close());
    const posts: { place: Place; message: OutboxMessage }[] = [];
    const outbox: Outbox = { post: async (place, message) => void posts.push({ place, message }) };
    const reminders = new ReminderDesk({ jobs, settings: jobs, outbox, clock, defaultZone: 'Europe/Berlin', newId: () => 'x' });
    const desk = new CalendarDesk({
      jobs,
      connector: new CalendarConnectorImpl({ clock, secrets: () => null }),
      records: { write: async () => ({ created: [], updated: [], factsAdded: 1, factsRefreshed: 0, linksAdded: 0, refused: [] }) },
      clock,
      zoneOf: () => 'Europe/Berlin',
      logger: silentLogger,
      newId: () => 'y',
      pollMinutes: 15,
    });
    const scheduler = new Scheduler(jobs, clock, silentLogger);
    reminders.attach(scheduler);
    desk.attach(scheduler);
    const place: Place = { kind: 'project', origin: { name: 'family', key: 'terminal:family' } };
    const ann = askerFor(place, 'Ann');
    const eventJobs = () => jobs.list({ kind: 'reminder' }).filter((j) => j.status === 'pending');

    expect(await calendarCommand(`subscribe Family ${url}`, desk, place, 'Ann')).toMatch(/^Subscribed/);
    expect(await calendarCommand('lead Family 30', desk, place, 'Ann')).toContain('30 minutes before');
    expect(await calendarCommand('poll', desk, place, 'Ann')).toContain('changed');
    expect(eventJobs().map((j) => [j.payload.text, j.due.toISOString()])).toEqual([
      ['Dentist in 30 minutes: Wed 2 Dec 2026, 11:00 (Europe/Berlin) [Family]', '2026-12-02T09:30:00.000Z'],
      ['Call with the bank in 30 minutes: Wed 2 Dec 2026, 16:00 (Europe/Berlin) [Family]', '2026-12-02T14:30:00.000Z'],
    ]);
    // they are reminders like any other: listed where the calendar was subscribed
    expect(reminders.list(ann).map((r) => r.text)).toHaveLength(2);

    // unchanged polls (the scheduler's, every 15 minutes): nothing added
    for (let i = 0; i < 4; i++) {
      clock.advance(15 * 60_000);
      await scheduler.tick();
    }
    expect(eventJobs()).toHaveLength(2);

    // the dentist moves an hour later, the call is deleted
    body = calendar(event('dentist@x', 'Dentist', '20261202T110000Z'));
    clock.advance(15 * 60_000);
    await scheduler.tick();
    expect(eventJobs().map((j) => [j.payload.text, j.due.toISOString()])).toEqual([['Dentist in 30 minutes: Wed 2 Dec 2026, 12:00 (Europe/Berlin) [Family]', '2026-12-02T10:30:00.000Z']]);
    expect(jobs.list({ kind: 'reminder' })).toHaveLength(2); // the same job moved; the call's cancelled

    // delivered once, 30 minutes before the new time, in the place it was subscribed
    clock.advance(Date.parse('2026-12-02T10:00:00Z') - clock.now().getTime());
    await scheduler.tick();
    expect(posts).toEqual([]);
    clock.advance(Date.parse('2026-12-02T10:30:00Z') - clock.now().getTime());
    await scheduler.tick();
    clock.advance(15 * 60_000);
    await scheduler.tick();
    expect(posts.map((p) => p.message.text)).toEqual(['⏰ Reminder: Dentist in 30 minutes: Wed 2 Dec 2026, 12:00 (Europe/Berlin) [Family]']);
    expect(posts[0]!.place).toEqual(place);

    // lead time off: nothing left; unsubscribing leaves nothing either
    body = calendar(event('dentist@x', 'Dentist', '20261209T110000Z'));
    await calendarCommand('poll', desk, place, 'Ann');
    expect(eventJobs()).toHaveLength(1);
    expect(await calendarCommand('lead Family 0', desk, place, 'Ann')).toContain('no reminders');
    expect(eventJobs()).toEqual([]);
  });
});
