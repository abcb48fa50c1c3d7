/**
 * The baseline the recall benchmarks set Charlie's recall beside: one plain LanceDB hybrid query
 * over the same table, a vector search and a full-text search of the question's key terms, 100
 * rows each, with nothing of Charlie's on top (no fusion, no graph, no rerank).
 */
import * as lancedb from '@lancedb/lancedb';
import { keyTerms } from '../src/memory/index/text.js';

export async function plainHybridQuery(table: lancedb.Table, vector: ArrayLike<number>, q: string): Promise<void> {
  await Promise.all([
    table.query().nearestTo(Array.from(vector)).distanceType('dot').limit(100).toArray(),
    table
      .query()
      .fullTextSearch(new lancedb.MultiMatchQuery(keyTerms(q, 10).join(' '), ['search_text', 'context']))
      .limit(100)
      .toArray(),
  ]);
}
