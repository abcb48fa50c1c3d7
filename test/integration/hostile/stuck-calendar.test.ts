/**
 * A calendar server that accepts and never answers, or answers one byte every two seconds
 * (which defeats an idle timeout), polled over CalDAV and as an `.ics` address, with a reminder
 * due a moment later: the real scheduler, ticker, calendar desk and connector on real SQLite and
 * the real clock. The reminder is delivered within 2 s of its time while the poll is still stuck,
 * and the poll ends at the calendar deadline with a logged error naming the service. Before, the
 * CalDAV calls had no deadline and the scheduler delivered one job at a time: the reminder never
 * came and nothing was logged.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CalendarConnectorImpl } from '../../../src/time/calendar/connector.js';
import type { Place } from '../../../src/core/place.js';
import { systemClock, type Logger } from '../../../src/core/ports/index.js';
import { CalendarDesk } from '../../../src/core/time/calendar.js';
import { askerFor, ReminderDesk } from '../../../src/core/time/reminder-desk.js';
import { Scheduler } from '../../../src/core/time/scheduler.js';
import { SqliteJobStore } from '../../../src/storage/job-store.js';
import { OutboxRouter } from '../../../src/time/outbox-router.js';
import { startTicker } from '../../../src/time/ticker.js';
import { tempDirs } from '../../support/temp-dir.js';

const tmp = tempDirs('charlie-stuck-calendar-');
const cleanup: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

type Behaviour = 'hung' | 'trickle';

/** A TCP server on 127.0.0.1 that never finishes an HTTP answer. */
async function badServer(behaviour: Behaviour): Promise<string> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('data', () => {
      if (behaviour === 'hung') return;
      const answer = `HTTP/1.1 207 Multi-Status\r\nContent-Type: text/xml\r\nX-Slow: ${'z'.repeat(10_000)}`;
      let i = 0;
      const timer = setInterval(() => {
        if (!socket.destroyed) socket.write(answer[i++ % answer.length] ?? 'z');
      }, 2000);
      timers.add(timer);
      socket.write(answer[i++] ?? 'H');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(async () => {
    for (const t of timers) clearInterval(t);
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function recordingLogger(lines: Record<string, unknown>[]): Logger {
  const log = (o: object | string, msg?: string) => void lines.push({ ...(typeof o === 'string' ? { msg: o } : o), ...(msg ? { msg } : {}) });
  const l: Logger = { debug: () => {}, info: log, warn: log, error: log, child: () => l };
  return l;
}

const place: Place = { kind: 'private', userId: 'u1', userName: 'Ann' };
const DEADLINE_MS = 3000;

describe.each<[Behaviour, 'caldav' | 'ics']>([
  ['hung', 'caldav'],
  ['trickle', 'caldav'],
  ['hung', 'ics'],
  ['trickle', 'ics'],
])('a %s %s server', (behaviour, kind) => {
  it('does not hold a reminder due at the same time; the poll ends at its deadline, logged', async () => {
    const base = await badServer(behaviour);
    const lines: Record<string, unknown>[] = [];
    const logger = recordingLogger(lines);
    const jobs = new SqliteJobStore(join(tmp(), 'schedule.db'));
    cleanup.push(() => jobs.close());
    const shown: { text: string; at: number }[] = [];
    const outbox = new OutboxRouter();
    outbox.add(() => true, { post: async (_p, m) => void shown.push({ text: m.text, at: Date.now() }) });
    const scheduler = new Scheduler(jobs, systemClock, logger);
    const reminders = new ReminderDesk({ jobs, settings: jobs, outbox, clock: systemClock, defaultZone: 'UTC', newId: () => 'r1' });
    reminders.attach(scheduler);
    const connector = new CalendarConnectorImpl({ clock: systemClock, secrets: () => null, deadlineMs: DEADLINE_MS, logger });
    const calendar = new CalendarDesk({
      jobs,
      connector,
      records: { write: () => Promise.resolve({ factsAdded: 0, factsRefreshed: 0 }) } as unknown as ConstructorParameters<typeof CalendarDesk>[0]['records'],
      clock: systemClock,
      zoneOf: () => 'UTC',
      logger,
      newId: () => 'c1',
      pollMinutes: 15,
    });
    calendar.attach(scheduler);
    const asker = askerFor(place, 'Ann', 'u1');
    expect(calendar.subscribe(asker, { name: 'family', kind, url: `${base}/cal/family/${kind === 'ics' ? 'basic.ics' : ''}` }).ok).toBe(true);
    const due = Date.now() + 1000;
    const set = reminders.set(asker, 'take the bread out', 'in 1 minute');
    expect(set.ok).toBe(true);
    expect(jobs.reschedule('rem-r1', new Date(due))).toBe(true); // due one second from now, while the poll is stuck
    const stop = startTicker(scheduler, logger, 200);
    cleanup.push(stop);

    await vi.waitFor(() => expect(shown).toHaveLength(1), { timeout: 4000, interval: 20 });
    expect(shown[0]!.text).toContain('take the bread out');
    expect(shown[0]!.at - due).toBeLessThan(2000);
    // the poll was still stuck when the reminder came, and ends at the calendar deadline, logged with the service
    expect(lines.some((l) => l.service === 'calendar')).toBe(false);
    await vi.waitFor(() => expect(lines.find((l) => l.service === 'calendar')).toMatchObject({ service: 'calendar', ms: DEADLINE_MS }), { timeout: DEADLINE_MS + 5000, interval: 50 });
    await vi.waitFor(() => expect(lines.find((l) => l.msg === 'job delivery failed' && String(l.err).includes('CALENDAR_TIMEOUT_MS'))).toBeDefined(), { timeout: 5000, interval: 50 });
  }, 30_000);
});
