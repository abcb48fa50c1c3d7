import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gateWrite } from '../../src/core/writing/promotion.js';
import { fileCandidateStore } from '../../src/memory/records/candidate-store.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('waiting candidates under data/', () => {
  it('keeps what waits across restarts, per project, and skips a damaged entry', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'charlie-cand-'));
    dirs.push(dataDir);
    const e = { time: '2026-11-01T10:00:00.000Z', speaker: 'Ann', source: 'https://discord.com/channels/1/2/3', text: 'Bob is moving to Porto', role: 'user' as const };
    const w = { origin: 'distillation', links: [], entities: [{ name: 'Bob', create: true, facts: [{ text: 'Is moving to Porto.', said: '2026-11-01', source: e.source }] }] };
    const ctx = { now: new Date('2026-11-01T12:00:00Z'), tracked: [] };
    await gateWrite(w, [e], ctx, fileCandidateStore(dataDir, 'trip'));
    expect((await fileCandidateStore(dataDir, 'other').list()).length).toBe(0);
    const waiting = await fileCandidateStore(dataDir, 'trip').list();
    expect(waiting.map((c) => [c.entity, c.message, c.fact.source])).toEqual([['Bob', 'Bob is moving to Porto', e.source]]);
    const file = join(dataDir, 'candidates', 'trip.json');
    const data = JSON.parse(await readFile(file, 'utf8')) as unknown[];
    await writeFile(file, JSON.stringify([...data, { key: 1 }]));
    expect(await fileCandidateStore(dataDir, 'trip').list()).toHaveLength(1);
    // the same message again (a replay) is the same conversation: it still waits
    const replayed = await gateWrite(w, [e], { ...ctx, now: new Date('2026-11-01T13:00:00Z') }, fileCandidateStore(dataDir, 'trip'));
    expect([replayed.report.promoted.length, replayed.report.waiting.length]).toEqual([0, 1]);
    // said again two days later: another conversation, promoted
    const e2 = { ...e, time: '2026-11-03T10:00:00.000Z', source: 'https://discord.com/channels/1/2/9' };
    const w2 = { ...w, entities: [{ name: 'Bob', create: true, facts: [{ text: 'Is moving to Porto.', said: '2026-11-03', source: e2.source }] }] };
    const again = await gateWrite(w2, [e2], { ...ctx, now: new Date('2026-11-03T12:00:00Z') }, fileCandidateStore(dataDir, 'trip'));
    expect(again.report.promoted).toHaveLength(1);
    expect(await fileCandidateStore(dataDir, 'trip').list()).toEqual([]);
  });
});
