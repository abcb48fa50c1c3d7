/**
 * The distillation cursor never skips a message written just before midnight: one of 23:59:59
 * archived after one of 00:00:01 lands in a day file that did not exist when the cursor moved on.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../src/core/ports/index.js';
import { LogArchive } from '../../src/memory/store/log-archive.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
const entry = (time: string, text: string): LogEntry => ({ time, speaker: 'Ann', source: `test:${text}`, text, role: 'user' });

describe('the day cursor at midnight', () => {
  it('reads a message of 23:59:59 archived after the cursor moved into the next day, once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'charlie-midnight-'));
    dirs.push(dir);
    const log = new LogArchive(join(dir, 'log'));
    await log.append(entry('2026-11-29T00:00:01.000Z', 'just after midnight'));
    const first = await log.readSince(null);
    expect(first.entries.map((e) => e.text)).toEqual(['just after midnight']);
    // written at 23:59:59 the day before, archived a moment later: 2026-11-28.md did not exist
    await log.append(entry('2026-11-28T23:59:59.000Z', 'just before midnight'));
    await log.append(entry('2026-11-29T00:00:02.000Z', 'later'));
    const second = await log.readSince(first.cursor);
    expect(second.entries.map((e) => e.text).sort()).toEqual(['just before midnight', 'later']);
    // and never again
    await log.append(entry('2026-11-29T00:00:03.000Z', 'last'));
    const fourth = await log.readSince(second.cursor);
    expect(fourth.entries.map((e) => e.text)).toEqual(['last']);
    // the next midnight, with the day before's file there all along, reads as usual
    await log.append(entry('2026-11-30T00:00:01.000Z', 'next day'));
    expect((await log.readSince(fourth.cursor)).entries.map((e) => e.text)).toEqual(['next day']);
  });
});
