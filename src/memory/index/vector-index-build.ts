/** How a project's vector index (IVF-RQ, by cosine; project-table.ts) is built, searched and kept. */
import * as lancedb from '@lancedb/lancedb';

/**
 * The index: IVF partitions (k-means centroids) over RaBitQ codes (4 bits a dimension, after a
 * random rotation), by cosine; the hits are re-scored from the stored vectors. It replaced
 * HNSW-SQ (`efConstruction` 150), whose build was most of a large archive's indexing time. On
 * the built-in embedder's vectors of bench:recall's corpus (60–100 short questions, recall@10 of
 * a 100-hit search against the exact pass; docs/performance.md, "Indexing throughput"):
 *
 * | rows | index | build, CPU | on disk | recall@10 | search CPU p50 |
 * |---|---|---|---|---|---|
 * | 30,000 | HNSW-SQ | 18.9 s | 18.3 MB | 0.839 | 4.9 ms |
 * | 30,000 | IVF-RQ, 1 / 2 / 4 bits | 0.8 / 1.2 / 2.1 s | 1.9 / 3.6 / 6.5 MB | 0.922 / 0.999 / 1.000 | 9.0 / 8.7 / 8.6 ms |
 * | 100,000 | HNSW-SQ | 111.4 s | 61.5 MB | 0.704 | 11.4 ms |
 * | 100,000 | IVF-RQ, 4 bits, 13 partitions | 5.3 s | 21.6 MB | 1.000 | 11.3 ms |
 *
 * Its codes need no learned range, so it does not share HNSW-SQ's scalar quantiser's blind spot
 * for vectors outside what it was trained on. By dot product it is not used: unit vectors rank
 * alike by cosine, and LanceDB 0.31's `dot` answered wrongly for HNSW-SQ.
 */
export const vectorIndexConfig = (rows: number): lancedb.Index => lancedb.Index.ivfRq({ distanceType: 'cosine', numPartitions: vectorPartitions(rows), numBits: 4 });

/**
 * Partitions of a table of `rows` rows: one per 8,192 rows (13 at 100,000). Every search reads all
 * of them (`nprobes`): the built-in embedder's vectors are not well separated by k-means, and
 * recall falls with the share read (at 100,000 rows, 4 of 13 partitions: recall@10 0.508; all 13:
 * 1.000, search CPU p50 11.3 ms; 40 of 316 square-root partitions 0.562). A filtered search (a
 * time window, a folder) needs them all anyway: the rows that pass a narrow filter are spread over
 * every partition. So a search scans every row's 4-bit code (192 bytes a row at 384 dimensions)
 * and re-scores the best from their vectors: its cost grows with the table (not measured at a million).
 */
export const vectorPartitions = (rows: number) => Math.max(1, Math.ceil(rows / 8192));

/**
 * Segments the vector index may have before it is built again in one piece. LanceDB 0.31 indexes
 * the rows an `optimize()` finds unindexed as a segment of their own and never merges segments,
 * and a search visits each (a table extended turn after turn for a year: hundreds). At 8,600 rows
 * 17 segments cost p50 8.4 against 6.4 ms a search. The bound grows with the table so a rebuild
 * stays rare: at 500 rows a segment, every 8,000 rows appended up to 400,000 rows, every 20,000 at
 * a million.
 */
export const vectorSegmentsBound = (rows: number) => Math.max(16, Math.ceil(rows / 25_000));
