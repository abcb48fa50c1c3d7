/**
 * The derived index of every project: keeps each project's LanceDB table in step with its
 * Markdown pages. Unchanged pages are skipped by size + mtime (and hash when unsure), changed
 * pages are re-chunked and only their new chunks embedded, deleted pages removed. An
 * unreadable table is dropped and rebuilt from the pages, never fatal.
 */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type * as lancedb from '@lancedb/lancedb';
import type { Embedder, Logger } from '../../core/ports/index.js';
import { KeyedQueue } from '../../core/keyed-queue.js';
import { chunkPage, sha1, type ChunkOptions } from './chunker.js';
import { BatchWriter, projectState, type ChangedPage, type ProjectState } from './index-write.js';
import { isIndexedPage, listPageFiles, listProjects, readAhead, statPages, type PageFile } from './page-files.js';
import { loadManifest, removeManifest, saveWhenDue, saveWhole } from './page-manifest.js';
import { FittedConnection, fitLogged } from './lance-connect.js';
import { memoryBudget, type MemoryBudget } from './memory-budget.js';
import { ResidentSet } from './resident-set.js';
import { residentStatusWriter } from './resident-status.js';
import { projectOfTable, tableName } from './table-layout.js';
import { addStats, emptyStats, type Candidates, type SearchQuery, type SyncStats } from './search-query.js';
import { HeldChanges } from './held-changes.js';

type TableLib = typeof import('./project-table.js');

export interface MemoryIndexOptions {
  projectsDir: string;
  /** Folder of the LanceDB database (e.g. `data/index`). */
  indexDir: string;
  embedder: Embedder;
  logger: Logger;
  chunking?: Omit<ChunkOptions, 'mtime'>;
  /** Files modified this recently are hashed even when size and mtime match. */
  racyMs?: number;
  now?: () => number;
  /** Chunks per write of a large sync (default WRITE_BATCH_CHUNKS). */
  writeBatchChunks?: number;
  /** What the index may keep in memory (CHARLIE_MEMORY_BUDGET; default memoryBudget(256)). */
  budget?: MemoryBudget;
  /** Told when bulk native work freed memory (memory/index/native-heap.ts: given back to the system). */
  freed?: (reason: string) => void;
}

/** Rows written before the full-text and vector indexes are brought up to date. */
const OPTIMIZE_AFTER_ROWS = 500;

/**
 * Chunks chunked, embedded and written per batch: a build or large reindex holds one batch of
 * pages, chunks and vectors at a time instead of every changed page's before the first write.
 */
const WRITE_BATCH_CHUNKS = 2048;
/** Pages read at once while filling a batch, and at most this many bytes of them (pages of a thousand chunks are not read sixteen at a time). */
const READ_AHEAD = 16;
const READ_AHEAD_BYTES = 1 << 20;
const SAFE_PROJECT = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export class MemoryIndex {
  private readonly states = new Map<string, Promise<ProjectState>>();
  /** The same states once open, for the sync's fast path (no queue, no await). */
  private readonly open = new Map<string, ProjectState>();
  /** While a watcher reports every change, a sync checks only the pages it named. */
  private watched = false;
  /** Bumped when watching starts or stops: every project is listed once more. */
  private epoch = 0;
  /** One index operation at a time per project. */
  private readonly queues = new KeyedQueue();
  /** LanceDB's connection, its index cache grown to hold the vector indexes (lance-connect.ts). */
  private readonly lance: FittedConnection;
  /** LanceDB and the table code (native, tens of MB) are loaded by the first index operation, not at start-up. */
  private lib: TableLib | null = null;

  private readonly writer: BatchWriter;
  /** The watcher's changes to projects not opened yet, while small (held-changes.ts). */
  private readonly held: HeldChanges;
  readonly budget: MemoryBudget;
  /** The projects whose keyword index and rows are in memory: the least recently searched go past the budget or when idle. */
  readonly resident: ResidentSet;

  constructor(private readonly options: MemoryIndexOptions) {
    this.writer = new BatchWriter(options);
    this.held = new HeldChanges(options.projectsDir);
    this.budget = options.budget ?? memoryBudget(256);
    const status = residentStatusWriter(options.indexDir, this.budget, () => ({ projects: this.resident.list(), cache: this.lance.figures() }));
    this.lance = new FittedConnection(options.indexDir, { index: this.budget.indexCacheBytes, metadata: this.budget.metadataCacheBytes }, status);
    this.resident = new ResidentSet(this.budget.residentBytes, this.budget.idleMs, options.now, status);
  }

  /** A project was searched: it stays in memory, and the least recently searched others go while over the budget. */
  private used(project: string, state: ProjectState): void {
    const dropped = this.resident.touch(project, { bytes: () => state.table.residentBytes(), release: () => state.table.dropKeywordIndex() });
    if (dropped.length > 0) this.options.logger.debug({ project, dropped }, 'search data of the least recently searched projects let go (memory budget)');
  }

  get embedder(): Embedder {
    return this.options.embedder;
  }

  /** The table module; loaded by `connection()`, which every index operation awaits first. */
  private get t(): TableLib {
    if (!this.lib) throw new Error('the search index is not open yet');
    return this.lib;
  }

  private async connection(): Promise<lancedb.Connection> {
    this.lib ??= await import('./project-table.js');
    return this.lance.open(await import('@lancedb/lancedb'), (err) => this.options.logger.warn({ dir: this.options.indexDir, err }, 'search index folder unreadable; rebuilding it from the pages'));
  }

  /** `table` was opened (through `openedOn`) or optimized: LanceDB's index cache grows to hold its vector index (lance-connect.ts). */
  private fitIndexCache(name: string, table: ProjectState['table'], openedOn?: lancedb.Connection): Promise<void> {
    return fitLogged(this.lance, this.options.logger, name, table, openedOn);
  }

  /** LanceDB's cache figures (bytes held, bound of the index cache, vector indexes on disk): for benchmarks and tests. */
  cacheFigures(): { bytes: number; indexBound: number; vectorIndexBytes: number } {
    return this.lance.figures();
  }

  private state(project: string): Promise<ProjectState> {
    let s = this.states.get(project);
    if (!s) {
      this.held.release(project);
      s = this.openState(project);
      this.states.set(project, s);
      s.then(
        (state) => this.states.get(project) === s && this.open.set(project, state),
        () => this.states.delete(project),
      );
    }
    return s;
  }

  private async openState(project: string): Promise<ProjectState> {
    const db = await this.connection();
    const name = tableName(project, this.embedder.id);
    const manifest = join(this.options.indexDir, `${name}.pages.json`);
    await this.dropOtherEmbedders(db, project, name);
    try {
      const table = await this.t.ProjectTable.open(db, name, this.embedder.dimensions, this.vectorRows(), this.options.freed);
      await this.fitIndexCache(name, table, db);
      const rows = await table.countRows();
      // a large table indexed before its indexes changed: rebuilt in the background, after the project's queued writes
      if (await table.indexesDue(rows))
        void this.queues
          .run(project, async () => {
            await table.optimize();
            await this.fitIndexCache(name, table);
          })
          .catch((err: unknown) => this.options.logger.warn({ project, err }, 'search index upkeep failed; it is tried again after the next writes'));
      return projectState(table, await loadManifest(manifest), manifest);
    } catch (err) {
      this.options.logger.warn({ project, err: err }, 'search index unreadable; rebuilding it from the pages');
      await this.dropTable(db, name);
      const table = await this.t.ProjectTable.open(db, name, this.embedder.dimensions, this.vectorRows(), this.options.freed);
      return projectState(table, new Map(), manifest);
    }
  }

  /** Rows of a project whose vectors are searched in memory: up to its vector index's size, within the budget's share. */
  private vectorRows(): number {
    return Math.min(this.t.VECTOR_INDEX_MIN_ROWS, Math.floor(this.budget.vectorBytes / (4 * Math.max(1, this.embedder.dimensions))));
  }

  private async dropTable(db: lancedb.Connection, name: string): Promise<void> {
    await db.dropTable(name).catch(() => undefined);
    this.lance.forget(name);
    await rm(join(this.options.indexDir, `${name}.lance`), { recursive: true, force: true });
    await removeManifest(join(this.options.indexDir, `${name}.pages.json`));
  }

  /** A model (or row layout) change re-embeds: this project's other tables are dropped. */
  private async dropOtherEmbedders(db: lancedb.Connection, project: string, keep: string): Promise<void> {
    for (const name of await db.tableNames()) {
      if (name !== keep && projectOfTable(name) === project.replace(/[^A-Za-z0-9_-]/g, '_')) {
        this.options.logger.info({ project, table: name }, 'embedder changed; dropping vectors of the previous one');
        await this.dropTable(db, name);
      }
    }
  }

  /** A project is searched only when its folder exists (no table is made for a typo). */
  private exists(project: string): boolean {
    return SAFE_PROJECT.test(project) && (this.states.has(project) || existsSync(join(this.options.projectsDir, project)));
  }

  /**
   * A file watcher now reports every change under projects/ (true), or stopped or lost track
   * (false). While it does, a sync checks only the pages it named (`changed`) instead of listing
   * and stat-ing every page of the project before each search.
   */
  watching(on: boolean): void {
    this.watched = on;
    this.epoch++;
  }

  /**
   * The watcher saw these files change (relative to the project folder; `rescan`: list it all): indexes them, or,
   * for a project not opened yet, holds them until its first sync while they are small (held-changes.ts).
   */
  async changed(project: string, paths: readonly string[], rescan = false): Promise<SyncStats> {
    if (!this.exists(project)) return emptyStats();
    if (!this.states.has(project) && this.held.hold(project, paths)) return emptyStats();
    const state = await this.state(project);
    if (rescan) state.dirty = null;
    else for (const p of paths) if (isIndexedPage(p)) state.dirty?.add(p);
    return this.sync(project);
  }

  /** Brings one project's index in step with its pages. Cheap when nothing changed; free while watched and nothing was named. */
  sync(project: string): Promise<SyncStats> {
    if (!this.exists(project)) return Promise.resolve(emptyStats());
    const open = this.open.get(project);
    if (this.watched && open && open.listed === this.epoch && open.dirty?.size === 0) return Promise.resolve({ ...emptyStats(), projects: 1, pages: open.pages.size });
    return this.queues.run(project, async () => {
      try {
        return await this.syncNow(project);
      } catch (err) {
        // what the watcher named may be lost: list the project at the next sync
        const state = this.open.get(project);
        if (state) state.dirty = null;
        throw err;
      }
    });
  }

  async syncAll(): Promise<SyncStats> {
    const total = emptyStats();
    const started = performance.now();
    for (const project of await listProjects(this.options.projectsDir)) addStats(total, await this.sync(project));
    total.ms = performance.now() - started;
    return total;
  }

  /** Drops every table and rebuilds all projects from their pages. */
  async reindexAll(): Promise<SyncStats> {
    const db = await this.connection();
    await this.queues.idle();
    this.states.clear();
    this.open.clear();
    this.resident.clear();
    for (const name of await db.tableNames()) await this.dropTable(db, name);
    return this.syncAll();
  }

  private async syncNow(project: string): Promise<SyncStats> {
    const started = performance.now();
    const state = await this.state(project);
    const dir = join(this.options.projectsDir, project);
    const whole = !this.watched || state.dirty === null || state.listed !== this.epoch;
    const epoch = this.epoch;
    const named = whole ? [] : [...state.dirty!];
    state.dirty = new Set();
    let files: Map<string, PageFile>;
    try {
      files = whole ? listPageFiles(dir) : statPages(dir, named);
    } catch (err) {
      state.dirty = null;
      throw err;
    }
    const now = (this.options.now ?? Date.now)();
    const racy = this.options.racyMs ?? 2000;
    // pages whose size or mtime says they may have changed; read, chunked and written a batch at a time
    const candidates = [...files.values()].filter((f) => {
      const known = state.pages.get(f.page);
      return !(known && known.mtimeMs === f.mtimeMs && known.size === f.size && now - f.mtimeMs > racy);
    });
    candidates.sort((a, b) => a.page.localeCompare(b.page));
    const deleted = (whole ? [...state.pages.keys()] : named.filter((p) => state.pages.has(p))).filter((p) => !files.has(p));
    const stats: SyncStats = { ...emptyStats(), projects: 1, pages: whole ? files.size : state.pages.size, deleted: deleted.length };
    if (whole) state.listed = epoch;
    let touched = false;
    let removals = deleted;
    let batches = 0;
    const read = async (f: PageFile): Promise<ChangedPage | null> => {
      const content = await readFile(f.absolute, 'utf8').catch(() => null);
      if (content === null) return null;
      const hash = sha1(content);
      const known = state.pages.get(f.page);
      if (known && known.hash === hash) {
        if (known.mtimeMs !== f.mtimeMs || known.size !== f.size) {
          touched = true;
          state.pages.set(f.page, { hash, mtimeMs: f.mtimeMs, size: f.size });
          state.unsaved.add(f.page);
        }
        return null;
      }
      return { page: f.page, hash, mtimeMs: f.mtimeMs, size: f.size, chunks: chunkPage(f.page, content, { ...this.options.chunking, mtime: new Date(f.mtimeMs) }) };
    };
    const budget = this.options.writeBatchChunks ?? WRITE_BATCH_CHUNKS;
    /** Pages read ahead that did not fit the last batch. */
    const ready: ChangedPage[] = [];
    for (let i = 0; i < candidates.length || ready.length > 0 || removals.length > 0;) {
      // a bounded batch: at most `budget` chunks (or one page larger than that) in memory at once
      const batch: ChangedPage[] = [];
      let size = 0;
      for (;;) {
        if (ready.length === 0 && i < candidates.length) {
          const slice = readAhead(candidates, i, READ_AHEAD, READ_AHEAD_BYTES);
          i += slice.length;
          for (const c of await Promise.all(slice.map(read))) if (c) ready.push(c);
          continue;
        }
        const next = ready[0];
        if (!next || (batch.length > 0 && size + next.chunks.length > budget)) break;
        batch.push(ready.shift()!);
        size += next.chunks.length;
      }
      if (batch.length === 0 && removals.length === 0) break;
      // a build or large reindex: the in-memory keyword index is read again on the next keyword search instead of growing with it
      if (++batches === 2) state.table.dropKeywordIndex();
      const written = await this.writer.write(this.t, project, state, batch, removals);
      removals = [];
      stats.changed += batch.length;
      stats.chunks += written.chunks;
      stats.embedded += written.embedded;
    }
    if (batches === 0) {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set inside read(), which the narrowing cannot see
      if (touched) await saveWhenDue(state, (this.options.now ?? Date.now)(), batches > 1);
      stats.ms = performance.now() - started;
      return stats;
    }
    if (state.unoptimized >= OPTIMIZE_AFTER_ROWS) {
      await state.table.optimize();
      state.unoptimized = 0;
      await this.fitIndexCache(state.table.name, state.table);
    }
    await saveWhenDue(state, (this.options.now ?? Date.now)(), batches > 1);
    stats.ms = performance.now() - started;
    this.options.logger.debug({ project, ...stats }, 'index synced');
    return stats;
  }

  /** Vector, keyword and time-window candidates of one project (after `sync`, which recall runs first). */
  async search(project: string, query: SearchQuery): Promise<Candidates> {
    if (!this.exists(project)) return { vector: [], keyword: [], temporal: [] };
    const run = async () => {
      const state = await this.state(project);
      const { table } = state;
      const windows = query.windows ?? [];
      const started = performance.now();
      const timed = <T>(phase: string, pass: Promise<T>): Promise<T> => (query.phase ? pass.finally(() => query.phase?.(phase, performance.now() - started)) : pass);
      const [vector, keyword, temporal] = await Promise.all([
        query.vector ? timed('vector', table.vectorSearch(query.vector, query.limit, query.pagePrefix)) : Promise.resolve([]),
        timed('keyword', table.keywordSearch(query.terms, query.limit, query.contextBoost, query.pagePrefix)),
        windows.length > 0 ? timed('temporal', table.windowSearch(query.vector, windows, query.limit)) : Promise.resolve([]),
      ]);
      this.used(project, state);
      return { vector, keyword, temporal };
    };
    try {
      return await run();
    } catch (err) {
      this.options.logger.warn({ project, err: err }, 'search index failed; rebuilding this project from its pages');
      await this.rebuild(project);
      return run();
    }
  }

  /**
   * After a forget: brings the table in step, then compacts it and deletes its old versions, so
   * the forgotten text is no longer in any file under data/index (LanceDB keeps deleted rows in
   * older versions and data files until they are cleaned up).
   */
  purge(project: string): Promise<SyncStats> {
    if (!this.exists(project)) return Promise.resolve(emptyStats());
    return this.queues.run(project, async () => {
      const stats = await this.syncNow(project);
      const state = await this.state(project);
      // what was forgotten must not stay in an older version's files (a search overlapping this may fail once and retry)
      await state.table.optimize(0);
      state.unoptimized = 0;
      await this.fitIndexCache(state.table.name, state.table);
      return stats;
    });
  }

  /** Drops and rebuilds one project's table (used when it turns out to be unreadable). */
  async rebuild(project: string): Promise<SyncStats> {
    return this.queues.run(project, async () => {
      const db = await this.connection();
      const name = tableName(project, this.embedder.id);
      this.states.delete(project);
      this.open.delete(project);
      this.resident.forget(project);
      await this.dropTable(db, name);
      return this.syncNow(project);
    });
  }

  async close(): Promise<void> {
    await this.queues.idle();
    for (const state of this.open.values()) if (state.unsaved.size > 0 || state.journaled > 0) await saveWhole(state).catch(() => undefined);
    this.lance.close();
    this.resident.clear();
    this.states.clear();
    this.open.clear();
  }
}
