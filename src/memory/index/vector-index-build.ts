/** How a project's vector index (IVF-RQ, by cosine; project-table.ts) is built, searched and kept. */
import * as lancedb from '@lancedb/lancedb';

/**
 * The index: IVF partitions (k-means centroids) over RaBitQ codes (one bit a dimension, after a
 * random rotation), by cosine; the hits are re-scored from the stored vectors. It replaced
 * HNSW-SQ (`efConstruction` 150), whose build was most of a large archive's indexing time. On
 * the built-in embedder's vectors of bench:recall's corpus (100 short questions, recall@10 of a
 * 100-hit search against the exact pass; docs/performance.md, "Indexing throughput"):
 *
 * | rows | index | build, CPU | on disk | recall@10 | search CPU p50 |
 * |---|---|---|---|---|---|
 * | 30,000 | HNSW-SQ | 18.9 s | 18.3 MB | 0.839 | 4.9 ms |
 * | 30,000 | IVF-RQ, 20 probes | 0.6 s | 1.9 MB | 0.937 | 5.5 ms |
 * | 100,000 | HNSW-SQ | 111.4 s | 61.5 MB | 0.704 | 11.4 ms |
 * | 100,000 | IVF-RQ, 20 / 40 probes | 2.1 s | 6.4 MB | 0.851 / 0.922 | 7.3 / 7.0 ms |
 *
 * Its codes need no learned range, so it does not share HNSW-SQ's scalar quantiser's blind spot
 * for vectors outside what it was trained on. By dot product it is not used: unit vectors rank
 * alike by cosine, and LanceDB 0.31's `dot` answered wrongly for HNSW-SQ.
 */
export const vectorIndexConfig = (rows: number): lancedb.Index => lancedb.Index.ivfRq({ distanceType: 'cosine', numPartitions: vectorPartitions(rows), numBits: 4 });

/** Partitions of a table of `rows` rows: LanceDB's default, the square root (about 300 rows each at 100,000, 1,000 at a million). */
export const vectorPartitions = (rows: number) => Math.max(1, Math.round(Math.sqrt(rows)));

/**
 * Partitions searched: all of them up to 320 (about 100,000 rows), a quarter past that. Reading
 * more partitions cost no CPU that shows at 100,000 rows (search CPU p50 5.6–7.0 ms from 40 to all
 * 316 probes, recall@10 0.897 from 40 on: what is left is the codes' coarseness); 20, LanceDB's
 * default, gave 0.851, and missed one of the exact five nearest among near-duplicates at 8,000
 * rows (test/integration/vector-pass-table.test.ts).
 */
export const vectorProbes = (rows: number) => Math.max(Math.min(vectorPartitions(rows), 320), Math.ceil(vectorPartitions(rows) / 4));
/*
 * A filtered search (a time window, a folder) reads every partition: the rows that pass a narrow
 * filter are spread over all of them, and LanceDB stops probing once the partitions it read hold
 * enough of them, nearest or not (a day's messages among 8,000 rows: the fifth nearest missed).
 * Only the quantised codes of the rows that pass are scored, so its cost follows the filter's rows.
 */

/**
 * Segments the vector index may have before it is built again in one piece. LanceDB 0.31 indexes
 * the rows an `optimize()` finds unindexed as a segment of their own and never merges segments,
 * and a search visits each (a table extended turn after turn for a year: hundreds). At 8,600 rows
 * 17 segments cost p50 8.4 against 6.4 ms a search. The bound grows with the table so a rebuild
 * stays rare: at 500 rows a segment, every 8,000 rows appended up to 400,000 rows, every 20,000 at
 * a million.
 */
export const vectorSegmentsBound = (rows: number) => Math.max(16, Math.ceil(rows / 25_000));
