/**
 * One project's chunks in LanceDB: a table per project and embedder (so a model change
 * never mixes vectors) and a vector index once the table is large enough to need one.
 * Keyword search runs on an in-memory index of the same rows (lexical.ts).
 */
import * as lancedb from '@lancedb/lancedb';
import { SHOWN, toChunk, toRow, type ChunkRow, type StoredChunk } from './table-rows.js';
import { type VectorPass } from './vector-pass.js';
import { InMemoryRows } from './in-memory-rows.js';
import { schema } from './table-schema.js';
import { contentWords } from './passage-facts.js';
import { vectorIndexConfig, vectorPartitions, vectorSegmentsBound } from './vector-index-build.js';

/** A stored row's identity within its page. */
export interface RowKey {
  page: string;
  hash: string;
  lineStart: number;
  lineEnd: number;
}

/** Rows are kept as long as their content and place in the page are the same. */
export const rowKey = (r: { hash: string; lineStart: number; lineEnd: number }) => `${r.hash}@${r.lineStart}-${r.lineEnd}`;

export interface ScoredChunk extends StoredChunk {
  /** Cosine similarity for vector hits, BM25 score for keyword hits. */
  score: number;
}

/** Besides the archive, the one page whose chunks are dated by entry (see chunker). */
const DATED_PAGE = 'decisions.md';
/** Rows before a vector index pays for itself (flat search is exact and fast enough below). */
export const VECTOR_INDEX_MIN_ROWS = 8000;

/** The vector index (vector-index-build.ts), named so a table indexed another way (HNSW-SQ before) is re-indexed (`optimize`). */
const VECTOR_INDEX = 'vector_rq_idx';
/**
 * Candidates re-scored with their stored vectors (quantised distances are coarse, and fusion adds
 * the cosine to the keyword score): the hits, and at least 100 (5 alone, among 1,300 near-duplicate
 * rows, missed one of the exact five in one run of two). Not more: 400 for 100 hits cost 4× the CPU.
 */
const refineFor = (limit: number) => Math.max(1, Math.ceil(100 / limit));

/** A cosine distance as a similarity; a zero vector (an empty text) has none and scores 0. */
const cosineOf = (distance: unknown) => {
  const d = Number(distance);
  return Number.isFinite(d) ? 1 - d : 0;
};

/**
 * Rows up to which the vector pass runs in memory (vector-pass.ts), as exact as LanceDB's flat
 * search it replaces: 384 dimensions × 4 bytes × 8,000 rows is at most 12 MB per project (15 MB
 * per 10,000 rows). An exact scan costs about 0.4 ms of CPU per 1,000 rows in JS, so larger
 * tables are searched by LanceDB's vector index, which returns only each row's page, line and score.
 */
const MEMORY_VECTOR_ROWS = VECTOR_INDEX_MIN_ROWS;

/** What a search reads from memory: the keyword index and the rows (with their vectors, up to MEMORY_VECTOR_ROWS). */
type InMemory = InMemoryRows<StoredChunk>;

/** Rows tokenised for the keyword index between two yields to the event loop (a few ms each). */
const KEYWORD_READ_SLICE = 256;

/** A candidate of a search: the row in memory with its score (an archive message's content words counted once, kept with the row). */
function scored(value: StoredChunk, score: number): ScoredChunk {
  if (value.contentWords === undefined && value.page.startsWith('log/')) value.contentWords = contentWords(value.text);
  return { ...value, score };
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

export class ProjectTable {
  /** Keyword index over every row, read from the table on the first keyword search, then kept in step by `write`. */
  private lexical: InMemory | null = null;
  private loading: Promise<InMemory> | null = null;
  /**
   * Writes made while the keyword index is being read, replayed onto it once read (each replays
   * as "remove these rows, then put these", so one the read already saw is applied twice to the
   * same effect). Before, such a write made the whole table be read again: with an archive
   * append every turn and a read of seconds at a year of memory, it never finished.
   */
  private journal: ((index: InMemory) => void)[] | null = null;
  /** Writes that failed half-way: an index read while one failed may hold rows the table lost, and is read again. */
  private failedWrites = 0;
  /** Rows as the vector index was last kept (by `optimize`; else counted at the first search): its partitions and probes follow from it. */
  private indexedRows: number | undefined;

  private constructor(
    readonly name: string,
    private table: lancedb.Table,
    private readonly dimensions: number,
    private readonly memoryRows: number,
    private readonly freed: (reason: string) => void,
  ) {}

  /**
   * `memoryRows`: rows up to which vectors are searched in memory (tests set it low to reach
   * LanceDB's path). `freed`: told when bulk native work (a whole table read, an index build) has
   * freed memory that glibc keeps unless asked (memory/index/native-heap.ts).
   */
  static async open(db: lancedb.Connection, name: string, dimensions: number, memoryRows = MEMORY_VECTOR_ROWS, freed: (reason: string) => void = () => {}): Promise<ProjectTable> {
    const names = await db.tableNames();
    let table: lancedb.Table;
    if (names.includes(name)) {
      table = await db.openTable(name);
    } else {
      table = await db.createEmptyTable(name, schema(dimensions));
    }
    return new ProjectTable(name, table, dimensions, memoryRows, freed);
  }

  /**
   * The stored rows of `pages` (their identity only), to keep the unchanged ones: from memory once
   * the keyword index is read (it holds every row, kept in step by `write`), else from the table,
   * whose filter on `page` reads that column of every row (a hand edit of one page of 10,000).
   */
  async rowsOf(pages: string[]): Promise<RowKey[]> {
    const known = this.lexical?.rows;
    if (known) return pages.flatMap((p) => known.ofPage(p).map(({ page, hash, lineStart, lineEnd }) => ({ page, hash, lineStart, lineEnd })));
    const out: RowKey[] = [];
    for (let i = 0; i < pages.length; i += 200) {
      const filter = `page IN (${pages
        .slice(i, i + 200)
        .map(quote)
        .join(', ')})`;
      const rows = (await this.table.query().where(filter).select(['page', 'hash', 'line_start', 'line_end']).toArray()) as Record<string, unknown>[];
      for (const r of rows) out.push({ page: String(r.page), hash: String(r.hash), lineStart: Number(r.line_start), lineEnd: Number(r.line_end) });
    }
    return out;
  }

  /** Stored vectors by chunk hash (a chunk that only moved within its page keeps its vector). */
  async vectorsOf(hashes: string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    for (let i = 0; i < hashes.length; i += 200) {
      const rows = (await this.table
        .query()
        .where(
          `hash IN (${hashes
            .slice(i, i + 200)
            .map(quote)
            .join(', ')})`,
        )
        .select(['hash', 'vector'])
        .toArray()) as Record<string, unknown>[];
      for (const r of rows) out.set(String(r.hash), new Float32Array((r.vector as { toArray(): Float32Array }).toArray()));
    }
    return out;
  }

  /** Deletes whole pages and single rows (page + first line), then adds new rows. */
  async write(change: { pages: string[]; rows: { page: string; lineStart: number }[]; add: ChunkRow[] }): Promise<void> {
    try {
      await this.store(change);
    } catch (err) {
      // half-written: what memory holds may no longer be the table's rows (rowsOf, searches): read it again
      this.lexical = null;
      this.failedWrites++;
      throw err;
    }
    this.follow(change);
  }

  /** Deletes and adds the rows in the table. */
  private async store(change: { pages: string[]; rows: { page: string; lineStart: number }[]; add: ChunkRow[] }): Promise<void> {
    const predicates = [...change.pages.map((p) => `page = ${quote(p)}`), ...change.rows.map((r) => `(page = ${quote(r.page)} AND line_start = ${Math.trunc(r.lineStart)})`)];
    for (let i = 0; i < predicates.length; i += 200) await this.table.delete(predicates.slice(i, i + 200).join(' OR '));
    for (let i = 0; i < change.add.length; i += 20_000) {
      const batch = change.add.slice(i, i + 20_000).map(toRow);
      await this.table.add(batch);
    }
  }

  /** The in-memory index after a write the table took: the same rows removed and added. */
  private follow(change: { pages: string[]; rows: { page: string; lineStart: number }[]; add: ChunkRow[] }): void {
    const chunks = change.add.map(({ vector: _vector, ...chunk }): StoredChunk => chunk);
    /** `replay`: the index may hold these rows already (read after the write): each added row replaces its place. */
    const apply = (index: InMemory, replay = true) => {
      for (const p of change.pages) index.remove(p);
      for (const r of change.rows) index.remove(r.page, Math.trunc(r.lineStart));
      // kept for as long as the row lives: its strings must not pin the page text they were cut from (cut: copied)
      chunks.forEach((c, i) => index.add(c, `${c.heading}\n${c.text}`, change.add[i]!.vector, true, replay));
    };
    if (this.lexical) apply(this.lexical, false);
    else this.journal?.push(apply);
  }

  /** Lets go of the in-memory keyword index (a large build, a cold project): the next search reads it from the table again. */
  dropKeywordIndex(): void {
    this.lexical = null;
  }

  /** Starts reading the in-memory index now, so the first search does not wait for it. */
  warm(): void {
    this.keywordIndex().catch(() => undefined);
  }

  /** What the in-memory index holds, estimated (0 when it is not read). */
  residentBytes(): number {
    return this.lexical?.bytes() ?? 0;
  }

  private keywordIndex(): Promise<InMemory> {
    if (this.lexical) return Promise.resolve(this.lexical);
    this.loading ??= (async () => {
      const journal: ((index: InMemory) => void)[] = [];
      this.journal = journal;
      const failed = this.failedWrites;
      try {
        // vectors are read only when the table fits the in-memory bound (rows written meanwhile may still tip it over)
        const withVectors = (await this.table.countRows()) <= this.memoryRows;
        const index: InMemory = new InMemoryRows<StoredChunk>(this.dimensions, this.memoryRows, withVectors);
        // batch by batch, yielding between slices: at a year of memory the read is seconds of
        // main thread, and read in one go it held up every turn that came meanwhile
        let done = 0;
        for await (const batch of this.table.query().select([...SHOWN, 'search_text', 'context', ...(withVectors ? ['vector'] : [])])) {
          for (const r of batch.toArray() as Record<string, unknown>[]) {
            index.add(toChunk(r), String(r.search_text), withVectors ? (r.vector as { toArray(): Float32Array }).toArray() : null, false);
            if (++done % KEYWORD_READ_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
          }
        }
        // rows written meanwhile may or may not be in what was read: replayed, to the same effect either way
        for (const apply of journal) apply(index);
        index.trim();
        this.freed('a table read whole');
        if (failed === this.failedWrites) this.lexical = index;
        return index;
      } finally {
        this.journal = null;
      }
    })().finally(() => (this.loading = null));
    return this.loading;
  }

  /**
   * Compacts, builds the vector index and the index of `updated` once the table is large, and deletes
   * versions older than `keepMs` (0: all but the newest, after a forget).
   */
  async optimize(keepMs = 60_000, maxSegments?: number): Promise<void> {
    const rows = await this.table.countRows();
    const due = await this.dueIndexes(rows);
    const vectorIndex = () => this.table.createIndex('vector', { config: vectorIndexConfig(rows), name: VECTOR_INDEX, replace: true });
    this.indexedRows = rows;
    // compacts, adds unindexed rows to the indexes, deletes versions older than a minute (a search still
    // reading the one just replaced — searches are not queued behind upkeep — must find its files)
    const compact = () => this.table.optimize({ cleanupOlderThan: new Date(Date.now() - keepMs) });
    if (due.vector || due.updated) {
      for (const old of due.oldVector) await this.table.dropIndex(old);
      // compacted before the indexes are built, not after: compacting the files of rows a vector
      // index covers remaps the index, which cost LanceDB as much CPU as building it (20.5 vs
      // 27.1 s at 30,000 rows; 0.7 s for the compaction first: docs/performance.md)
      await compact();
      if (due.vector) await vectorIndex();
      // the time pass's nearest-in-a-window search filters on `updated` before the vector search:
      // without an index that filter reads the column of every row (about 1 s at a million rows)
      if (due.updated) await this.table.createIndex('updated', { config: lancedb.Index.btree() });
    }
    await compact();
    if (!due.vector && (await this.vectorSegments()) > (maxSegments ?? vectorSegmentsBound(rows))) await vectorIndex();
    this.freed('a compaction');
  }

  /** Whether the table is large enough for its indexes and lacks one of them (or has the old vector index). */
  async indexesDue(rows?: number): Promise<boolean> {
    const due = await this.dueIndexes(rows);
    return due.vector || due.updated;
  }

  /** The indexes a table of its size should have and lacks, and the vector indexes of the old kind to drop. */
  private async dueIndexes(rows?: number): Promise<{ vector: boolean; updated: boolean; oldVector: string[] }> {
    if ((rows ?? (await this.table.countRows())) < VECTOR_INDEX_MIN_ROWS) return { vector: false, updated: false, oldVector: [] };
    const indices = await this.table.listIndices();
    const vector = !indices.some((i) => i.name === VECTOR_INDEX);
    return { vector, updated: !indices.some((i) => i.columns.includes('updated')), oldVector: vector ? indices.filter((i) => i.columns.includes('vector')).map((i) => i.name) : [] };
  }

  /** The segments of the vector index (0: none): `optimize()` indexes appended rows as a segment of their own. */
  async vectorSegments(): Promise<number> {
    const stats = await this.table.indexStats(VECTOR_INDEX).catch(() => undefined);
    return stats ? (stats.numIndices ?? 1) : 0;
  }

  /** Bytes of the vector index on disk, all its segments (0: none yet): what the connection's index cache must hold. */
  async vectorIndexBytes(): Promise<number> {
    const indices = await this.table.listIndices();
    return indices.filter((i) => i.columns.includes('vector')).reduce((sum, i) => sum + (i.sizeBytes ?? 0), 0);
  }

  /** The same table through another connection (the old handle is let go, not closed: a search on it finishes). */
  async reopen(db: lancedb.Connection): Promise<void> {
    this.table = await db.openTable(this.name);
  }

  async countRows(): Promise<number> {
    return this.table.countRows();
  }

  /** Nearest chunks by cosine similarity (vectors are unit length, so dot product). */
  async vectorSearch(vector: Float32Array, limit: number, pagePrefix?: string): Promise<ScoredChunk[]> {
    const { rows } = await this.keywordIndex();
    const prefix = pagePrefix?.replace(/[%_]/g, '');
    const found = rows.search(vector, limit, prefix ? (c) => c.page.startsWith(prefix) : undefined);
    if (found) return found.map(({ value, score }) => scored(value, score));
    return this.nearest(rows, vector, prefix ? `page LIKE ${quote(`${prefix}%`)}` : null, limit);
  }

  /**
   * LanceDB's vector search for a table too large for the in-memory pass: only each row's page,
   * line, hash and distance are read, the rows come from memory (all of them when one is missing
   * there, e.g. written since the keyword index was read).
   */
  private async nearest(rows: VectorPass<StoredChunk>, vector: Float32Array, where: string | null, limit: number): Promise<ScoredChunk[]> {
    this.indexedRows ??= await this.table.countRows();
    const probes = vectorPartitions(this.indexedRows);
    const query = () => {
      const q = this.table.query().nearestTo(vector).distanceType('cosine').refineFactor(refineFor(limit)).nprobes(probes);
      return where ? q.where(where) : q;
    };
    // read by column: a row object per hit (Arrow's row proxies, a type dispatch per field read)
    // was most of this search's own time on the main thread at 10,000 pages
    const ids = await query().select(['page', 'line_start', 'hash', '_distance']).limit(limit).toArrow();
    const [pages, lines, hashes, distances] = ['page', 'line_start', 'hash', '_distance'].map((name) => Array.from<unknown>(ids.getChild(name) ?? []));
    const out: ScoredChunk[] = [];
    for (let i = 0; i < ids.numRows; i++) {
      const chunk = rows.get(String(pages![i]), Number(lines![i]));
      if (!chunk || chunk.hash !== String(hashes![i])) {
        const full = (await query()
          .select([...SHOWN, '_distance'])
          .limit(limit)
          .toArray()) as Record<string, unknown>[];
        return full.map((f) => ({ ...toChunk(f), score: cosineOf(f._distance) }));
      }
      out.push(scored(chunk, cosineOf(distances![i])));
    }
    return out;
  }

  /**
   * Chunks said within the given windows (conversation messages and dated decisions: the pages
   * whose `updated` is when an entry was said, not when a page was edited), nearest first when
   * a query vector is given.
   */
  async windowSearch(vector: Float32Array | null, windows: readonly { start: number; end: number }[], limit: number): Promise<ScoredChunk[]> {
    if (windows.length === 0) return [];
    const iso = (t: number) => new Date(t).toISOString();
    const within = windows.map((w) => `(updated >= '${iso(w.start)}' AND updated < '${iso(w.end)}')`).join(' OR ');
    const where = `(${within}) AND (page LIKE 'log/%' OR page = '${DATED_PAGE}')`;
    if (vector) {
      const { rows } = await this.keywordIndex();
      const spans = windows.map((w) => [iso(w.start), iso(w.end)] as const);
      const datedPage = (page: string) => page.startsWith('log/') || page === DATED_PAGE;
      const dated = (c: StoredChunk) => datedPage(c.page) && spans.some(([start, end]) => c.updated >= start && c.updated < end);
      const found = rows.search(vector, limit, dated);
      if (found) return found.map(({ value, score }) => scored(value, score));
      return rows.some(dated, datedPage) ? this.nearest(rows, vector, where, limit) : [];
    }
    const rows = await this.table.query().where(where).select(SHOWN).limit(limit).toArray();
    return rows.map((r: Record<string, unknown>) => ({ ...toChunk(r), score: 0 }));
  }

  /** BM25 over heading + text, plus `contextBoost` × BM25 over the context (lexical.ts); `terms` are ORed. */
  async keywordSearch(terms: string[], limit: number, contextBoost: number, pagePrefix?: string): Promise<ScoredChunk[]> {
    if (terms.length === 0) return [];
    const { lexical: index } = await this.keywordIndex();
    const accept = pagePrefix ? (c: StoredChunk) => c.page.startsWith(pagePrefix) : undefined;
    return index.search(terms.join(' '), limit, contextBoost, accept).map(({ value, score }) => scored(value, score));
  }
}
