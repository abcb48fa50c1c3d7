/**
 * The baseline the recall benchmarks set Charlie's recall beside: one plain LanceDB hybrid query
 * over the same rows, a vector search and a full-text search of the question's key terms, 100
 * rows each, with nothing of Charlie's on top (no fusion, no graph, no rerank).
 *
 * The peer gets a table of its own (`peerTable`): a copy of Charlie's rows with the indexes a
 * plain LanceDB user would build — full-text indexes on the searched columns and, from
 * VECTOR_INDEX_ROWS rows on, the same vector index as Charlie's. Querying Charlie's own table
 * instead would make the full-text half a flat scan (Charlie keeps its keyword index in memory,
 * so its table has none), which flattered the ratio at 10k chunks and above.
 */
import * as lancedb from '@lancedb/lancedb';
import { keyTerms } from '../src/memory/index/text.js';

/** Where Charlie's table gets its vector index (project-table.ts); the peer does the same. */
const VECTOR_INDEX_ROWS = 8_000;
/** Rows copied at a time (a million rows of 384-dimension vectors would not fit in one piece). */
const COPY_ROWS = 50_000;

/** How long the peer's table took to make, ms: the copy of the rows (nothing embedded), its full-text indexes, its vector index. */
export interface PeerBuildTimes {
  copyMs: number;
  fullTextMs: number;
  vectorMs: number;
}

/** A copy of `source` named `name` in `db`, indexed as a plain LanceDB user would index it; `times` is filled with how long each step took. */
export async function peerTable(db: lancedb.Connection, source: lancedb.Table, name: string, times?: PeerBuildTimes): Promise<lancedb.Table> {
  const total = await source.countRows();
  let table: lancedb.Table | undefined;
  let started = performance.now();
  /** ms since the last lap. */
  const lap = () => {
    const ms = performance.now() - started;
    started = performance.now();
    return ms;
  };
  for (let offset = 0; offset < total; offset += COPY_ROWS) {
    const rows = await source.query().offset(offset).limit(COPY_ROWS).toArrow();
    if (table) await table.add(rows);
    else table = await db.createTable(name, rows, { mode: 'overwrite' });
  }
  if (!table) throw new Error('the table to copy for the plain LanceDB peer is empty');
  const copyMs = lap();
  await table.createIndex('search_text', { config: lancedb.Index.fts() });
  await table.createIndex('context', { config: lancedb.Index.fts() });
  const fullTextMs = lap();
  if ((await table.countRows()) >= VECTOR_INDEX_ROWS) await table.createIndex('vector', { config: lancedb.Index.hnswSq({ distanceType: 'cosine' }) });
  if (times) Object.assign(times, { copyMs, fullTextMs, vectorMs: lap() });
  return table;
}

export async function plainHybridQuery(table: lancedb.Table, vector: ArrayLike<number>, q: string): Promise<void> {
  await Promise.all([
    table.query().nearestTo(Array.from(vector)).distanceType('cosine').limit(100).toArray(),
    table
      .query()
      .fullTextSearch(new lancedb.MultiMatchQuery(keyTerms(q, 10).join(' '), ['search_text', 'context']))
      .limit(100)
      .toArray(),
  ]);
}
