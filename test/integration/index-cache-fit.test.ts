/**
 * LanceDB's index cache holds the vector index of the projects opened, whatever the memory
 * budget's share for it: under a bound below what the index weighs in the cache, LanceDB evicts
 * part of it and a search in a few reads and decodes the whole index again (at 100,000 chunks
 * under the default budget, 0.4–0.8 s of CPU against 15 ms; docs/performance.md). The index's
 * connection grows its cache once a vector index outgrows it, and reopens its tables through it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src/core/ports/index.js';
import { HashingEmbedder } from '../../src/memory/index/hashing-embedder.js';
import { memoryBudget } from '../../src/memory/index/memory-budget.js';
import { MemoryIndex } from '../../src/memory/index/memory-index.js';
import { loadResidentStatus } from '../../src/memory/index/resident-status.js';
import { VECTOR_INDEX_MIN_ROWS } from '../../src/memory/index/project-table.js';
import { tableName } from '../../src/memory/index/table-layout.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'charlie-cache-fit-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** What the project's vector index weighs in LanceDB's index cache: held by an unbounded session after one search. */
async function cachedIndexBytes(vector: Float32Array): Promise<number> {
  const session = new lancedb.Session(BigInt(8 * 1024 ** 3), BigInt(64 * 1024 ** 2));
  const db = await lancedb.connect(join(root, 'index'), { session });
  try {
    const table = await db.openTable(tableName('home', new HashingEmbedder().id));
    const before = Number(session.sizeBytes());
    await table.query().nearestTo(vector).distanceType('cosine').select(['page', '_distance']).limit(10).toArray();
    table.close();
    return Number(session.sizeBytes()) - before;
  } finally {
    db.close();
  }
}

const TOPICS = ['hiking in the mountains', 'the payments team standup', 'a trip to Lisbon in March', 'baking sourdough bread', 'the garden and its tomatoes'];

function writePages(from: number, to: number): void {
  const dir = join(root, 'projects', 'home', 'notes');
  mkdirSync(dir, { recursive: true });
  for (let p = from; p < to; p++) {
    const sections = Array.from({ length: 100 }, (_, i) => `## Part ${i}\n\nPage ${p} part ${i} is about ${TOPICS[(p + i) % TOPICS.length]} and item ${p * 100 + i}.\n`);
    writeFileSync(join(dir, `Page-${p}.md`), `# Page ${p}\n\n${sections.join('\n')}`);
  }
}

describe('the search index connection', () => {
  it('grows its index cache past the budget’s share to hold the vector index, and its tables keep working through the new connection', async () => {
    const embedder = new HashingEmbedder();
    // pages of 100 sections: a table past the size that gets a vector index
    const pages = Math.ceil((VECTOR_INDEX_MIN_ROWS + 500) / 100);
    writePages(0, pages);
    // a 4 MB budget: 2 MB for LanceDB's index cache, less than the index of ~8,500 rows weighs there
    const budget = memoryBudget(4);
    const index = new MemoryIndex({ projectsDir: join(root, 'projects'), indexDir: join(root, 'index'), embedder, logger: silentLogger, racyMs: 0, budget });
    try {
      expect((await index.sync('home')).chunks).toBeGreaterThanOrEqual(VECTOR_INDEX_MIN_ROWS);
      const [q] = await embedder.embed(['a trip to Lisbon']);
      for (let i = 0; i < 3; i++) expect((await index.search('home', { vector: q!, terms: [], limit: 10, contextBoost: 0 })).vector[0]!.text).toContain('Lisbon');
      const weighs = await cachedIndexBytes(q!);
      expect(weighs).toBeGreaterThan(budget.indexCacheBytes);
      const { bytes, indexBound } = index.cacheFigures();
      expect(indexBound).toBeGreaterThanOrEqual(weighs);
      // the index is held (the searches ran through the grown connection), within its bound
      expect(bytes).toBeGreaterThanOrEqual(weighs);
      expect(bytes).toBeLessThanOrEqual(indexBound + budget.metadataCacheBytes);
      // and the status file doctor reads says so: the bound in force and what it holds on disk
      await vi.waitFor(() => expect(loadResidentStatus(join(root, 'index'))?.indexCacheBoundBytes).toBe(indexBound));
      expect(loadResidentStatus(join(root, 'index'))?.vectorIndexBytes).toBeGreaterThan(0);

      // writes and searches go on through the reopened table
      writePages(pages, pages + 3);
      expect((await index.sync('home')).changed).toBe(3);
      const [later] = await embedder.embed([`item ${(pages + 2) * 100 + 7}`]);
      const found = await index.search('home', { vector: later!, terms: [`${(pages + 2) * 100 + 7}`], limit: 10, contextBoost: 0 });
      expect(found.keyword[0]!.page).toBe(`notes/Page-${pages + 2}.md`);
    } finally {
      await index.close();
    }
  }, 180_000);
});
