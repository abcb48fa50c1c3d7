/**
 * One project's chunks in LanceDB: a table per project and embedder (so a model change
 * never mixes vectors) and a vector index once the table is large enough to need one.
 * Keyword search runs on an in-memory index of the same rows (lexical.ts).
 */
import * as lancedb from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Float64, Int32, Schema, Utf8 } from 'apache-arrow';
import type { Chunk } from './chunker.js';
import { sha1 } from './chunker.js';
import { LexicalIndex } from './lexical.js';
import { ownString } from './own-string.js';

export interface StoredChunk extends Chunk {
  embedder: string;
}

export interface ChunkRow extends StoredChunk {
  vector: Float32Array;
}

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
const SHOWN = ['page', 'heading', 'line_start', 'line_end', 'message_line', 'text', 'entity', 'updated', 'staleness', 'sensitivity', 'hash', 'embedder'];
/** Rows before a vector index pays for itself (flat search is exact and fast enough below). */
const VECTOR_INDEX_MIN_ROWS = 8000;

/** Rows tokenised for the keyword index between two yields to the event loop (a few ms each). */
const KEYWORD_READ_SLICE = 256;

/** Bumped when the row layout changes: a new layout gets a new table, the old one is dropped. */
const LAYOUT = 6;

/** One table per project, embedder and row layout, so none of them is ever mixed. */
export function tableName(project: string, embedderId: string): string {
  return `${project.replace(/[^A-Za-z0-9_-]/g, '_')}__${sha1(`${embedderId}\n${LAYOUT}`).slice(0, 10)}`;
}

export function projectOfTable(name: string): string | null {
  const m = /^(.*)__[0-9a-f]{10}$/.exec(name);
  return m ? m[1]! : null;
}

function schema(dimensions: number): Schema {
  const str = (name: string) => new Field(name, new Utf8(), false);
  return new Schema([
    str('page'),
    str('heading'),
    new Field('line_start', new Int32(), false),
    new Field('line_end', new Int32(), false),
    // a section of a long archive message: the message's header line (0: a whole message or a note)
    new Field('message_line', new Int32(), false),
    str('text'),
    str('search_text'),
    str('context'),
    str('entity'),
    str('updated'),
    new Field('staleness', new Float64(), false),
    str('sensitivity'),
    str('hash'),
    str('embedder'),
    new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
  ]);
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

function toChunk(r: Record<string, unknown>): StoredChunk {
  return {
    page: String(r.page),
    heading: String(r.heading),
    lineStart: Number(r.line_start),
    lineEnd: Number(r.line_end),
    text: String(r.text),
    context: typeof r.context === 'string' ? r.context : '',
    entity: String(r.entity),
    updated: String(r.updated),
    staleness: Number(r.staleness),
    sensitivity: r.sensitivity === 'sensitive' || r.sensitivity === 'public' ? r.sensitivity : 'personal',
    hash: String(r.hash),
    embedder: String(r.embedder),
    ...(Number(r.message_line) > 0 ? { message: Number(r.message_line) } : {}),
  };
}

export class ProjectTable {
  /** Keyword index over every row, read from the table on the first keyword search, then kept in step by `write`. */
  private lexical: LexicalIndex<StoredChunk> | null = null;
  private loading: Promise<LexicalIndex<StoredChunk>> | null = null;
  /**
   * Writes made while the keyword index is being read, replayed onto it once read (each replays
   * as "remove these rows, then put these", so one the read already saw is applied twice to the
   * same effect). Before, such a write made the whole table be read again: with an archive
   * append every turn and a read of seconds at a year of memory, it never finished.
   */
  private journal: ((index: LexicalIndex<StoredChunk>) => void)[] | null = null;

  private constructor(
    private readonly db: lancedb.Connection,
    readonly name: string,
    private table: lancedb.Table,
    private readonly dimensions: number,
  ) {}

  static async open(db: lancedb.Connection, name: string, dimensions: number): Promise<ProjectTable> {
    const names = await db.tableNames();
    let table: lancedb.Table;
    if (names.includes(name)) {
      table = await db.openTable(name);
    } else {
      table = await db.createEmptyTable(name, schema(dimensions));
    }
    const t = new ProjectTable(db, name, table, dimensions);
    // read the keyword index now, so the first question does not wait for it
    t.keywordIndex().catch(() => undefined);
    return t;
  }

  /** The stored rows of `pages` (their identity only), to keep the unchanged ones. */
  async rowsOf(pages: string[]): Promise<RowKey[]> {
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
    const predicates = [...change.pages.map((p) => `page = ${quote(p)}`), ...change.rows.map((r) => `(page = ${quote(r.page)} AND line_start = ${Math.trunc(r.lineStart)})`)];
    for (let i = 0; i < predicates.length; i += 200) await this.table.delete(predicates.slice(i, i + 200).join(' OR '));
    for (let i = 0; i < change.add.length; i += 20_000) {
      const batch = change.add.slice(i, i + 20_000).map((r) => ({
        page: r.page,
        heading: r.heading,
        line_start: r.lineStart,
        line_end: r.lineEnd,
        message_line: r.message ?? 0,
        text: r.text,
        search_text: `${r.heading}\n${r.text}`,
        context: r.context,
        entity: r.entity,
        updated: r.updated,
        staleness: r.staleness,
        sensitivity: r.sensitivity,
        hash: r.hash,
        embedder: r.embedder,
        vector: Array.from(r.vector),
      }));
      await this.table.add(batch);
    }
    // kept in the keyword index for as long as the row lives: its strings must not pin the page text they were cut from
    const chunks = change.add.map(({ vector: _vector, ...chunk }): StoredChunk => ({
      ...chunk,
      page: ownString(chunk.page),
      heading: ownString(chunk.heading),
      text: ownString(chunk.text),
      context: ownString(chunk.context),
      entity: ownString(chunk.entity),
    }));
    /** `replay`: the index may hold these rows already (read after the write): each added row replaces its place. */
    const apply = (lexical: LexicalIndex<StoredChunk>, replay = true) => {
      for (const p of change.pages) lexical.remove(p);
      for (const r of change.rows) lexical.remove(r.page, (c) => c.lineStart === Math.trunc(r.lineStart));
      for (const c of chunks) {
        if (replay) lexical.remove(c.page, (d) => d.lineStart === c.lineStart);
        lexical.add(c.page, c, `${c.heading}\n${c.text}`, c.context);
      }
    };
    if (this.lexical) apply(this.lexical, false);
    else this.journal?.push(apply);
  }

  /** Lets go of the in-memory keyword index (a large build): the next keyword search reads it from the table again. */
  dropKeywordIndex(): void {
    this.lexical = null;
  }

  private keywordIndex(): Promise<LexicalIndex<StoredChunk>> {
    if (this.lexical) return Promise.resolve(this.lexical);
    this.loading ??= (async () => {
      const journal: ((index: LexicalIndex<StoredChunk>) => void)[] = [];
      this.journal = journal;
      try {
        const index = new LexicalIndex<StoredChunk>();
        // batch by batch, yielding between slices: at a year of memory the read is seconds of
        // main thread, and read in one go it held up every turn that came meanwhile
        let done = 0;
        for await (const batch of this.table.query().select([...SHOWN, 'search_text', 'context'])) {
          for (const r of batch.toArray() as Record<string, unknown>[]) {
            index.add(String(r.page), toChunk(r), String(r.search_text), typeof r.context === 'string' ? r.context : '');
            if (++done % KEYWORD_READ_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
          }
        }
        // rows written meanwhile may or may not be in what was read: replayed, to the same effect either way
        for (const apply of journal) apply(index);
        this.lexical = index;
        return index;
      } finally {
        this.journal = null;
      }
    })().finally(() => (this.loading = null));
    return this.loading;
  }

  /** Merges new rows into the indexes; builds the vector index once the table is large. */
  /** Compacts, builds the vector index when due, and deletes versions older than `keepMs` (0: all but the newest, after a forget). */
  async optimize(keepMs = 60_000): Promise<void> {
    const rows = await this.table.countRows();
    const indices = await this.table.listIndices();
    if (rows >= VECTOR_INDEX_MIN_ROWS && !indices.some((i) => i.columns.includes('vector'))) {
      await this.table.createIndex('vector', { config: lancedb.Index.hnswSq({ distanceType: 'dot' }) });
    }
    // versions older than a minute go: a search still reading the one just replaced (searches are
    // not queued behind index updates) must not find its files deleted under it
    await this.table.optimize({ cleanupOlderThan: new Date(Date.now() - keepMs) });
  }

  async countRows(): Promise<number> {
    return this.table.countRows();
  }

  /** Nearest chunks by cosine similarity (vectors are unit length, so dot product). */
  async vectorSearch(vector: Float32Array, limit: number, pagePrefix?: string): Promise<ScoredChunk[]> {
    let query = this.table.query().nearestTo(Array.from(vector)).distanceType('dot');
    if (pagePrefix) query = query.where(`page LIKE ${quote(`${pagePrefix.replace(/[%_]/g, '')}%`)}`);
    const rows = await query
      .select([...SHOWN, '_distance'])
      .limit(limit)
      .toArray();
    return rows.map((r: Record<string, unknown>) => ({ ...toChunk(r), score: 1 - Number(r._distance) }));
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
      const rows = await this.table
        .query()
        .nearestTo(Array.from(vector))
        .distanceType('dot')
        .where(where)
        .select([...SHOWN, '_distance'])
        .limit(limit)
        .toArray();
      return rows.map((r: Record<string, unknown>) => ({ ...toChunk(r), score: 1 - Number(r._distance) }));
    }
    const rows = await this.table.query().where(where).select(SHOWN).limit(limit).toArray();
    return rows.map((r: Record<string, unknown>) => ({ ...toChunk(r), score: 0 }));
  }

  /** BM25 over heading + text, plus `contextBoost` × BM25 over the context (lexical.ts); `terms` are ORed. */
  async keywordSearch(terms: string[], limit: number, contextBoost: number, pagePrefix?: string): Promise<ScoredChunk[]> {
    if (terms.length === 0) return [];
    const index = await this.keywordIndex();
    const accept = pagePrefix ? (c: StoredChunk) => c.page.startsWith(pagePrefix) : undefined;
    return index.search(terms.join(' '), limit, contextBoost, accept).map(({ value, score }) => ({ ...value, score }));
  }
}
