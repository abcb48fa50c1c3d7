/**
 * A search never waits for a long index catch-up (issue 26: a project whose 250,000-entry archive
 * was never indexed must answer its first turn in time): once the wait runs out it answers from
 * the index as it is, and the catch-up goes on; with time to spare it waits and finds what was new.
 * The wait is injected, so nothing here sleeps. `npm run bench:archive` measures the real thing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger, systemClock } from '../../src/core/ports/index.js';
import { HashingEmbedder } from '../../src/memory/index/hashing-embedder.js';
import { createRecall } from '../../src/memory/recall.js';
import type { SyncWait } from '../../src/memory/index/bounded-sync.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function project(): { projectsDir: string; dataDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'charlie-catch-up-'));
  roots.push(root);
  const dir = join(root, 'projects', 'house');
  mkdirSync(join(dir, 'notes', 'Topics'), { recursive: true });
  writeFileSync(join(dir, 'project.md'), '---\nschema: 1\nid: terminal:house\nname: house\nkeys:\n  - terminal:house\n---\n');
  writeFileSync(
    join(dir, 'notes', 'Topics', 'Boiler.md'),
    '---\nschema: 2\ntitle: Boiler\ncategory: Topics\n---\n\n## Facts\n- Was serviced by Hekla Heating in March. [said:: 2026-03-04] [source:: terminal:1] ^r-aaaaaa\n',
  );
  return { projectsDir: join(root, 'projects'), dataDir: join(root, 'data') };
}

const recallWith = (dirs: { projectsDir: string; dataDir: string }, syncWait: SyncWait) =>
  createRecall({ ...dirs, embedder: new HashingEmbedder(), usage: { record() {}, boosts: () => new Map() }, logger: silentLogger, clock: systemClock, syncWait });

const found = (hits: { page: string }[]) => hits.some((h) => h.page === 'notes/Topics/Boiler.md');

describe('a search while the index catches up', () => {
  it('answers from the index as it is once the wait runs out; the catch-up goes on behind it', async () => {
    const dirs = project();
    let waits = 0;
    // the wait runs out at once: the first search does not wait for the project's first indexing
    const r = recallWith(dirs, async () => {
      waits++;
    });
    try {
      expect(found(await r.recall.recall('Hekla Heating boiler', { project: 'house' }))).toBe(false);
      expect(waits).toBe(1);
      // the catch-up it started finishes by itself; the next search finds the page
      await r.sync('house');
      expect(found(await r.recall.recall('Hekla Heating boiler', { project: 'house' }))).toBe(true);
    } finally {
      await r.close();
    }
  });

  it('waits for the catch-up when it ends in time, and finds what it indexed', async () => {
    const dirs = project();
    let ended = 0;
    // a wait that never runs out: it only ends when the sync did (the search aborts it)
    const r = recallWith(
      dirs,
      (signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => {
            ended++;
            resolve();
          }),
        ),
    );
    try {
      expect(found(await r.recall.recall('Hekla Heating boiler', { project: 'house' }))).toBe(true);
      expect(ended).toBe(1);
    } finally {
      await r.close();
    }
  });
});
