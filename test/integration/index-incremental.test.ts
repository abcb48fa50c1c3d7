/**
 * Incremental indexing keeps the table exact: an appended archive entry is searchable, an edited
 * entry replaces its old row, a deleted page leaves no rows, and a build larger than one batch
 * writes in bounded batches yet ends with every chunk.
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/core/ports/index.js';
import { HashingEmbedder } from '../../src/memory/index/hashing-embedder.js';
import { MemoryIndex } from '../../src/memory/index/memory-index.js';
import { tableName } from '../../src/memory/index/table-layout.js';

let root: string;
let projectsDir: string;
let indexDir: string;
let writes: { add: number; remove: number }[];
const indexes: MemoryIndex[] = [];

const logger: Logger = {
  debug: (obj, msg) => {
    if (msg === 'writing chunks' && typeof obj === 'object') writes.push(obj as { add: number; remove: number });
  },
  info() {},
  warn() {},
  error() {},
  child: () => logger,
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'charlie-incremental-'));
  projectsDir = join(root, 'projects');
  indexDir = join(root, 'index');
  writes = [];
});
afterEach(async () => {
  for (const i of indexes.splice(0)) await i.close();
  rmSync(root, { recursive: true, force: true });
});

function write(page: string, content: string): void {
  const path = join(projectsDir, 'home', page);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

function open(writeBatchChunks?: number): MemoryIndex {
  // racyMs 0: a page written in the same millisecond as the last sync is still seen by size
  const index = new MemoryIndex({ projectsDir, indexDir, embedder: new HashingEmbedder(), logger, racyMs: 0, ...(writeBatchChunks ? { writeBatchChunks } : {}) });
  indexes.push(index);
  return index;
}

/** The stored rows, read straight from LanceDB (not through the index's own caches). */
async function rows(where?: string): Promise<{ page: string; text: string; line_start: number }[]> {
  const db = await lancedb.connect(indexDir);
  try {
    const table = await db.openTable(tableName('home', new HashingEmbedder().id));
    let q = table.query().select(['page', 'text', 'line_start']);
    if (where) q = q.where(where);
    const out = (await q.toArray()) as Record<string, unknown>[];
    table.close();
    return out.map((r) => ({ page: String(r.page), text: String(r.text), line_start: Number(r.line_start) }));
  } finally {
    db.close();
  }
}

const entry = (i: number, text = `message number ${i} about the garden`) => `\n### 10:00:${String(i).padStart(2, '0')} · P${i % 2} · [↗](<terminal:${i}>)\n\n${text}\n`;
const day = (n: number, edit?: (i: number) => string | undefined) => `# 2026-11-29\n${Array.from({ length: n }, (_, i) => entry(i, edit?.(i))).join('')}`;

async function keyword(index: MemoryIndex, terms: string[]) {
  return (await index.search('home', { vector: null, terms, limit: 20, contextBoost: 0 })).keyword.map((c) => c.text);
}

describe('incremental indexing', () => {
  it('an appended archive entry is searchable and adds its row without rewriting the day', async () => {
    write('log/2026-11-29.md', day(10));
    const index = open();
    await index.sync('home');
    expect(await rows("page = 'log/2026-11-29.md'")).toHaveLength(10);
    writes = [];
    write('log/2026-11-29.md', day(10) + entry(10, 'the zucchini finally flowered'));
    const stats = await index.sync('home');
    expect(stats.embedded).toBeLessThan(5);
    // only the new entry and the neighbours whose context changed were written, not the day's ten
    expect(writes).toHaveLength(1);
    expect(writes[0]!.add).toBeLessThan(5);
    expect(writes[0]!.remove).toBe(writes[0]!.add - 1);
    const stored = await rows("page = 'log/2026-11-29.md'");
    expect(stored).toHaveLength(11);
    expect(new Set(stored.map((r) => r.line_start)).size).toBe(11);
    expect(await keyword(index, ['zucchini'])).toEqual(['the zucchini finally flowered']);
  });

  it('an edited entry replaces its old row', async () => {
    write('log/2026-11-29.md', day(10));
    const index = open();
    await index.sync('home');
    write(
      'log/2026-11-29.md',
      day(10, (i) => (i === 4 ? 'the tomatoes need staking' : undefined)),
    );
    await index.sync('home');
    const stored = await rows("page = 'log/2026-11-29.md'");
    expect(stored).toHaveLength(10);
    expect(stored.some((r) => r.text === 'message number 4 about the garden')).toBe(false);
    expect(stored.filter((r) => r.text === 'the tomatoes need staking')).toHaveLength(1);
    expect(await keyword(index, ['tomatoes'])).toEqual(['the tomatoes need staking']);
    expect(await keyword(index, ['number', '4'])).not.toContain('message number 4 about the garden');
  });

  it('a deleted page leaves no rows, also when the index is opened again', async () => {
    write('log/2026-11-29.md', day(5));
    write('notes/Garden.md', '---\ntitle: Garden\n---\n\n# Garden\n\nThe raised beds are by the fence.\n');
    const index = open();
    await index.sync('home');
    expect(await rows("page = 'notes/Garden.md'")).not.toHaveLength(0);
    unlinkSync(join(projectsDir, 'home', 'notes/Garden.md'));
    expect((await index.sync('home')).deleted).toBe(1);
    expect(await rows("page = 'notes/Garden.md'")).toHaveLength(0);
    expect(await keyword(index, ['raised', 'beds'])).toEqual([]);
    await index.close();
    unlinkSync(join(projectsDir, 'home', 'log/2026-11-29.md'));
    const again = open();
    expect((await again.sync('home')).deleted).toBe(1);
    expect(await rows()).toHaveLength(0);
  });

  it('a write while the keyword index is being read is in it once read, neither lost nor doubled', async () => {
    write('log/2026-11-29.md', day(30));
    await open().sync('home');
    for (const i of indexes.splice(0)) await i.close();
    // a fresh process: the keyword index is read from the table while the next append is written
    const index = open();
    write('log/2026-11-29.md', day(30, (i) => (i === 29 ? 'the hedgehog came back' : undefined)) + entry(30, 'the hedgehog ate the slugs'));
    const [hits] = await Promise.all([keyword(index, ['hedgehog']), index.sync('home')]);
    expect(hits.length).toBeLessThanOrEqual(2);
    expect((await keyword(index, ['hedgehog'])).sort()).toEqual(['the hedgehog ate the slugs', 'the hedgehog came back']);
    expect(await keyword(index, ['number', '29'])).not.toContain('message number 29 about the garden');
    expect(await rows("page = 'log/2026-11-29.md'")).toHaveLength(31);
  });

  it('a build larger than one batch is written in bounded batches and ends with every chunk', async () => {
    for (let p = 0; p < 12; p++)
      write(`notes/Topic-${p}.md`, `---\ntitle: Topic ${p}\n---\n\n# Topic ${p}\n\n${Array.from({ length: 3 }, (_, i) => `## Part ${i}\n\nword${p}x${i} is said here.\n`).join('\n')}`);
    const index = open(7);
    const stats = await index.sync('home');
    const total = (await rows()).length;
    expect(stats.chunks).toBe(total);
    expect(total).toBeGreaterThanOrEqual(36);
    expect(writes.length).toBeGreaterThan(3);
    // every batch within the budget (a page is never split: one page may exceed it)
    for (const w of writes) expect(w.add).toBeLessThanOrEqual(7);
    expect(writes.reduce((n, w) => n + w.add, 0)).toBe(total);
    // the keyword index let go during the build is read back whole
    expect(await keyword(index, ['word0x0'])).toHaveLength(1);
    expect(await keyword(index, ['word11x2'])).toHaveLength(1);
    // and nothing is re-embedded on the next sync
    expect((await index.sync('home')).embedded).toBe(0);
  });
  it('a page written in a large batch, edited later, has its old rows replaced (read from the table, not kept in memory)', async () => {
    const page = (p: number, edited = -1) =>
      `# Topic ${p}\n\n${Array.from({ length: 300 }, (_, i) => `## Part ${i}\n\n${i === edited ? 'the quince tree was pruned' : `word${p}x${i} is said here`}.\n`).join('\n')}`;
    write('notes/Topic-0.md', page(0));
    write('notes/Topic-1.md', page(1));
    const index = open();
    await index.sync('home');
    expect(writes.map((w) => w.add)).toEqual([600]);
    writes = [];
    write('notes/Topic-0.md', page(0, 7));
    const stats = await index.sync('home');
    expect(stats.embedded).toBe(1);
    expect(writes).toEqual([expect.objectContaining({ add: 1, remove: 1 })]);
    const stored = await rows("page = 'notes/Topic-0.md'");
    expect(stored).toHaveLength(300);
    expect(stored.filter((r) => r.text.includes('quince'))).toHaveLength(1);
    expect(stored.filter((r) => r.text.includes('word0x7 '))).toHaveLength(0);
    expect(await keyword(index, ['word0x7'])).toHaveLength(0);
    expect(await keyword(index, ['quince'])).toHaveLength(1);
  });
});
