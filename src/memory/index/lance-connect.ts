/**
 * A LanceDB connection whose caches are bounded. LanceDB's defaults are 6 GB of index data and
 * 1 GB of metadata, and every table version an archive append leaves behind (one a turn) adds
 * its manifest to the metadata cache, so without a bound native memory grows with every turn.
 *
 * The session must go in the options: `connect(uri, options, session)` (the documented
 * overload) drops its third argument in @lancedb/lancedb 0.31, so a session passed that way
 * was never used and the caches kept their defaults (`session.sizeBytes()` stayed 0 however many
 * queries ran). `lance-connect.test.ts` checks that the session is the one in use.
 */
import type * as lancedb from '@lancedb/lancedb';

/** Index data (vector index partitions) kept: the current index of the largest table must fit. */
export const INDEX_CACHE_BYTES = 256 * 1024 * 1024;
/** Table metadata (manifests, fragment and index metadata) kept: old versions are never read again. */
export const METADATA_CACHE_BYTES = 16 * 1024 * 1024;

export interface BoundedConnection {
  db: lancedb.Connection;
  /** The caches' own figures, for benchmarks and tests. */
  session: lancedb.Session;
}

export async function connectBounded(
  lib: typeof lancedb,
  dir: string,
  bytes: { index: number; metadata: number } = { index: INDEX_CACHE_BYTES, metadata: METADATA_CACHE_BYTES },
): Promise<BoundedConnection> {
  const session = new lib.Session(BigInt(bytes.index), BigInt(bytes.metadata));
  return { db: await lib.connect(dir, { session }), session };
}
