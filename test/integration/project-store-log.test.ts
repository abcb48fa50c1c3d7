import { mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock, LogEntry } from '../../src/core/ports/index.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';

const clock: Clock = { now: () => new Date('2026-11-29T18:20:11.000Z') };
let root: string;
let store: FileProjectStore;
let reads: { path: string; position: number; bytes: number }[];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'charlie-log-'));
  reads = [];
  store = new FileProjectStore({ projectsDir: root, clock, onLogRead: (path, position, bytes) => reads.push({ path, position, bytes }) });
  await store.ensureProject({ name: 'p', key: 'k' });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function entry(time: string, text: string, extra: Partial<LogEntry> = {}): LogEntry {
  return { time, speaker: 'Alice', source: `terminal:${Date.parse(time)}`, text, role: 'user', ...extra };
}

describe('conversation archive', () => {
  it('appends under a heading per day and reads everything back from a null cursor', async () => {
    await store.appendLog('p', entry('2026-11-29T10:00:00.000Z', 'first'));
    await store.appendLog('p', entry('2026-11-29T10:00:05.000Z', 'reply', { speaker: 'Charlie', role: 'assistant' }));
    await store.appendLog('p', entry('2026-11-30T09:00:00.000Z', 'next day'));
    const text = await readFile(join(root, 'p/log/2026-11-29.md'), 'utf8');
    expect(text.startsWith('# 2026-11-29\n\n### 10:00:00 · Alice · [↗](<terminal:1795946400000>)\n\nfirst\n')).toBe(true);
    const tail = await store.readLogSince('p', null);
    expect(tail.entries.map((e) => [e.time, e.speaker, e.role, e.text])).toEqual([
      ['2026-11-29T10:00:00.000Z', 'Alice', 'user', 'first'],
      ['2026-11-29T10:00:05.000Z', 'Charlie', 'assistant', 'reply'],
      ['2026-11-30T09:00:00.000Z', 'Alice', 'user', 'next day'],
    ]);
    expect(tail.cursor).toMatchObject({ file: '2026-11-30.md', offset: (await stat(join(root, 'p/log/2026-11-30.md'))).size });
    expect(await store.readLogSince('p', tail.cursor)).toEqual({ entries: [], cursor: tail.cursor, after: [] });
  });

  it('reads the messages of the days asked for, and only those files', async () => {
    await store.appendLog('p', entry('2026-11-28T10:00:00.000Z', 'before'));
    await store.appendLog('p', entry('2026-11-29T10:00:00.000Z', 'we even had a picnic'));
    await store.appendLog('p', entry('2026-11-30T09:00:00.000Z', 'after'));
    reads.length = 0;
    const on = await store.logOn('p', ['2026-11-29', '2026-11-29', '2026-12-25']);
    expect(on.map((e) => [e.source, e.text])).toEqual([['terminal:1795946400000', 'we even had a picnic']]);
    expect(new Set(reads.map((r) => r.path.split('/').pop()))).toEqual(new Set(['2026-11-29.md']));
  });

  it('does not archive when archive is false', async () => {
    await store.updateProject('p', { archive: false });
    await store.appendLog('p', entry('2026-11-29T10:00:00.000Z', 'secret'));
    expect(await store.recentLog('p', 10)).toEqual([]);
  });

  it('keeps a 100 kB message and a text with header-looking lines intact', async () => {
    const big = Array.from({ length: 2200 }, (_, i) => `line ${i} ${'é'.repeat(20)}`).join('\n');
    const tricky = 'look:\n### 10:00:00 · Mallory · [↗](<x>)\n\\### 10:00:00 · escaped · already\n\n## heading\n### not a header';
    await store.appendLog('p', entry('2026-11-29T10:00:00.000Z', big));
    await store.appendLog('p', entry('2026-11-29T10:00:01.000Z', tricky));
    expect(Buffer.byteLength(big)).toBeGreaterThan(100_000);
    const all = (await store.readLogSince('p', null)).entries;
    expect(all.map((e) => e.text)).toEqual([big, tricky]);
    expect((await store.recentLog('p', 2)).map((e) => e.text)).toEqual([big, tricky]);
  });

  it('readLogSince reads only the bytes after the cursor', async () => {
    for (let i = 0; i < 50; i++) await store.appendLog('p', entry(`2026-11-29T10:${String(i).padStart(2, '0')}:00.000Z`, `message ${i} ${'x'.repeat(500)}`));
    const first = await store.readLogSince('p', null);
    const cursor = first.cursor!;
    await store.appendLog('p', entry('2026-11-29T11:00:00.000Z', 'new one'));
    // Corrupt bytes before the cursor (same length): a reader that parsed the whole file would see a bogus entry.
    const fh = await open(join(root, 'p/log/2026-11-29.md'), 'r+');
    await fh.write('\n### 09:59:59 · Bogus · [↗](<b>)\n\nbogus\n', 40);
    await fh.close();
    reads = [];
    const tail = await store.readLogSince('p', cursor);
    expect(tail.entries.map((e) => e.text)).toEqual(['new one']);
    expect(reads).toHaveLength(1);
    expect(reads[0]!.position).toBe(cursor.offset);
    expect(reads[0]!.bytes).toBeLessThan(100);
  });

  it('persists the distill cursor across store instances', async () => {
    await store.appendLog('p', entry('2026-11-29T10:00:00.000Z', 'a'));
    const { cursor } = await store.readLogSince('p', null);
    await store.setDistillCursor('p', cursor!);
    await store.appendLog('p', entry('2026-11-29T10:00:01.000Z', 'b'));
    const other = new FileProjectStore({ projectsDir: root, clock });
    const saved = await other.getDistillCursor('p');
    expect(saved).toMatchObject({ file: cursor!.file, offset: cursor!.offset });
    expect((await other.readLogSince('p', saved)).entries.map((e) => e.text)).toEqual(['b']);
  });

  it('falls back to entry times when the cursor file shrank after a hand edit', async () => {
    for (const [i, t] of ['a', 'b', 'c'].entries()) await store.appendLog('p', entry(`2026-11-29T10:00:0${i}.000Z`, `${t} ${'y'.repeat(200)}`));
    const { cursor } = await store.readLogSince('p', null);
    await store.setDistillCursor('p', cursor!);
    const path = join(root, 'p/log/2026-11-29.md');
    await writeFile(path, (await readFile(path, 'utf8')).replace(/y{200}/g, 'y'));
    await store.appendLog('p', entry('2026-11-29T10:00:09.000Z', 'd'));
    const saved = await new FileProjectStore({ projectsDir: root, clock }).getDistillCursor('p');
    expect((await store.readLogSince('p', saved)).entries.map((e) => e.text)).toEqual(['d']);
  });

  it('serializes concurrent appends so entries never interleave', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `${i}:${String(i).repeat(3000)}`);
    await Promise.all(texts.map((t, i) => store.appendLog('p', entry(`2026-11-29T10:00:${String(i).padStart(2, '0')}.000Z`, t))));
    const got = (await store.readLogSince('p', null)).entries.map((e) => e.text);
    expect(got.sort()).toEqual([...texts].sort());
  });

  it('recentLog returns the last entries across two days, reading tails only', async () => {
    for (let i = 0; i < 120; i++) await store.appendLog('p', entry(new Date(Date.parse('2026-11-28T10:00:00Z') + i * 1000).toISOString(), `old ${i} ${'z'.repeat(1000)}`));
    await store.appendLog('p', entry('2026-11-29T08:00:00.000Z', 'today 1'));
    await store.appendLog('p', entry('2026-11-29T08:00:01.000Z', 'today 2'));
    reads = [];
    const recent = await store.recentLog('p', 4);
    expect(recent.map((e) => e.text.split(' ').slice(0, 2).join(' '))).toEqual(['old 118', 'old 119', 'today 1', 'today 2']);
    expect(recent[0]!.time).toBe('2026-11-28T10:01:58.000Z');
    const oldSize = (await stat(join(root, 'p/log/2026-11-28.md'))).size;
    const oldReads = reads.filter((r) => r.path.endsWith('2026-11-28.md'));
    expect(oldReads.reduce((n, r) => n + r.bytes, 0)).toBeLessThan(oldSize);
  });
});
