/** The opt-in morning brief: at the chosen time in the person's zone, one message with today's reminders and the commitments due. */
import { describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { MorningBrief } from '../../src/core/time/brief.js';
import type { CommitmentBook } from '../../src/core/time/follow-ups.js';
import type { Outbox, OutboxMessage } from '../../src/core/time/outbox.js';
import { askerFor, ReminderDesk } from '../../src/core/time/reminder-desk.js';
import { Scheduler } from '../../src/core/time/scheduler.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { FixedClock } from '../support/fakes.js';

describe('morning brief', () => {
  it('is off until asked; then comes once a day at the time set, where it was set', async () => {
    const clock = new FixedClock(new Date('2026-12-01T20:00:00Z'));
    const jobs = new SqliteJobStore(':memory:');
    const posts: { place: Place; message: OutboxMessage }[] = [];
    const outbox: Outbox = { post: async (place, message) => void posts.push({ place, message }) };
    const desk = new ReminderDesk({ jobs, settings: jobs, outbox, clock, defaultZone: 'Europe/Berlin', newId: () => 'r1' });
    const dm: Place = { kind: 'private', userId: '123456789012', userName: 'Ann' };
    const ann = askerFor(dm, 'Ann', '123456789012');
    const book: CommitmentBook = {
      commitments: async () => [
        { place: dm, id: 'r-1', entity: 'Ann', statement: 'Return the library books', due: '2026-12-02', asked: '', status: 'active', sensitive: false },
        { place: dm, id: 'r-2', entity: 'Ann', statement: 'Blood test results', due: '2026-12-01', asked: '', status: 'active', sensitive: true },
        { place: { kind: 'project', origin: { name: 'g', key: 'terminal:g' } }, id: 'r-3', entity: 'Bob', statement: 'Fix the bike', due: '2026-12-02', asked: '', status: 'active', sensitive: false },
      ],
      markAsked: async () => {},
      done: async () => {},
      drop: async () => {},
    };
    const brief = new MorningBrief({ jobs, desk, book, outbox, clock });
    const scheduler = new Scheduler(jobs, clock, silentLogger);
    desk.attach(scheduler);
    brief.attach(scheduler);
    expect(brief.set(ann, '7:30')).toBe('Morning brief on: every day at 07:30 (Europe/Berlin), here.');
    expect(desk.set(ann, 'call the plumber', 'tomorrow at 10am').ok).toBe(true);
    for (let h = 0; h < 24; h++) {
      clock.advance(3_600_000);
      await scheduler.tick();
    }
    const briefs = posts.filter((p) => p.message.text.startsWith('☀️'));
    expect(briefs).toHaveLength(1);
    expect(briefs[0]!.place).toEqual(dm);
    expect(briefs[0]!.message.text).toBe(
      ['☀️ Good morning, Ann. Today, 2026-12-02:', '⏰ 10:00 call the plumber', '📌 Ann: Return the library books (due 2026-12-02)', '📌 and 1 private commitment(s) due'].join('\n'),
    );
    expect(brief.set(ann, 'off')).toBe('Morning brief off.');
    for (let h = 0; h < 24; h++) {
      clock.advance(3_600_000);
      await scheduler.tick();
    }
    expect(posts.filter((p) => p.message.text.startsWith('☀️'))).toHaveLength(1);
    expect(brief.set(ann, '25:00')).toContain('Give a time');
    jobs.close();
  });
});
