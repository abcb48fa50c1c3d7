/**
 * Writing one batch of changed pages to a project's table: identical rows stay, rows that only
 * moved keep their vectors, the rest is embedded (a hosted embedder never sees a sensitive
 * chunk). Split out of memory-index.ts, which decides what changed; this decides what to write.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Embedder, Logger } from '../../core/ports/index.js';
import { classifyText, isSensitive, markedSensitivity, parseSensitivity } from '../../core/privacy/sensitivity.js';
import { embeddingText, type Chunk } from './chunker.js';
import type { ManifestState, PageState } from './page-manifest.js';
import type { ProjectTable, RowKey } from './project-table.js';
import type { ChunkRow } from './table-rows.js';

type TableLib = typeof import('./project-table.js');

export interface ProjectState extends ManifestState {
  table: ProjectTable;
  /** Rows written since the indexes last took them in (they are searched flat meanwhile). */
  unoptimized: number;
  /** Stored rows per page, filled on a page's first change in this process. */
  rows: Map<string, RowKey[]>;
  /** Pages the watcher named since the last sync; null: list the whole project folder. */
  dirty: Set<string> | null;
  /** The watch epoch in which the folder was last listed whole (-1: never). */
  listed: number;
  /** Vectors of the rows written last, by chunk hash: an archive append moves its neighbours' rows without a table scan. */
  vectors: Map<string, Float32Array>;
}

/** A project's state as opened: its table and the manifest's pages, nothing yet read, written or saved in this process. */
export function projectState(table: ProjectTable, pages: Map<string, PageState>, manifest: string): ProjectState {
  return { table, pages, manifest, unoptimized: 0, rows: new Map(), dirty: null, listed: -1, vectors: new Map(), savedAt: -Infinity, unsaved: new Set(), journaled: 0 };
}

/** A page whose content changed since the index last saw it, chunked. */
export interface ChangedPage {
  page: string;
  hash: string;
  mtimeMs: number;
  size: number;
  chunks: Chunk[];
}

/** Vectors kept per project for reuse (a few days of archive entries). */
const RECENT_VECTORS = 2048;
const EMBED_BATCH = 64;

export interface BatchWriterOptions {
  projectsDir: string;
  embedder: Embedder;
  logger: Logger;
}

export class BatchWriter {
  /** Pages whose front matter is sensitive, by their link target (`Health/Carol`), read when a chunk links to them. */
  private readonly sensitiveTargets = new Map<string, { mtimeMs: number; sensitive: boolean }>();

  constructor(private readonly options: BatchWriterOptions) {}

  /** Writes one batch of changed pages (and removes deleted ones): identical rows stay, moved ones keep their vectors, the rest is embedded. */
  async write(t: TableLib, project: string, state: ProjectState, changed: readonly ChangedPage[], deleted: readonly string[]): Promise<{ chunks: number; embedded: number }> {
    const { embedder } = this.options;
    // rows already stored for these pages: identical ones stay, their vectors are reused by hash
    const unknown = changed.map((c) => c.page).filter((p) => !state.rows.has(p));
    if (unknown.length > 0) {
      for (const p of unknown) state.rows.set(p, []);
      for (const r of await state.table.rowsOf(unknown)) state.rows.get(r.page)!.push(r);
    }
    const stored = changed.flatMap((c) => state.rows.get(c.page) ?? []);
    const kept = new Set(stored.map((r) => `${r.page}#${t.rowKey(r)}`));
    const wanted = new Set<string>();
    const fresh: Chunk[] = [];
    let chunks = 0;
    for (const c of changed) {
      for (const chunk of c.chunks) {
        chunks++;
        const key = `${chunk.page}#${t.rowKey(chunk)}`;
        wanted.add(key);
        if (!kept.has(key)) fresh.push(chunk);
      }
    }
    const storedHashes = new Set(stored.map((r) => r.hash));
    const movable = [...new Set(fresh.map((c) => c.hash).filter((h) => storedHashes.has(h) && !state.vectors.has(h)))];
    const reuse = movable.length > 0 ? await state.table.vectorsOf(movable) : new Map<string, Float32Array>();
    for (const c of fresh) {
      const v = state.vectors.get(c.hash);
      if (v && storedHashes.has(c.hash)) reuse.set(c.hash, v);
    }
    const add: ChunkRow[] = [];
    const pending: { chunk: Chunk; row: number }[] = [];
    for (const chunk of fresh) {
      const vector = reuse.get(chunk.hash);
      if (!vector) pending.push({ chunk, row: add.length });
      add.push({ ...chunk, embedder: embedder.id, vector: vector ?? new Float32Array(0) });
    }
    // a hosted embedder never sees a sensitive chunk: it gets a zero vector and is found by keywords
    const hosted = embedder.locality === 'hosted';
    const local = hosted ? new Set(pending.filter((p) => mustStayLocal(p.chunk) || this.linksToSensitive(project, p.chunk.text)).map((p) => p.row)) : new Set<number>();
    const embeddable = pending.filter((p) => !local.has(p.row));
    for (const row of local) add[row]!.vector = new Float32Array(embedder.dimensions);
    for (let i = 0; i < embeddable.length; i += EMBED_BATCH) {
      const batch = embeddable.slice(i, i + EMBED_BATCH);
      const vectors = await embedder.embed(batch.map((p) => embeddingText(p.chunk)));
      batch.forEach((p, j) => (add[p.row]!.vector = vectors[j]!));
    }
    // a small write (an archive append, a page edit) keeps its vectors for the next one
    if (add.length <= RECENT_VECTORS / 4) {
      for (const r of add) {
        state.vectors.delete(r.hash);
        state.vectors.set(r.hash, r.vector);
      }
      for (const h of state.vectors.keys()) {
        if (state.vectors.size <= RECENT_VECTORS) break;
        state.vectors.delete(h);
      }
    }
    const stale = stored.filter((r) => !wanted.has(`${r.page}#${t.rowKey(r)}`));
    this.options.logger.debug({ project, add: add.length, remove: stale.length, embedded: pending.length }, 'writing chunks');
    try {
      await state.table.write({ pages: [...deleted], rows: stale, add });
    } catch (err) {
      // half-written: forget what we knew of these pages so the next sync reads the table again
      for (const p of [...deleted, ...changed.map((c) => c.page)]) state.rows.delete(p);
      state.dirty = null;
      throw err;
    }
    state.unoptimized += add.length + stale.length + deleted.length;
    for (const p of deleted) {
      state.pages.delete(p);
      state.unsaved.add(p);
      state.rows.delete(p);
    }
    if (add.length > RECENT_VECTORS / 4) {
      // a build or large reindex: keeping every written row's key would hold the whole table
      // (a million objects at 1M chunks); a page changed later reads its rows from the table once
      for (const c of changed) state.rows.delete(c.page);
    } else {
      const byPage = new Map<string, RowKey[]>(changed.map((c) => [c.page, []]));
      for (const r of stored) if (wanted.has(`${r.page}#${t.rowKey(r)}`)) byPage.get(r.page)!.push(r);
      for (const r of add) byPage.get(r.page)!.push({ page: r.page, hash: r.hash, lineStart: r.lineStart, lineEnd: r.lineEnd });
      for (const [p, rows] of byPage) state.rows.set(p, rows);
    }
    for (const c of changed) {
      state.pages.set(c.page, { hash: c.hash, mtimeMs: c.mtimeMs, size: c.size });
      state.unsaved.add(c.page);
    }
    return { chunks, embedded: pending.length };
  }

  /** Whether a chunk names a sensitive page by a wiki link (its path is its title, and the link label can say why). */
  private linksToSensitive(project: string, text: string): boolean {
    for (const m of text.matchAll(/\[\[([^\]|#]+)/g)) {
      const target = (m[1] ?? '').trim().replace(/\.md$/i, '');
      if (!target || target.includes('..')) continue;
      const file = join(this.options.projectsDir, project, 'notes', `${target}.md`);
      const key = `${project}/${target}`;
      const mtimeMs = mtimeOf(file);
      if (mtimeMs === null) continue;
      let known = this.sensitiveTargets.get(key);
      if (!known || known.mtimeMs !== mtimeMs) {
        const head = readFileSync(file, 'utf8').slice(0, 4000);
        const fm = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\s*$/m.exec(head)?.[1] ?? '';
        const sensitive = fm.split(/\r?\n/).some((l) => /^\s*(?:sensitivity|kind)\s*:/i.test(l) && isSensitive(parseSensitivity(l.replace(/^[^:]*:\s*/, '').replace(/^['"]|['"]$/g, ''))));
        known = { mtimeMs, sensitive };
        if (this.sensitiveTargets.size > 10_000) this.sensitiveTargets.clear();
        this.sensitiveTargets.set(key, known);
      }
      if (known.sensitive) return true;
    }
    return false;
  }
}

/** A chunk a hosted service must not receive: marked sensitive, or sensitive by the rules every writer applies. */
function mustStayLocal(chunk: Chunk): boolean {
  // what would be sent: the chunk with its context (a message's neighbours), which may be marked itself
  const sent = embeddingText(chunk);
  return isSensitive(chunk.sensitivity) || isSensitive(markedSensitivity(sent)) || isSensitive(classifyText(sent));
}

function mtimeOf(file: string): number | null {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
}
