/**
 * The scheduler's jobs are isolated (issue 38), against real SQLite: a stuck job holds only its
 * own slot and ends at its kind's deadline as a logged, failed attempt; background kinds leave a
 * slot for deliveries; "no front door open yet" is a wait, not an attempt, and a door that opens
 * delivers at once; a clock set back two days recomputes a recurring job instead of silencing it
 * for two days; Charlie's own jobs (backup, reflection) are kept and removed with their setting.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import type { Logger } from '../../src/core/ports/index.js';
import { keepInternalJob } from '../../src/core/time/internal-jobs.js';
import { BACKGROUND_KINDS, JOB_DEADLINES, JOB_KINDS, type JobKind, type NewJob } from '../../src/core/time/jobs.js';
import { NoDoorOpenError } from '../../src/core/time/outbox.js';
import { Scheduler, type Delivery } from '../../src/core/time/scheduler.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { FixedClock } from '../support/fakes.js';

/** A clock that can be set anywhere, back too. */
class SettableClock extends FixedClock {
  private at: Date | null = null;
  set(at: Date): void {
    this.at = at;
  }
  override now(): Date {
    return this.at ? new Date(this.at) : super.now();
  }
}
import { tempDirs } from '../support/temp-dir.js';

const tmp = tempDirs('charlie-isolation-');
const place: Place = { kind: 'private', userId: 'u1', userName: 'Ann' };
const job = (id: string, kind: JobKind, due: Date, over: Partial<NewJob> = {}): NewJob => ({ id, kind, owner: 'u1', place, due, tz: 'UTC', payload: {}, ...over });

function recording(lines: Record<string, unknown>[]): Logger {
  const log = (o: object | string, msg?: string) => void lines.push({ ...(typeof o === 'string' ? { msg: o } : o), ...(msg ? { msg } : {}) });
  const l: Logger = {
    debug: log,
    info: log,
    warn: log,
    error: log,
    child: (b) => ({ ...l, warn: (o, m) => log({ ...b, ...(typeof o === 'string' ? {} : o) }, m ?? (typeof o === 'string' ? o : undefined)) }),
  };
  return l;
}

function setup(start = '2026-12-04T10:00:00Z') {
  const clock = new SettableClock(new Date(start));
  const store = new SqliteJobStore(join(tmp(), 'schedule.db'));
  return { clock, store };
}

describe('isolated jobs', () => {
  it('every kind has a deadline', () => {
    for (const kind of JOB_KINDS) expect(JOB_DEADLINES[kind]).toBeGreaterThan(0);
  });

  it('a stuck job holds only its slot: a reminder due with it is delivered, and the stuck one fails at its deadline, logged', async () => {
    const { clock, store } = setup();
    const lines: Record<string, unknown>[] = [];
    const scheduler = new Scheduler(store, clock, recording(lines), { deadlines: { 'calendar-poll': 150 } });
    const got: string[] = [];
    let aborted: AbortSignal | null = null;
    scheduler.handle('calendar-poll', (d: Delivery) => {
      aborted = d.signal;
      return new Promise<void>(() => {}); // a server that never answers
    });
    scheduler.handle('reminder', async (d) => void got.push(d.job.id));
    store.add(job('poll', 'calendar-poll', clock.now()), clock.now()); // first in the queue
    store.add(job('rem', 'reminder', clock.now()), clock.now());
    const started = Date.now();
    const tick = scheduler.tick();
    await new Promise((resolve) => setImmediate(resolve));
    expect(got).toEqual(['rem']); // delivered before the poll ended
    expect(await tick).toBe(2);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(aborted!.aborted).toBe(true);
    expect(lines.find((l) => l.msg === 'job delivery failed')).toMatchObject({ kind: 'calendar-poll', attempts: 1 });
    expect(String(lines.find((l) => l.msg === 'job delivery failed')?.err)).toMatch(/calendar-poll.*150 ms/);
    store.close();
  });

  it('background kinds never take the last slot', async () => {
    const { clock, store } = setup();
    const scheduler = new Scheduler(store, clock, recording([]), { concurrency: 2, deadlines: { 'calendar-poll': 300, 'follow-up-scan': 300 } });
    const got: string[] = [];
    for (const kind of BACKGROUND_KINDS) scheduler.handle(kind, () => new Promise<void>(() => {}));
    scheduler.handle('reminder', async (d) => void got.push(d.job.id));
    store.add(job('p1', 'calendar-poll', clock.now()), clock.now());
    store.add(job('p2', 'follow-up-scan', clock.now()), clock.now());
    store.add(job('rem', 'reminder', clock.now()), clock.now()); // last in the queue
    const tick = scheduler.tick();
    await new Promise((resolve) => setImmediate(resolve));
    expect(got).toEqual(['rem']);
    await tick;
    store.close();
  });

  it('"no front door open yet" is a wait, not a failed attempt; a door that opens delivers at once, once', async () => {
    const { clock, store } = setup();
    const scheduler = new Scheduler(store, clock, recording([]), { maxAttempts: 2 });
    let open = false;
    const shown: string[] = [];
    scheduler.handle('reminder', async (d) => {
      if (!open) throw new NoDoorOpenError('the terminal chat is not open');
      shown.push(d.key);
    });
    store.add(job('rem', 'reminder', clock.now()), clock.now());
    for (let i = 0; i < 10; i++) {
      await scheduler.tick();
      clock.advance(61_000);
    }
    expect(shown).toEqual([]);
    expect(store.unfinished(clock.now()).map((c) => c.attempts)).toEqual([0]);
    open = true;
    await scheduler.wake();
    expect(shown).toHaveLength(1);
    await scheduler.wake();
    clock.advance(120_000);
    await scheduler.tick();
    expect(shown).toHaveLength(1);
    expect(store.wasDelivered(shown[0]!)).toBe(true);
    store.close();
  });

  it('a clock set back two days recomputes a daily job, which fires the next morning, each day once', async () => {
    const { clock, store } = setup('2026-12-06T08:00:00Z');
    const lines: Record<string, unknown>[] = [];
    const scheduler = new Scheduler(store, clock, recording(lines));
    const fired: string[] = [];
    scheduler.handle('reminder', async (d) => void fired.push(d.due.toISOString().slice(0, 10)));
    store.add(job('daily', 'reminder', new Date('2026-12-06T09:00:00Z'), { rule: { cron: '0 9 * * *' } }), clock.now());
    clock.set(new Date('2026-12-06T09:00:30Z'));
    await scheduler.tick(); // fires the 6th, moves on to the 7th
    clock.set(new Date('2026-12-04T08:00:00Z')); // the clock is set back two days
    await scheduler.tick();
    expect(store.get('daily')?.due.toISOString()).toBe('2026-12-04T09:00:00.000Z');
    expect(lines.some((l) => l.msg === 'the clock was set back: recurring jobs go on from the new time')).toBe(true);
    for (const day of ['04', '05', '06', '07']) {
      clock.set(new Date(`2026-12-${day}T09:00:30Z`));
      await scheduler.tick();
    }
    expect(fired).toEqual(['2026-12-06', '2026-12-04', '2026-12-05', '2026-12-06', '2026-12-07']);
    store.close();
  });

  it("Charlie's own jobs are kept while their setting is on and removed when it is off", () => {
    const { clock, store } = setup();
    const backup = { id: 'internal-backup', kind: 'backup' as const, cron: '*/10 * * * *', tz: 'UTC' };
    keepInternalJob(store, backup, true, clock);
    keepInternalJob(store, backup, true, clock);
    expect(store.list({ kind: 'backup' }).map((j) => [j.id, j.status, j.due.toISOString()])).toEqual([['internal-backup', 'pending', '2026-12-04T10:10:00.000Z']]);
    keepInternalJob(store, backup, false, clock);
    expect(store.list({ kind: 'backup' })).toEqual([]);
    keepInternalJob(store, backup, true, clock);
    expect(store.get('internal-backup')?.status).toBe('pending');
    // a new time zone (TZ) moves the job into it: every ten minutes in Kathmandu (UTC+05:45) falls at :05 past in UTC
    keepInternalJob(store, { ...backup, tz: 'Asia/Kathmandu' }, true, clock);
    expect(store.list({ kind: 'backup' }).map((j) => [j.tz, j.due.toISOString()])).toEqual([['Asia/Kathmandu', '2026-12-04T10:05:00.000Z']]);
    store.close();
  });
});
