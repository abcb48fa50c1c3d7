/**
 * The durable scheduler against real SQLite, driven by a fake clock: a job fires at its time,
 * a daily job keeps its wall-clock hour across a daylight-saving change, a job survives a
 * restart, one missed while Charlie was down fires once and says it is late, and an occurrence
 * whose process died before it was marked delivered is handed out again with the same key.
 */
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import type { NewJob } from '../../src/core/time/jobs.js';
import { nextOccurrence } from '../../src/core/time/recurrence.js';
import { lateLine, Scheduler, type Delivery } from '../../src/core/time/scheduler.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { FixedClock } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';

const tmp = tempDirs('charlie-schedule-');
const place: Place = { kind: 'private', userId: 'u1', userName: 'Ann' };
const job = (over: Partial<NewJob> & { due: Date }): NewJob => ({ id: 'j1', kind: 'reminder', owner: 'u1', place, tz: 'Europe/Berlin', payload: { text: 'call mum' }, ...over });

function setup(dbPath: string, start: string) {
  const clock = new FixedClock(new Date(start));
  const store = new SqliteJobStore(dbPath);
  const scheduler = new Scheduler(store, clock, silentLogger);
  const got: Delivery[] = [];
  scheduler.handle('reminder', async (d) => {
    got.push(d);
  });
  return { clock, store, scheduler, got };
}

describe('scheduler (fake clock, real SQLite)', () => {
  it('fires a job at its time, not before, and once', async () => {
    const { clock, store, scheduler, got } = setup(join(tmp(), 'schedule.db'), '2026-12-04T16:59:00Z');
    expect(store.add(job({ due: new Date('2026-12-04T17:00:00Z') }), clock.now())).toBe(true);
    expect(store.add(job({ due: new Date('2026-12-04T17:00:00Z') }), clock.now())).toBe(false); // same id: refused
    expect(await scheduler.tick()).toBe(0);
    clock.advance(60_000);
    expect(await scheduler.tick()).toBe(1);
    expect(got.map((d) => [d.job.payload.text, d.late, d.redelivery])).toEqual([['call mum', false, false]]);
    clock.advance(3_600_000);
    expect(await scheduler.tick()).toBe(0);
    expect(store.get('j1')?.status).toBe('done');
    store.close();
  });

  it('keeps a daily 09:00 at 09:00 local across the spring DST change (Europe/Berlin)', async () => {
    const { clock, store, scheduler, got } = setup(join(tmp(), 'schedule.db'), '2026-03-27T07:00:00Z');
    store.add(job({ id: 'daily', due: new Date('2026-03-27T08:00:00Z'), rule: { cron: '0 9 * * *' } }), clock.now());
    for (let h = 0; h < 24 * 4 - 1; h++) {
      clock.advance(3_600_000);
      await scheduler.tick();
    }
    const local = got.map((d) => DateTime.fromJSDate(d.due, { zone: 'Europe/Berlin' }).toFormat('yyyy-MM-dd HH:mm'));
    expect(local).toEqual(['2026-03-27 09:00', '2026-03-28 09:00', '2026-03-29 09:00', '2026-03-30 09:00']);
    // the instants moved by an hour: 08:00 UTC before the change, 07:00 UTC after
    expect(got.map((d) => d.due.toISOString().slice(11, 16))).toEqual(['08:00', '08:00', '07:00', '07:00']);
    expect(got.every((d) => !d.late)).toBe(true);
    store.close();
  });

  it('a job survives a restart and fires from the new process', async () => {
    const db = join(tmp(), 'schedule.db');
    const first = setup(db, '2026-12-04T10:00:00Z');
    first.store.add(job({ due: new Date('2026-12-04T10:30:00Z') }), first.clock.now());
    first.store.close();
    const second = setup(db, '2026-12-04T10:30:00Z');
    expect(await second.scheduler.tick()).toBe(1);
    expect(second.got[0]?.job.payload.text).toBe('call mum');
    second.store.close();
  });

  it('a job missed while Charlie was down fires once on start and says it is late; a recurring one then goes on from now', async () => {
    const db = join(tmp(), 'schedule.db');
    const before = setup(db, '2026-12-04T08:00:00Z');
    before.store.add(job({ due: new Date('2026-12-04T17:00:00Z') }), before.clock.now());
    before.store.add(job({ id: 'hourly', due: new Date('2026-12-04T09:00:00Z'), rule: { cron: '0 * * * *' } }), before.clock.now());
    before.store.close();
    // down from 08:00 to 21:10: the one-off (17:00) and thirteen hourly occurrences were missed
    const after = setup(db, '2026-12-04T21:10:00Z');
    expect(await after.scheduler.tick()).toBe(2);
    expect(after.got.map((d) => [d.job.id, d.late])).toEqual([
      ['hourly', true],
      ['j1', true],
    ]);
    const oneOff = after.got.find((d) => d.job.id === 'j1')!;
    expect(lateLine(oneOff.due, oneOff.job.tz)).toBe('late: this was due at Fri 4 Dec 2026, 18:00 (Europe/Berlin)');
    expect(await after.scheduler.tick()).toBe(0);
    expect(after.store.get('hourly')?.due.toISOString()).toBe('2026-12-04T22:00:00.000Z');
    after.store.close();
  });

  it('an occurrence claimed by a process that died before delivering is handed out again, once, with the same key', async () => {
    const db = join(tmp(), 'schedule.db');
    const dead = setup(db, '2026-12-04T10:00:00Z');
    dead.store.add(job({ due: new Date('2026-12-04T10:00:00Z') }), dead.clock.now());
    const [claimed] = dead.store.claimDue(dead.clock.now(), nextOccurrence, 10); // claimed, then "kill -9"
    dead.store.close();
    const next = setup(db, '2026-12-04T10:01:00Z');
    expect(await next.scheduler.tick()).toBe(1);
    expect(next.got.map((d) => [d.key, d.redelivery])).toEqual([[claimed!.key, true]]);
    expect(await next.scheduler.tick()).toBe(0);
    next.store.close();
  });

  it('a failed delivery is retried later, and gives up after the last attempt', async () => {
    const { clock, store } = setup(join(tmp(), 'schedule.db'), '2026-12-04T10:00:00Z');
    const scheduler = new Scheduler(store, clock, silentLogger, { retryMs: 60_000, maxAttempts: 2 });
    let calls = 0;
    scheduler.handle('reminder', async () => {
      calls++;
      throw new Error('Discord is down');
    });
    store.add(job({ due: clock.now() }), clock.now());
    await scheduler.tick();
    await scheduler.tick(); // too soon to retry
    clock.advance(61_000);
    await scheduler.tick();
    clock.advance(61_000);
    await scheduler.tick();
    expect(calls).toBe(2);
    store.close();
  });
});
