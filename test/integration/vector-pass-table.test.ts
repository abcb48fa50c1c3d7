import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as lancedb from '@lancedb/lancedb';
import { chunkPage } from '../../src/memory/index/chunker.js';
import { brevityPrior, contentWords } from '../../src/memory/index/passage-facts.js';
import { HashingEmbedder } from '../../src/memory/index/hashing-embedder.js';
import { ProjectTable, VECTOR_INDEX_MIN_ROWS, type ScoredChunk } from '../../src/memory/index/project-table.js';
import type { ChunkRow } from '../../src/memory/index/table-rows.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const embedder = new HashingEmbedder();
let dir: string;
let db: lancedb.Connection;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'charlie-vector-pass-'));
  db = await lancedb.connect(dir);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const TOPICS = ['hiking in the mountains', 'the payments team standup', 'a trip to Lisbon in March', 'refresh tokens in a cookie', 'baking sourdough bread', 'the garden and its tomatoes'];

async function rows(page: string, day: string, lines: string[]): Promise<ChunkRow[]> {
  const md = lines.map((l, i) => `\n### 10:00:${String(i).padStart(2, '0')} · Sam · [↗](<terminal:${i}>)\n\n${l}\n`).join('');
  const chunks = chunkPage(page, `# ${day}\n${md}`, { mtime: new Date(`${day}T12:00:00Z`) });
  const vectors = await embedder.embed(chunks.map((c) => c.text));
  return chunks.map((c, i) => ({ ...c, embedder: embedder.id, vector: vectors[i]! }));
}

const keys = (hits: ScoredChunk[]) => hits.map((h) => `${h.page}:${h.lineStart}`);

describe('vector pass: in memory and through LanceDB', () => {
  it('finds the same rows with the same scores either way, and follows writes', async () => {
    const add = [
      ...(await rows(
        'log/2024-03-01.md',
        '2024-03-01',
        TOPICS.map((t, i) => `Talked about ${t}, part ${i}.`),
      )),
      ...(await rows(
        'log/2024-03-02.md',
        '2024-03-02',
        TOPICS.map((t, i) => `More on ${t} and ${TOPICS[(i + 1) % TOPICS.length]}.`),
      )),
      ...(await rows('notes/Topics.md', '2024-02-01', TOPICS)),
    ];
    const memory = await ProjectTable.open(db, 't', embedder.dimensions);
    await memory.write({ pages: [], rows: [], add });
    // the same table, opened with no room for vectors in memory: LanceDB searches it
    const lance = await ProjectTable.open(db, 't', embedder.dimensions, 0);
    const [q] = await embedder.embed(['a trip to Lisbon']);
    const a = await memory.vectorSearch(q!, 5);
    const b = await lance.vectorSearch(q!, 5);
    expect(keys(a)).toEqual(keys(b));
    expect(a[0]!.text).toContain('Lisbon');
    a.forEach((h, i) => expect(h.score).toBeCloseTo(b[i]!.score, 5));
    expect(b[0]).toMatchObject({ text: a[0]!.text, heading: a[0]!.heading, updated: a[0]!.updated });
    // an archive message comes with the content words of the brevity prior, counted once and kept with the row
    const message = a.find((h) => h.page.startsWith('log/'))!;
    expect(message.contentWords).toBe(contentWords(message.text));
    expect(brevityPrior(message, 1)).toBe(brevityPrior({ page: message.page, text: message.text }, 1));

    // the page prefix, and the time windows of the temporal pass
    expect((await memory.vectorSearch(q!, 5, 'notes/')).every((h) => h.page.startsWith('notes/'))).toBe(true);
    expect(keys(await memory.vectorSearch(q!, 5, 'notes/'))).toEqual(keys(await lance.vectorSearch(q!, 5, 'notes/')));
    const day = [{ start: Date.parse('2024-03-02T00:00:00Z'), end: Date.parse('2024-03-03T00:00:00Z') }];
    const inWindow = await memory.windowSearch(q!, day, 5);
    expect(inWindow.length).toBeGreaterThan(0);
    expect(inWindow.every((h) => h.page === 'log/2024-03-02.md')).toBe(true);
    expect(keys(inWindow)).toEqual(keys(await lance.windowSearch(q!, day, 5)));

    // a deleted page leaves the in-memory pass at once
    await memory.write({ pages: ['log/2024-03-01.md', 'log/2024-03-02.md'], rows: [], add: [] });
    expect((await memory.vectorSearch(q!, 50)).every((h) => h.page === 'notes/Topics.md')).toBe(true);
  });

  it('indexes a large table by vector and by time, and the time pass still finds only the window', async () => {
    const days = 40;
    const perDay = Math.ceil(VECTOR_INDEX_MIN_ROWS / days);
    const add: ChunkRow[] = [];
    for (let d = 0; d < days; d++) {
      const day = new Date(Date.UTC(2024, 0, 1 + d)).toISOString().slice(0, 10);
      add.push(
        ...(await rows(
          `log/${day}.md`,
          day,
          Array.from({ length: perDay }, (_, i) => `Day ${d} note ${i} on ${TOPICS[(d + i) % TOPICS.length]}.`),
        )),
      );
    }
    expect(add.length).toBeGreaterThanOrEqual(VECTOR_INDEX_MIN_ROWS);
    const writer = await ProjectTable.open(db, 'big', embedder.dimensions, 0);
    await writer.write({ pages: [], rows: [], add });
    // a table indexed the way Charlie did before (HNSW-SQ by dot product, which LanceDB answers wrongly) is re-indexed
    const raw = await db.openTable('big');
    await raw.createIndex('vector', { config: lancedb.Index.hnswSq({ distanceType: 'dot' }) });
    const before = (await raw.listIndices()).map((i) => i.name);
    raw.close();
    // as after a restart with such a table
    const table = await ProjectTable.open(db, 'big', embedder.dimensions, 0);
    expect(await table.indexesDue()).toBe(true);
    await table.optimize();
    expect(await table.indexesDue()).toBe(false);
    const fresh = await db.openTable('big');
    const after = await fresh.listIndices();
    fresh.close();
    expect(after.flatMap((i) => i.columns)).toEqual(expect.arrayContaining(['vector', 'updated']));
    expect(after.filter((i) => i.columns.includes('vector'))).toHaveLength(1);
    expect(after.map((i) => i.name)).not.toContain(before[0]);
    const [q] = await embedder.embed(['a trip to Lisbon']);
    const window = [{ start: Date.parse('2024-01-10T00:00:00Z'), end: Date.parse('2024-01-11T00:00:00Z') }];
    const hits = await table.windowSearch(q!, window, 5);
    expect(hits).toHaveLength(5);
    expect(hits.every((h) => h.page === 'log/2024-01-10.md')).toBe(true);
    // the same table searched exactly, in memory: LanceDB's index finds the nearest rows, each with its exact cosine
    // (re-scored from its vector). The index is approximate and its build randomised: among rows this alike, one
    // of the five may be a near neighbour just past the exact five, so the rows are compared as a recall, and
    // every score against the exact pass's score of the same row.
    const exact = await ProjectTable.open(db, 'big', embedder.dimensions, 100_000);
    const sameRows = (found: ScoredChunk[], exactHits: ScoredChunk[]): void => {
      const exactScore = new Map(exactHits.map((h) => [h.text, h.score]));
      for (const h of found) expect(h.score).toBeCloseTo(exactScore.get(h.text) ?? Number.NaN, 4);
      const firstFive = new Set(exactHits.slice(0, 5).map((h) => h.text));
      expect(found.filter((h) => firstFive.has(h.text)).length).toBeGreaterThanOrEqual(4);
      expect(found[0]!.score).toBeCloseTo(exactHits[0]!.score, 4);
    };
    expect(hits[0]!.text).toContain('Lisbon');
    sameRows(hits, await exact.windowSearch(q!, window, 50));
    const nearest = await table.vectorSearch(q!, 5);
    expect(nearest.every((h) => h.text.includes('Lisbon'))).toBe(true);
    sameRows(nearest, await exact.vectorSearch(q!, 50));

    // appended rows are indexed as segments of their own; past the bound the index is built again in one piece
    expect(await table.vectorSegments()).toBe(1);
    const segments: number[] = [];
    for (let k = 0; k < 3; k++) {
      await table.write({ pages: [], rows: [], add: await rows(`log/2024-03-0${k + 1}.md`, `2024-03-0${k + 1}`, [`Appended ${k}: the ferry timetable to Skye.`]) });
      await table.optimize(60_000, 2);
      segments.push(await table.vectorSegments());
    }
    expect(segments).toEqual([2, 1, 2]);
    // rows on a topic of their own, appended to 8,000 others and then built into the index with them, are found by it
    const [skye] = await embedder.embed(['the ferry timetable to Skye']);
    expect((await table.vectorSearch(skye!, 3)).map((h) => h.text)).toEqual(expect.arrayContaining([expect.stringContaining('Appended 0'), expect.stringContaining('Appended 2')]));
    // every row stays covered (which rows an approximate index then finds is the first half's business)
    const stats = await (await db.openTable('big')).indexStats('vector_rq_idx');
    expect(stats).toMatchObject({ numUnindexedRows: 0, numIndexedRows: await table.countRows() });
  }, 120_000);
});
