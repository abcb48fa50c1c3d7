/**
 * Commitments follow themselves up, on real pages (FileProjectStore + Wiki) and a fake clock: a
 * commitment with a due date produces exactly one follow-up, the morning after it is due, in
 * the project's place, with Done / Not yet / Drop; delivering it notes `asked`, so the
 * in-conversation follow-up (src/core/turn/raise.ts) does not ask again; Done writes an episode.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { FollowUps } from '../../src/core/time/follow-ups.js';
import type { Outbox, OutboxMessage } from '../../src/core/time/outbox.js';
import { askerFor, ReminderDesk } from '../../src/core/time/reminder-desk.js';
import { Scheduler } from '../../src/core/time/scheduler.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { projectCommitments } from '../../src/time/commitment-book.js';
import { FixedClock } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';

const tmp = tempDirs('charlie-follow-up-');

async function setup(withCommitment: { due: string; sensitivity?: string }) {
  const clock = new FixedClock(new Date('2026-12-01T10:00:00Z'));
  const projectsDir = tmp();
  const store = new FileProjectStore({ projectsDir, clock });
  const graph = new Wiki({ projectsDir, clock, logger: silentLogger });
  const { slug } = await store.ensureProject({ name: 'family', key: 'terminal:family' });
  await graph.write(slug, {
    entities: [
      {
        name: 'Sam',
        create: true,
        facts: [
          {
            text: 'Will send the mock-ups',
            type: 'commitment',
            due: withCommitment.due,
            said: '2026-12-01',
            source: 'terminal:1',
            ...(withCommitment.sensitivity ? { sensitivity: withCommitment.sensitivity } : {}),
          },
        ],
      },
    ],
    links: [],
    origin: 'test',
  });
  const posts: { place: Place; message: OutboxMessage }[] = [];
  const outbox: Outbox = { post: async (place, message) => void posts.push({ place, message }) };
  const jobs = new SqliteJobStore(join(tmp(), 'schedule.db'));
  const desk = new ReminderDesk({ jobs, settings: jobs, outbox, clock, defaultZone: 'Europe/Berlin', newId: () => 'x' });
  const scheduler = new Scheduler(jobs, clock, silentLogger);
  const followUps = new FollowUps({ jobs, book: projectCommitments(store, graph), outbox, clock, logger: silentLogger, zone: 'Europe/Berlin', hour: 9 });
  followUps.attach(scheduler, desk);
  const page = () =>
    readdirSync(join(projectsDir, slug, 'notes'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('Sam.md'))
      .map((f) => readFileSync(join(projectsDir, slug, 'notes', f), 'utf8'))
      .join('');
  const hours = async (n: number) => {
    for (let i = 0; i < n; i++) {
      clock.advance(3_600_000);
      await scheduler.tick();
    }
  };
  return { clock, jobs, desk, scheduler, followUps, posts, page, hours, graph, slug };
}

describe('commitment follow-ups', () => {
  it('a due commitment produces exactly one follow-up, the morning after; Done turns it into an episode', async () => {
    const { jobs, desk, scheduler, followUps, posts, page, hours, graph, slug, clock } = await setup({ due: '2026-12-04' });
    await scheduler.tick(); // the first scan
    expect(jobs.list({ kind: 'follow-up' })).toHaveLength(1);
    expect(jobs.list({ kind: 'follow-up' })[0]!.due.toISOString()).toBe('2026-12-05T08:00:00.000Z'); // 09:00 in Berlin
    await hours(24 * 4 + 2); // to Sat 5 Dec 12:00 UTC, scanning every hour
    expect(posts).toHaveLength(1);
    expect(posts[0]!.message.text).toBe('📌 Follow-up: Sam committed to “Will send the mock-ups”, due Fri 4 Dec 2026 (Europe/Berlin). Did it happen?');
    expect(posts[0]!.message.actions).toEqual(['done', 'not-yet', 'drop']);
    expect(posts[0]!.place).toMatchObject({ kind: 'project', origin: { key: 'terminal:family' } });
    // asked is noted on the record: the in-conversation follow-up (core/turn/raise.ts) reads it and stays quiet
    const record = (await graph.records(slug, clock.now())).find((r) => r.category === 'commitment');
    expect(record?.asked).toBe('2026-12-05');
    expect(await followUps.scan()).toBe(0);
    await hours(48);
    expect(posts).toHaveLength(1);

    const line = await desk.act(askerFor(posts[0]!.place, 'Sam'), posts[0]!.message.jobId, 'done');
    expect(line).toContain('it happened');
    expect(page()).toMatch(/- Done: Will send the mock-ups .*\[type:: episode\].*\[happened:: 2026-12-07\]/);
    // a button pressed in another place does nothing
    expect(await desk.act(askerFor({ kind: 'project', origin: { name: 'x', key: 'terminal:x' } }, 'Sam'), posts[0]!.message.jobId, 'done')).toBeNull();
    jobs.close();
  });

  it('Not yet asks once more three days later; Drop holds the record', async () => {
    const { jobs, desk, scheduler, posts, hours, graph, slug, clock } = await setup({ due: '2026-12-01' });
    await scheduler.tick();
    await hours(24);
    expect(posts).toHaveLength(1);
    const asker = askerFor(posts[0]!.place, 'Sam');
    expect(await desk.act(asker, posts[0]!.message.jobId, 'not-yet')).toContain('ask again');
    await hours(24 * 3 + 1);
    expect(posts).toHaveLength(2);
    expect(await desk.act(asker, posts[1]!.message.jobId, 'drop')).toContain('held');
    expect((await graph.records(slug, clock.now())).find((r) => r.category === 'commitment')?.status).toBe('held');
    await hours(24 * 7);
    expect(posts).toHaveLength(2);
    jobs.close();
  });

  it('a sensitive commitment is never followed up', async () => {
    const { jobs, scheduler, posts, hours } = await setup({ due: '2026-12-02', sensitivity: 'sensitive/phi' });
    await scheduler.tick();
    await hours(72);
    expect(posts).toHaveLength(0);
    jobs.close();
  });
});
