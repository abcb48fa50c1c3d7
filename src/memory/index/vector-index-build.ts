/** How a project's vector index (HNSW-SQ, by cosine; project-table.ts) is built and kept. */

/**
 * Candidates weighed per row while building the graph (LanceDB's default 300). At 30,000 rows
 * 150 took 11.7 s of CPU against 19.6 s, recall@10 against the exact pass 0.870 vs 0.879 (0.890
 * vs 0.860 with other data): the index build is most of a large archive's indexing time.
 */
export const VECTOR_EF_CONSTRUCTION = 150;

/**
 * Segments the vector index may have before it is built again in one piece. LanceDB 0.31 indexes
 * the rows an `optimize()` finds unindexed as a segment of their own and never merges segments,
 * and a search visits each (a table extended turn after turn for a year: hundreds). At 8,600 rows
 * 17 segments cost p50 8.4 against 6.4 ms a search; a rebuild of 8,600 rows took 6–9 s on two busy
 * cores. The bound grows with the table so a rebuild (its cost grows with the rows) stays rare: at
 * 500 rows a segment, every 8,000 rows appended up to 400,000 rows, every 20,000 at a million.
 */
export const vectorSegmentsBound = (rows: number) => Math.max(16, Math.ceil(rows / 25_000));
