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
import { mkdir, rm } from 'node:fs/promises';
import type * as lancedb from '@lancedb/lancedb';
import type { Logger } from '../../core/ports/index.js';

/** Index data (vector index partitions) kept: the current index of the largest table must fit. */
export const INDEX_CACHE_BYTES = 256 * 1024 * 1024;
/** Table metadata (manifests, fragment and index metadata) kept: old versions are never read again. */
export const METADATA_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * What a vector index weighs in LanceDB's index cache, per byte of it on disk: its HNSW graph and
 * quantised vectors decoded. Measured with an unbounded session after one search, HNSW-SQ by
 * cosine at 384 dimensions: 5.0 MB on disk → 11.1 MB cached at 10,000 rows, 13.4 → 28.1 MB at
 * 30,000, 62 → 138 MB at 100,000 (2.1–2.2×). Times 1.25 for the rest: the btree of `updated`,
 * an index being replaced while a search still reads the old one.
 */
const CACHED_PER_DISK_BYTE = 2.25 * 1.25;

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

/** The index cache that holds vector indexes of `vectorIndexBytes` on disk in all, and never less than `floor`. */
export function indexCacheBytesFor(vectorIndexBytes: number, floor: number): number {
  return Math.max(floor, Math.ceil(vectorIndexBytes * CACHED_PER_DISK_BYTE));
}

/** A table whose vector index the cache must hold, and that can be reopened through another connection (project-table.ts). */
export interface CachedTable {
  vectorIndexBytes(): Promise<number>;
  reopen(db: lancedb.Connection): Promise<void>;
}

/**
 * The search index's connection: bounded caches, and an index cache that grows to hold the vector
 * indexes of the projects opened. A vector index that does not fit is not kept whole: LanceDB
 * evicts part of it and a later search reads and decodes it again (at 100,000 chunks, 138 MB
 * cached under the default budget's 128 MB: one search in ten took 0.4–0.8 s of CPU instead of
 * 15 ms). A session's bounds are fixed, so when the indexes outgrow it the connection is made
 * again with a larger one and every table is reopened through it; it never shrinks.
 */
export class FittedConnection {
  db: lancedb.Connection | null = null;
  private session: lancedb.Session | null = null;
  private lib: typeof lancedb | null = null;
  private bound = 0;
  /** The tables whose vector index the cache holds, by name: the connection each was opened through, and its index's bytes on disk. */
  private readonly tables = new Map<string, { table: CachedTable; db: lancedb.Connection; bytes: number }>();
  /** The check in progress: one at a time. */
  private fitting: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    /** The budget's share for each cache (memory-budget.ts): the index cache's is its floor. */
    private readonly caches: { index: number; metadata: number },
    /** Hears when the index cache grew past its bound (the status file doctor reads: resident-status.ts). */
    private readonly onGrown: () => void = () => {},
  ) {}

  /** The connection, made on first use; a folder LanceDB cannot read (derived data) is emptied after `unreadable` hears why. */
  async open(lib: typeof lancedb, unreadable: (err: unknown) => void): Promise<lancedb.Connection> {
    if (this.db) return this.db;
    this.lib = lib;
    try {
      await mkdir(this.dir, { recursive: true });
      const db = await this.connectWith(lib, this.caches.index);
      await db.tableNames();
      return db;
    } catch (err) {
      unreadable(err);
      await rm(this.dir, { recursive: true, force: true });
      await mkdir(this.dir, { recursive: true });
      return this.connectWith(lib, this.caches.index);
    }
  }

  private async connectWith(lib: typeof lancedb, index: number): Promise<lancedb.Connection> {
    const { db, session } = await connectBounded(lib, this.dir, { index, metadata: this.caches.metadata });
    this.db = db;
    this.session = session;
    this.bound = index;
    return db;
  }

  /**
   * `name` was opened through `openedOn`, or its vector index may have been built or grown (after
   * an optimize): connects again when the tables' vector indexes no longer fit the index cache,
   * and reopens through the current connection every table opened through an older one (true: it grew).
   */
  fit(name: string, table: CachedTable, openedOn?: lancedb.Connection): Promise<boolean> {
    const known = this.tables.get(name);
    const entry = known?.table === table ? known : { table, db: openedOn ?? this.db!, bytes: 0 };
    this.tables.set(name, entry);
    let grown = false;
    const run = async () => {
      entry.bytes = await table.vectorIndexBytes();
      const need = indexCacheBytesFor(
        [...this.tables.values()].reduce((sum, t) => sum + t.bytes, 0),
        this.caches.index,
      );
      if (need > this.bound && this.lib) {
        await this.connectWith(this.lib, need);
        grown = true;
        this.onGrown();
      }
      const db = this.db;
      // the old connection and table handles are let go, not closed: a search still running on them finishes
      for (const [n, t] of db ? this.tables : []) {
        if (t.db === db) continue;
        try {
          await t.table.reopen(db!);
          t.db = db!;
        } catch {
          this.tables.delete(n); // dropped meanwhile: its next use finds out
        }
      }
    };
    this.fitting = this.fitting.then(run, run);
    return this.fitting.then(() => grown);
  }

  /** `name`'s table was dropped: its index no longer counts. */
  forget(name: string): void {
    this.tables.delete(name);
  }

  /**
   * Bytes held by LanceDB's caches now, the bound of the index cache (its share of the budget
   * until opened; more once grown) and the bytes on disk of the vector indexes it is sized to hold.
   */
  figures(): { bytes: number; indexBound: number; vectorIndexBytes: number } {
    let vectorIndexBytes = 0;
    for (const t of this.tables.values()) vectorIndexBytes += t.bytes;
    return { bytes: Number(this.session?.sizeBytes() ?? 0n), indexBound: Math.max(this.bound, this.caches.index), vectorIndexBytes };
  }

  close(): void {
    this.db?.close();
    this.db = null;
    this.session = null;
    this.tables.clear();
  }
}

/** `lance.fit` that never throws: a failure is logged (warn), a grown cache too (debug). */
export async function fitLogged(lance: FittedConnection, logger: Logger, name: string, table: CachedTable, openedOn?: lancedb.Connection): Promise<void> {
  const grown = await lance.fit(name, table, openedOn).catch((err: unknown) => {
    logger.warn({ table: name, err }, 'search index cache not fitted to its vector index');
    return false;
  });
  if (grown) logger.debug({ table: name, ...lance.figures() }, 'search index cache grown to hold the vector indexes');
}
