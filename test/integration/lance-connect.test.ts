import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { afterEach, describe, expect, it } from 'vitest';
import { connectBounded, indexCacheBytesFor } from '../../src/memory/index/lance-connect.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('connectBounded', () => {
  it('uses its bounded session: the caches fill as versions are written and read, and stay within the bound', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'charlie-lance-'));
    dirs.push(dir);
    const metadata = 64 * 1024;
    const { db, session } = await connectBounded(lancedb, dir, { index: 1024 * 1024, metadata });
    const table = await db.createTable('t', [{ id: 0, text: 'first', vector: [0.1, 0.2, 0.3, 0.4] }]);
    // one version a write, as an archive append each turn makes
    for (let i = 1; i <= 60; i++) {
      await table.add([{ id: i, text: `row ${i}`, vector: [i, 0.2, 0.3, 0.4] }]);
      await table.query().where(`id = ${i}`).toArray();
    }
    // a session that is not the connection's (as with connect(uri, {}, session)) stays empty
    expect(session.approxNumItems()).toBeGreaterThan(0);
    expect(Number(session.sizeBytes())).toBeGreaterThan(0);
    expect(Number(session.sizeBytes())).toBeLessThanOrEqual(metadata + 1024 * 1024);
    table.close();
    db.close();
  });

  it('holds a vector index whole under the bound indexCacheBytesFor gives it; under a bound below its weight, searches read it again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'charlie-lance-'));
    dirs.push(dir);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff - 0.5;
    const dims = 384;
    // past the size Charlie indexes at, the index Charlie builds (HNSW-SQ by cosine) and the btree of the time pass
    const rows = Array.from({ length: 9000 }, (_, i) => ({ page: `p${i}`, updated: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}`, vector: Array.from({ length: dims }, random) }));
    const made = await lancedb.connect(dir);
    const table = await made.createTable('t', rows);
    await table.createIndex('vector', { config: lancedb.Index.hnswSq({ distanceType: 'cosine', efConstruction: 150 }) });
    await table.createIndex('updated', { config: lancedb.Index.btree() });
    const onDisk = (await table.listIndices()).filter((i) => i.columns.includes('vector')).reduce((sum, i) => sum + (i.sizeBytes ?? 0), 0);
    table.close();
    made.close();
    /** How many of 20 searches (every third filtered by time, as the time pass) loaded the index's partition from disk. */
    const loads = async (bound: number) => {
      const { db, session } = await connectBounded(lancedb, dir, { index: bound, metadata: 16 * 1024 * 1024 });
      const t = await db.openTable('t');
      const loaded: number[] = [];
      for (let i = 0; i < 20; i++) {
        const q = t
          .query()
          .nearestTo(Array.from({ length: dims }, random))
          .distanceType('cosine')
          .refineFactor(1)
          .select(['page', '_distance'])
          .limit(100);
        const plan = await (i % 3 === 2 ? q.where("updated >= '2026-01-10'") : q).analyzePlan();
        loaded.push(Number(/ANNSubIndex.*?parts_loaded=(\d+)/.exec(plan)?.[1]));
      }
      const held = Number(session.sizeBytes());
      t.close();
      db.close();
      return { first: loaded[0], again: loaded.slice(1).reduce((a, b) => a + b, 0), held };
    };
    const fitted = await loads(indexCacheBytesFor(onDisk, 1024 * 1024));
    expect(fitted.first).toBe(1);
    expect(fitted.again).toBe(0);
    // what the index weighs in the cache is more than it takes on disk: a bound of its size on disk is too small
    expect(fitted.held).toBeGreaterThan(onDisk);
    const under = await loads(Math.floor(fitted.held / 2));
    expect(under.again).toBeGreaterThan(0);
  }, 120_000);
});
