/**
 * Huge hand-made or runaway inputs (issue 13, item 4): a decision of 150,000 spaces must parse in
 * linear time (it took 48 s a turn), and a day log of ~120,000 entries must not overflow the
 * stack when distillation reads it. Before the fixes these tests ran into vitest's timeout or
 * threw RangeError.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distill } from '../../../src/core/writing/distill.js';
import { projectDistillTarget } from '../../../src/core/home.js';
import { silentLogger, type Clock } from '../../../src/core/ports/index.js';
import { chunkPage } from '../../../src/memory/index/chunker.js';
import { formatLogEntry, logFileHeading, parseLog } from '../../../src/memory/archive-format.js';
import { parseDecisions, parseQuotes, serializeDecisions, serializeQuotes } from '../../../src/memory/store/layers-format.js';
import { FileProjectStore } from '../../../src/memory/store/project-store.js';
import { ScriptedChatModel } from '../../support/fakes.js';
import { Wiki } from '../../../src/memory/graph/wiki.js';
import { writePage } from '../../support/pages.js';

const SPACES = ' '.repeat(150_000);

describe('parsers stay linear on 150,000 spaces', () => {
  // Each shape made one of the old regular expressions backtrack quadratically.
  const decisionShapes = [`- x${SPACES}y`, `${SPACES}x`, `- **2026-11-29** —${SPACES}x${SPACES}([source](`, `- x ([source](a))${SPACES}x`];
  it.each(decisionShapes.map((s, i) => [i, s]))('decision shape %i', (_i, line) => {
    const { decisions, problems } = parseDecisions(`# Decisions\n\n${line}\n`, 'p/decisions.md');
    expect(decisions.length + problems.length).toBeGreaterThan(0);
  });

  it('a decision text of spaces round-trips through serialize and parse', () => {
    const text = serializeDecisions([{ date: '2026-11-29', text: `a${SPACES}b${SPACES}`, source: 'https://discord.com/channels/1/2/3' }]);
    const { decisions, problems } = parseDecisions(text, 'p/decisions.md');
    expect(problems).toEqual([]);
    expect(decisions).toHaveLength(1);
    expect(decisions[0]?.source).toBe('https://discord.com/channels/1/2/3');
    expect(decisions[0]?.text.startsWith('a')).toBe(true);
    expect(decisions[0]?.text.trimEnd().endsWith('b')).toBe(true);
  });

  it.each([`> x\n> —${SPACES}x${SPACES}y`, `> "q"\n> — Alice, 2026-11-29${SPACES}x`, `${SPACES}x`])('quote shape %#', (text) => {
    const { quotes, problems } = parseQuotes(text, 'p/quotes.md');
    expect(quotes.length + problems.length).toBeGreaterThan(0);
  });

  it('a quote with a speaker of spaces round-trips', () => {
    const text = serializeQuotes([{ date: '2026-11-29', speaker: `Al${SPACES}ice`, text: 'We ship on Friday.', source: 's' }]);
    expect(parseQuotes(text, 'p/quotes.md').quotes[0]).toMatchObject({ text: 'We ship on Friday.', date: '2026-11-29', source: 's' });
  });

  it('a Markdown heading of 150,000 spaces is indexed (the heading pattern grew cubically: 6 s at 2,000)', () => {
    const chunks = chunkPage('notes/A.md', `## Plans${SPACES}x ##\n\nThe body.\n`);
    // (compared as a boolean: a failing diff of 150,000 characters takes a minute to print)
    expect(chunks.map((c) => c.heading === `A › Plans${SPACES}x`)).toEqual([true]);
  });

  it('a page whose body ends in 150,000 spaces can be added to (through the graph)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'charlie-big-page-'));
    try {
      await mkdir(join(root, 'p', 'notes'), { recursive: true });
      await writeFile(join(root, 'p', 'notes', 'A.md'), `---\ntitle: A\n---\n\nx${SPACES}y${SPACES}`);
      const wiki = new Wiki({ projectsDir: root, clock: { now: () => new Date('2026-11-29T00:00:00Z') }, logger: silentLogger });
      expect(await writePage(wiki, 'p', { title: 'A', facts: ['More about A.'] })).toBe('A.md');
      expect(await readFile(join(root, 'p', 'notes', 'A.md'), 'utf8')).toMatch(/^- More about A\./m);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('a log entry of 150,000 blank lines and a hand-made header line of spaces', () => {
    const log = `# 2026-11-29\n\n### 10:00:00 · Alice · [↗](<s>)\n${'\n'.repeat(150_000)}text\n\n### 10:00:01 · Bob${SPACES}· [↗](<s>)${SPACES}x\n`;
    const entries = parseLog(log, '2026-11-29');
    expect(entries[0]?.text).toContain('text');
  });
});

describe('a day log of 200,000 entries (about 120,000 overflowed in the app, where the stack is deeper)', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'charlie-hostile-big-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is read, chunked and distilled without overflowing the stack', async () => {
    const clock: Clock = { now: () => new Date('2026-11-29T23:00:00.000Z') };
    const store = new FileProjectStore({ projectsDir: root, clock });
    const { slug } = await store.ensureProject({ key: 'terminal:big', name: 'big' });
    const parts = [logFileHeading('2026-11-29.md')];
    for (let i = 0; i < 200_000; i++) {
      const t = new Date(Date.parse('2026-11-29T00:00:00.000Z') + Math.floor(i / 2) * 1000).toISOString();
      parts.push(formatLogEntry({ time: t, speaker: 'Alice', source: `terminal:${i}`, text: `message ${i}`, role: 'user' }));
    }
    await mkdir(join(root, slug, 'log'), { recursive: true });
    const content = parts.join('');
    await writeFile(join(root, slug, 'log/2026-11-29.md'), content);

    const tail = await store.readLogSince(slug, null);
    expect(tail.entries).toHaveLength(200_000);
    expect(chunkPage('log/2026-11-29.md', content).length).toBeGreaterThan(0);

    const model = new ScriptedChatModel(() => ({ text: JSON.stringify({ summary: 'A very long day.', decisions: [], quotes: [] }) }));
    const target = projectDistillTarget(store, slug);
    await expect(distill(target, { model, logger: silentLogger, batchChars: 2_000_000 })).resolves.toBe(200_000);
    expect((await store.readLayers(slug)).layers.summary).toBe('A very long day.');
  }, 60_000);
});
