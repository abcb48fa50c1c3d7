/**
 * A message created before midnight UTC but archived after the distillation cursor moved on to
 * the next day's file (issue 13, item 4) was never distilled: the cursor only looked forward.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Clock, LogEntry } from '../../../src/core/ports/index.js';
import { FileProjectStore } from '../../../src/memory/store/project-store.js';
import { tempDirs } from '../../support/temp-dir.js';

const clock: Clock = { now: () => new Date('2026-11-30T00:01:00.000Z') };
const newRoot = tempDirs('charlie-hostile-midnight-');
let root: string;
beforeEach(() => {
  root = newRoot();
});

const entry = (time: string, text: string): LogEntry => ({ time, speaker: 'Ann', source: `s:${text}`, text, role: 'user' });

/** What distillation does: read since the stored cursor, then store the new one. */
async function distilPass(store: FileProjectStore, slug: string): Promise<string[]> {
  const tail = await store.readLogSince(slug, await store.getDistillCursor(slug));
  if (tail.cursor) await store.setDistillCursor(slug, tail.cursor);
  return tail.entries.map((e) => e.text);
}

describe('the distillation cursor at midnight', () => {
  it('a late entry in the previous day file is read once, after the cursor moved to the next day', async () => {
    const store = new FileProjectStore({ projectsDir: root, clock });
    const { slug } = await store.ensureProject({ key: 'terminal:night', name: 'night' });
    await store.appendLog(slug, entry('2026-11-29T23:58:00.000Z', 'before midnight'));
    expect(await distilPass(store, slug)).toEqual(['before midnight']);
    await store.appendLog(slug, entry('2026-11-30T00:00:05.000Z', 'after midnight'));
    expect(await distilPass(store, slug)).toEqual(['after midnight']);
    // Created at 23:59:59, handled (archived) only now: it lands in yesterday's file.
    await store.appendLog(slug, entry('2026-11-29T23:59:59.000Z', 'late but not lost'));
    await store.appendLog(slug, entry('2026-11-30T00:00:09.000Z', 'next'));
    expect(await distilPass(store, slug)).toEqual(['late but not lost', 'next']);
    expect(await distilPass(store, slug)).toEqual([]);
  });

  it('also when the cursor jumped straight from an earlier day into the new day', async () => {
    const store = new FileProjectStore({ projectsDir: root, clock });
    const { slug } = await store.ensureProject({ key: 'terminal:night', name: 'night' });
    await store.appendLog(slug, entry('2026-11-29T23:58:00.000Z', 'a'));
    await store.appendLog(slug, entry('2026-11-30T00:00:05.000Z', 'b'));
    expect(await distilPass(store, slug)).toEqual(['a', 'b']);
    await store.appendLog(slug, entry('2026-11-29T23:59:59.000Z', 'late'));
    expect(await distilPass(store, slug)).toEqual(['late']);
    expect(await distilPass(store, slug)).toEqual([]);
  });
});
