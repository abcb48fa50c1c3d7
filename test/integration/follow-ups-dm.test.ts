/**
 * A commitment recorded in a DM (private.db) is followed up in that DM, once, private like the
 * DM: Done writes the episode to the same private records, and nothing reaches Markdown.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { FollowUps } from '../../src/core/time/follow-ups.js';
import type { Outbox, OutboxMessage } from '../../src/core/time/outbox.js';
import { askerFor, ReminderDesk } from '../../src/core/time/reminder-desk.js';
import { Scheduler } from '../../src/core/time/scheduler.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';
import { projectCommitments } from '../../src/time/commitment-book.js';
import { bothBooks, privateCommitments } from '../../src/time/private-commitments.js';
import { FixedClock } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';

const tmp = tempDirs('charlie-follow-up-dm-');
const ANN = '123456789012';

describe('a DM commitment follows itself up in the DM', () => {
  it('asks once in the DM; Done is an episode in private.db; no Markdown', async () => {
    const clock = new FixedClock(new Date('2026-12-01T10:00:00Z'));
    const dir = tmp();
    const privateStore = new SqlitePrivateStore(join(dir, 'private.db'));
    privateStore.records.write(ANN, {
      entities: [{ name: 'Ann', create: true, facts: [{ text: 'Will book the dentist', type: 'commitment', due: '2026-12-03', said: '2026-12-01', source: 'discord:1' }] }],
      links: [],
      origin: 'test',
    });
    // a sensitive one is never followed up, in a DM either
    privateStore.records.write(ANN, {
      entities: [
        { name: 'Ann', create: true, facts: [{ text: 'Will refill the prescription', type: 'commitment', due: '2026-12-03', said: '2026-12-01', source: 'discord:2', sensitivity: 'sensitive/phi' }] },
      ],
      links: [],
      origin: 'test',
    });
    const posts: { place: Place; message: OutboxMessage }[] = [];
    const outbox: Outbox = { post: async (place, message) => void posts.push({ place, message }) };
    const jobs = new SqliteJobStore(join(dir, 'schedule.db'));
    const desk = new ReminderDesk({ jobs, settings: jobs, outbox, clock, defaultZone: 'Europe/Berlin', newId: () => 'x' });
    const scheduler = new Scheduler(jobs, clock, silentLogger);
    const projects = { listProjects: async () => [] };
    const noGraph = {
      records: async () => [],
      markRecords: async () => {},
      write: async () => ({ created: [], updated: [], factsAdded: 0, factsRefreshed: 0, linksAdded: 0, refused: [] }),
      review: async () => false,
    };
    const book = bothBooks(
      projectCommitments(projects, noGraph),
      privateCommitments(privateStore.records, () => privateStore.records.ownersWithDueCommitments(), clock),
    );
    new FollowUps({ jobs, book, outbox, clock, logger: silentLogger, zone: 'Europe/Berlin', hour: 9 }).attach(scheduler, desk);

    for (let h = 0; h < 24 * 4; h++) {
      await scheduler.tick();
      clock.advance(3_600_000);
    }
    expect(posts).toHaveLength(1);
    expect(posts[0]!.place).toMatchObject({ kind: 'private', userId: ANN });
    expect(posts[0]!.message.text).toContain('Will book the dentist');
    const mine = () => privateStore.records.list(ANN, clock.now());
    expect(mine().find((r) => r.statement === 'Will book the dentist')?.asked).toBe('2026-12-04');

    const line = await desk.act(askerFor({ kind: 'private', userId: ANN, userName: 'Ann' }, 'Ann', ANN), posts[0]!.message.jobId, 'done');
    expect(line).toContain('it happened');
    expect(mine().find((r) => r.statement.startsWith('Done: Will book the dentist'))).toMatchObject({ category: 'episode', happened: '2026-12-05' }); // the day the button was pressed;
    // someone else's DM cannot answer it
    expect(await desk.act(askerFor({ kind: 'private', userId: '999', userName: 'Bob' }, 'Bob', '999'), posts[0]!.message.jobId, 'drop')).toBeNull();
    expect(existsSync(join(dir, 'projects'))).toBe(false);
    for (let h = 0; h < 48; h++) {
      clock.advance(3_600_000);
      await scheduler.tick();
    }
    expect(posts).toHaveLength(1);
    privateStore.close();
    jobs.close();
  });
});
