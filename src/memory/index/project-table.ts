/**
 * One project's chunks in LanceDB: a table per project and embedder (so a model change
 * never mixes vectors), a full-text index over the chunk text and its context, and a
 * vector index once the table is large enough to need one.
 */
import * as lancedb from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Float64, Int32, Schema, Utf8 } from 'apache-arrow';
import type { Chunk } from './chunker.js';
import { sha1 } from './chunker.js';

export interface StoredChunk extends Chunk {
  pageHash: string;
  embedder: string;
  /** First line of the previous / next chunk of the same page (-1: none). */
  prevLine: number;
  nextLine: number;
}

export interface ChunkRow extends StoredChunk {
  vector: Float32Array;
}

/** What the index knows of a page, to skip unchanged ones without reading them. */
export interface PageState {
  hash: string;
  mtimeMs: number;
  size: number;
}

export interface ScoredChunk extends StoredChunk {
  /** Cosine similarity for vector hits, BM25 score for keyword hits. */
  score: number;
}

const SHOWN = ['page', 'heading', 'line_start', 'line_end', 'prev_line', 'next_line', 'text', 'entity', 'updated', 'staleness', 'hash', 'page_hash', 'embedder'];
/** Rows before a vector index pays for itself (flat search is exact and fast enough below). */
const VECTOR_INDEX_MIN_ROWS = 8000;

export function tableName(project: string, embedderId: string): string {
  return `${project.replace(/[^A-Za-z0-9_-]/g, '_')}__${sha1(embedderId).slice(0, 10)}`;
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
    new Field('prev_line', new Int32(), false),
    new Field('next_line', new Int32(), false),
    str('text'),
    str('search_text'),
    str('context'),
    str('entity'),
    str('updated'),
    new Field('staleness', new Float64(), false),
    str('hash'),
    str('page_hash'),
    new Field('page_mtime', new Float64(), false),
    new Field('page_size', new Float64(), false),
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
    prevLine: Number(r.prev_line),
    nextLine: Number(r.next_line),
    text: String(r.text),
    context: String(r.context ?? ''),
    entity: String(r.entity),
    updated: String(r.updated),
    staleness: Number(r.staleness),
    hash: String(r.hash),
    pageHash: String(r.page_hash),
    embedder: String(r.embedder),
  };
}

export class ProjectTable {
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
    await t.ensureFtsIndex();
    return t;
  }

  private async ensureFtsIndex(): Promise<void> {
    const have = new Set((await this.table.listIndices()).flatMap((i) => i.columns));
    for (const column of ['search_text', 'context']) {
      if (have.has(column)) continue;
      await this.table.createIndex(column, {
        config: lancedb.Index.fts({ stem: true, language: 'English', removeStopWords: true, lowercase: true, asciiFolding: true, withPosition: false }),
        replace: true,
      });
    }
  }

  /** Page states from the stored rows (one scan; used when a project is first opened). */
  async pageStates(): Promise<Map<string, PageState>> {
    const rows = await this.table.query().select(['page', 'page_hash', 'page_mtime', 'page_size']).toArray();
    const out = new Map<string, PageState>();
    for (const r of rows) out.set(String(r.page), { hash: String(r.page_hash), mtimeMs: Number(r.page_mtime), size: Number(r.page_size) });
    return out;
  }

  /** Stored vectors of a page by chunk hash, to reuse for chunks that did not change. */
  async vectorsOf(pages: string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    for (let i = 0; i < pages.length; i += 200) {
      const filter = `page IN (${pages.slice(i, i + 200).map(quote).join(', ')})`;
      const rows = await this.table.query().where(filter).select(['hash', 'vector']).toArray();
      for (const r of rows) out.set(String(r.hash), Float32Array.from(r.vector as ArrayLike<number>));
    }
    return out;
  }

  /** Replaces the rows of `pages` (deleted pages simply get no new rows). */
  async replacePages(pages: string[], rows: (ChunkRow & { pageMtime: number; pageSize: number })[]): Promise<void> {
    for (let i = 0; i < pages.length; i += 500) {
      await this.table.delete(`page IN (${pages.slice(i, i + 500).map(quote).join(', ')})`);
    }
    for (let i = 0; i < rows.length; i += 20_000) {
      const batch = rows.slice(i, i + 20_000).map((r) => ({
        page: r.page,
        heading: r.heading,
        line_start: r.lineStart,
        line_end: r.lineEnd,
        prev_line: r.prevLine,
        next_line: r.nextLine,
        text: r.text,
        search_text: `${r.heading}\n${r.text}`,
        context: r.context,
        entity: r.entity,
        updated: r.updated,
        staleness: r.staleness,
        hash: r.hash,
        page_hash: r.pageHash,
        page_mtime: r.pageMtime,
        page_size: r.pageSize,
        embedder: r.embedder,
        vector: Array.from(r.vector),
      }));
      await this.table.add(batch);
    }
  }

  /** Merges new rows into the indexes; builds the vector index once the table is large. */
  async optimize(): Promise<void> {
    const rows = await this.table.countRows();
    const indices = await this.table.listIndices();
    if (rows >= VECTOR_INDEX_MIN_ROWS && !indices.some((i) => i.columns.includes('vector'))) {
      await this.table.createIndex('vector', { config: lancedb.Index.hnswSq({ distanceType: 'dot' }) });
    }
    await this.table.optimize({ cleanupOlderThan: new Date() });
  }

  async countRows(): Promise<number> {
    return this.table.countRows();
  }

  /** Nearest chunks by cosine similarity (vectors are unit length, so dot product). */
  async vectorSearch(vector: Float32Array, limit: number): Promise<ScoredChunk[]> {
    const rows = await this.table.query().nearestTo(Array.from(vector)).distanceType('dot').select([...SHOWN, '_distance']).limit(limit).toArray();
    return rows.map((r: Record<string, unknown>) => ({ ...toChunk(r), score: 1 - Number(r._distance) }));
  }

  /** BM25 over heading + text (and, less, the context); `terms` are ORed. */
  async keywordSearch(terms: string[], limit: number, contextBoost: number): Promise<ScoredChunk[]> {
    if (terms.length === 0) return [];
    const query = new lancedb.MultiMatchQuery(terms.join(' '), ['search_text', 'context'], { boosts: [1, contextBoost] });
    const rows = await this.table.query().fullTextSearch(query).select([...SHOWN, '_score']).limit(limit).toArray();
    return rows.map((r: Record<string, unknown>) => ({ ...toChunk(r), score: Number(r._score) }));
  }

  async drop(): Promise<void> {
    await this.db.dropTable(this.name);
  }

  get vectorDimensions(): number {
    return this.dimensions;
  }
}
