/**
 * A hand edit of one page reads that page's stored rows from memory, not from the table: once the
 * keyword index is read, `rowsOf` answers from it (LanceDB's filter on `page` reads that column of
 * every row: at 10,000 pages, the whole table for one page). The answer is the table's rows
 * exactly, after writes too; a write that fails half-way lets memory go, so the next answer is
 * the table's again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chunkPage } from '../../src/memory/index/chunker.js';
import { HashingEmbedder } from '../../src/memory/index/hashing-embedder.js';
import { ProjectTable, type RowKey } from '../../src/memory/index/project-table.js';
import type { ChunkRow } from '../../src/memory/index/table-rows.js';

const embedder = new HashingEmbedder();
let dir: string;
let db: lancedb.Connection;
/** Queries the table was asked for (each a scan unless answered by an index). */
let queries: number;
/** Set: the table's next `add` fails (a disk full, a crash mid-write). */
let failAdd: boolean;

/** The connection with its tables counted: a scripted wrapper, not a mock of the module. */
function counted(conn: lancedb.Connection): lancedb.Connection {
  const wrap = (table: lancedb.Table): lancedb.Table =>
    new Proxy(table, {
      get(target, key) {
        if (key === 'query')
          return () => {
            queries++;
            return target.query();
          };
        if (key === 'add')
          return async (...args: Parameters<lancedb.Table['add']>) => {
            if (failAdd) throw new Error('disk full');
            return target.add(...args);
          };
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return new Proxy(conn, {
    get(target, key) {
      if (key === 'openTable') return async (name: string) => wrap(await target.openTable(name));
      if (key === 'createEmptyTable') return async (...args: Parameters<lancedb.Connection['createEmptyTable']>) => wrap(await target.createEmptyTable(...args));
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'charlie-rows-of-'));
  db = await lancedb.connect(dir);
  queries = 0;
  failAdd = false;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function page(path: string, facts: string[]): Promise<ChunkRow[]> {
  const md = `---\ntitle: ${path}\n---\n\n## Facts\n\n${facts.map((f) => `- ${f}`).join('\n')}\n\n### 2026-11-30\n\nPlans a trip to ${path}.\n`;
  const chunks = chunkPage(path, md, { mtime: new Date('2026-11-30T12:00:00Z') });
  const vectors = await embedder.embed(chunks.map((c) => c.text));
  return chunks.map((c, i) => ({ ...c, embedder: embedder.id, vector: vectors[i]! }));
}

/** The rows of `pages` as LanceDB holds them (its own connection: not counted). */
async function stored(pages: string[]): Promise<RowKey[]> {
  const table = await db.openTable('t');
  const rows = (await table
    .query()
    .where(`page IN (${pages.map((p) => `'${p}'`).join(', ')})`)
    .toArray()) as Record<string, unknown>[];
  table.close();
  return rows.map((r) => ({ page: String(r.page), hash: String(r.hash), lineStart: Number(r.line_start), lineEnd: Number(r.line_end) }));
}

const sorted = (rows: RowKey[]) => [...rows].sort((a, b) => a.page.localeCompare(b.page) || a.lineStart - b.lineStart).map((r) => ({ ...r }));

describe('the stored rows of a page', () => {
  it('come from memory once the keyword index is read, and are the table rows after writes', async () => {
    const table = await ProjectTable.open(counted(db), 't', embedder.dimensions);
    const pages = Array.from({ length: 12 }, (_, i) => `notes/People/P${i}.md`);
    for (const p of pages) await table.write({ pages: [], rows: [], add: await page(p, ['Likes tea.', `Lives at number ${p.length}.`]) });
    // before the keyword index is read: from the table
    expect(sorted(await table.rowsOf([pages[3]!]))).toEqual(sorted(await stored([pages[3]!])));
    expect(queries).toBe(1);
    await table.keywordSearch(['tea'], 5, 0);
    const read = queries;
    // a page's rows, then that page edited (a fact replaced, one row removed) and another deleted
    expect(sorted(await table.rowsOf([pages[5]!, pages[6]!]))).toEqual(sorted(await stored([pages[5]!, pages[6]!])));
    const before = await table.rowsOf([pages[5]!]);
    const edited = await page(pages[5]!, ['Likes coffee.', 'Lives at number 7.', 'Plays the piano.']);
    const keep = new Set(edited.map((r) => `${r.hash}@${r.lineStart}`));
    await table.write({
      pages: [pages[6]!],
      rows: before.filter((r) => !keep.has(`${r.hash}@${r.lineStart}`)),
      add: edited.filter((r) => !before.some((b) => b.hash === r.hash && b.lineStart === r.lineStart)),
    });
    expect(sorted(await table.rowsOf([pages[5]!, pages[6]!, 'notes/None.md']))).toEqual(sorted(await stored([pages[5]!, pages[6]!])));
    expect(await table.rowsOf([pages[6]!])).toEqual([]);
    expect(queries).toBe(read);
  });

  it('come from the table again after a write failed half-way', async () => {
    const table = await ProjectTable.open(counted(db), 't', embedder.dimensions);
    const rows = await page('notes/Sam.md', ['Likes tea.', 'Works at Acme.']);
    await table.write({ pages: [], rows: [], add: rows });
    await table.keywordSearch(['tea'], 5, 0);
    // the page's rows deleted, then the new ones not added: memory would still list the old ones
    failAdd = true;
    await expect(table.write({ pages: ['notes/Sam.md'], rows: [], add: await page('notes/Sam.md', ['Likes coffee.']) })).rejects.toThrow('disk full');
    failAdd = false;
    const read = queries;
    expect(await table.rowsOf(['notes/Sam.md'])).toEqual([]);
    expect(queries).toBe(read + 1);
    expect(await table.keywordSearch(['tea'], 5, 0)).toEqual([]);
  });
});
