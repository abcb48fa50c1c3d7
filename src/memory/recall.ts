/**
 * Charlie's recall: the hybrid engine behind the `Recall` port. Without a watcher, every search
 * first runs a cheap incremental sync of the project (so a page changed before a turn is
 * searchable in that turn). While the projects/ watcher runs, it keeps the index current
 * instead — indexing only the files it saw change — and a search checks nothing first.
 */
import { join } from 'node:path';
import { systemClock, type Clock, type Embedder, type Logger, type Recall, type RecallHit, type RecallScope, type UsageStore } from '../core/ports/index.js';
import { DEFAULT_WEIGHTS, Fusion, type RecallWeights } from './index/fusion.js';
import { MemoryIndex } from './index/memory-index.js';
import { type Candidates, type SyncStats } from './index/search-query.js';
import { boundedSync, defaultSyncWait, type SyncWait } from './index/bounded-sync.js';
import { keyTerms, terms as termsOf } from './index/text.js';
import { classifyQuery, type QueryShape } from './index/query-kind.js';
import { watchProjects, type ProjectChanges } from './index/watcher.js';
import type { ChunkOptions } from './index/chunker.js';
import type { MemoryBudget } from './index/memory-budget.js';
import type { ResidentInfo } from './index/resident-set.js';
import type { Config } from '../config.js';
import { classifyText, isSensitive } from '../core/privacy/sensitivity.js';

export type RecallSettings = Pick<
  Config,
  | 'RECALL_VECTOR_WEIGHT'
  | 'RECALL_KEYWORD_WEIGHT'
  | 'RECALL_USAGE_WEIGHT'
  | 'RECALL_MIN_SIMILARITY'
  | 'RECALL_CONTEXT_WEIGHT'
  | 'RECALL_CONTEXT_MESSAGES'
  | 'RECALL_RECENCY_WEIGHT'
  | 'RECALL_ENTITY_WEIGHT'
  | 'RECALL_HOP_WEIGHT'
  | 'RECALL_CANDIDATES'
>;

/** Fusion weights and chunking from the settings, to spread into `createRecall`. */
export function recallSettings(config: RecallSettings): { weights: RecallWeights; chunking: { neighbours: number }; candidates: number } {
  return { weights: weightsFromConfig(config), chunking: { neighbours: config.RECALL_CONTEXT_MESSAGES }, candidates: config.RECALL_CANDIDATES };
}

function weightsFromConfig(config: RecallSettings): RecallWeights {
  return {
    ...DEFAULT_WEIGHTS,
    vector: config.RECALL_VECTOR_WEIGHT,
    keyword: config.RECALL_KEYWORD_WEIGHT,
    usage: config.RECALL_USAGE_WEIGHT,
    minSimilarity: config.RECALL_MIN_SIMILARITY,
    contextBoost: config.RECALL_CONTEXT_WEIGHT,
    recency: config.RECALL_RECENCY_WEIGHT,
    entity: config.RECALL_ENTITY_WEIGHT,
    hop: config.RECALL_HOP_WEIGHT,
  };
}

export interface RecallOptions {
  projectsDir: string;
  /** `data/`: the index lives in `data/index`. */
  dataDir: string;
  embedder: Embedder;
  usage: UsageStore;
  weights?: Partial<RecallWeights>;
  logger: Logger;
  clock?: Clock;
  chunking?: Omit<ChunkOptions, 'mtime'>;
  /** Keyword terms kept from a query. */
  maxTerms?: number;
  /** Candidates taken from each of the vector and keyword searches. */
  candidates?: number;
  /** Page → pages it links to (`notes/…` paths), for the entity-hop signal. */
  links?: (project: string) => Promise<ReadonlyMap<string, readonly string[]>>;
  /**
   * How long a search waits for the project's index to catch up before it answers from the index
   * as it is (a huge archive never indexed takes minutes; the turn must not wait for it). Tests
   * pass their own wait.
   */
  syncWait?: SyncWait;
  /** Benchmarks: hears how long each phase of a search took (embed, sync, vector, keyword, temporal, fuse), in ms. */
  phase?: PhaseListener;
  /** What the index may keep in memory (CHARLIE_MEMORY_BUDGET, memoryBudget()). */
  budget?: MemoryBudget;
  /** Told when the index's bulk native work freed memory (memory/index/native-heap.ts gives it back). */
  freed?: (reason: string) => void;
}

export type PhaseListener = (phase: string, ms: number) => void;

export interface RecallService {
  recall: HybridRecall;
  sync(project: string): Promise<SyncStats>;
  /** These files changed (the watcher's report; `rescan`: list the project): indexes just them. */
  changed(project: string, paths: readonly string[], rescan?: boolean): Promise<SyncStats>;
  /** Whether a watcher reports every change: while it does, a search checks no page first. */
  watching(on: boolean): void;
  syncAll(): Promise<SyncStats>;
  /** The projects whose search data is in memory, most recently searched first, and the budget they share. */
  resident(): { budget: MemoryBudget; projects: ResidentInfo[] };
  /** Lets go of the search data of projects not searched for the budget's idle time (the scheduler's `index-sweep` job); returns them. */
  letGoIdle(): string[];
  reindexAll(): Promise<SyncStats>;
  /** After a forget: the index follows and keeps no copy of what was forgotten in its files. */
  purge(project: string): Promise<SyncStats>;
  /**
   * Starts the file watcher: each batch of changed files is handed to `first` (the memory lane
   * labels hand-written lines before the index reads them: a hosted embedder never gets one it
   * names), indexed, then handed to `also`; `onTrust` hears when the watcher starts reporting every
   * change (true) and when it stops or lost track (false). Returns a function that stops it.
   */
  watch(also?: (changes: ProjectChanges) => Promise<unknown>, onTrust?: (trusted: boolean) => void, first?: (changes: ProjectChanges) => Promise<unknown>): () => Promise<void>;
  close(): Promise<void>;
}

export class HybridRecall implements Recall {
  private readonly weights: RecallWeights;

  constructor(
    private readonly index: MemoryIndex,
    private readonly options: Pick<RecallOptions, 'usage' | 'logger' | 'clock' | 'maxTerms' | 'candidates' | 'links' | 'syncWait' | 'phase'> & { weights?: Partial<RecallWeights> },
  ) {
    this.weights = effectiveWeights({ ...DEFAULT_WEIGHTS, ...options.weights }, index.embedder.semantic);
  }

  changed(project: string): Promise<unknown> {
    return this.index.changed(project, [], true);
  }

  async recall(query: string, scope: RecallScope): Promise<RecallHit[]> {
    const limit = Math.max(1, Math.min(scope.limit ?? 8, 100));
    const q = query.trim();
    if (!q) return [];
    const now = (this.options.clock ?? systemClock).now();
    const shape = classifyQuery(q, now);
    const found = await this.gather(q, shape, scope.project, limit, scope.notesOnly ? 'notes/' : undefined, scope.tainted === true);
    const fused = performance.now();
    const fusion = fuse(found, q, shape, this.weights);
    const hop = this.options.links && this.weights.hop > 0 ? this.options.links : null;
    const boosts = this.options.usage.boosts(scope.project, fusion.pages(), now);
    let hits = fusion.rank((page) => boosts.get(page) ?? 0, now, hop ? limit * 3 : limit);
    this.options.phase?.('fuse', performance.now() - fused);
    if (hop) {
      const links = await hop(scope.project).catch((err: unknown) => {
        this.options.logger.warn({ project: scope.project, err: err }, 'page links not read; searching without the entity hop');
        return new Map<string, readonly string[]>();
      });
      hits = liftLinked(hits, links, this.weights.hop, limit);
    }
    try {
      for (const page of new Set(hits.filter((h) => h.page.startsWith('notes/')).map((h) => h.page))) {
        this.options.usage.record(scope.project, page, 'retrieved', now);
      }
    } catch (err) {
      this.options.logger.warn({ err }, 'could not record note retrievals');
    }
    this.options.logger.debug({ project: scope.project, kind: shape.kind, windows: shape.windows.length, hits: hits.length }, 'recall');
    return hits;
  }

  /** What each pass finds for a question, once the project's index is up to date; fusion then merges them. */
  async gather(q: string, shape: QueryShape, project: string, limit: number, pagePrefix?: string, tainted = false): Promise<Candidates> {
    const terms = keyTerms(q, this.options.maxTerms ?? 32);
    const embedder = this.index.embedder;
    let vector: Float32Array | undefined;
    const embedding = performance.now();
    try {
      // a question the rules call sensitive, or asked by a tainted turn, is never sent to a hosted embedder: keywords answer it
      if (embedder.locality === 'hosted' && (tainted || isSensitive(classifyText(q)))) vector = undefined;
      else vector = embedder.embedQuery ? await embedder.embedQuery(q) : (await embedder.embed([q]))[0];
    } catch (err) {
      // the embedder is down: keyword search still answers
      this.options.logger.warn({ embedder: embedder.id, err: err }, 'query embedding failed; searching by keyword only');
    }
    const { phase } = this.options;
    phase?.('embed', performance.now() - embedding);
    const candidates = Math.max(this.options.candidates ?? 100, limit * 5);
    const search = {
      vector: vector ?? null,
      terms,
      limit: candidates,
      contextBoost: this.weights.contextBoost,
      windows: pagePrefix ? [] : shape.windows,
      ...(pagePrefix ? { pagePrefix } : {}),
      ...(phase ? { phase } : {}),
    };
    // search while the pages are checked for changes; when some changed, search the updated index again
    const early = this.index.search(project, search);
    early.catch(() => undefined);
    const checking = performance.now();
    const syncing = this.index
      .sync(project)
      .catch((err: unknown) => {
        this.options.logger.warn({ project, err }, 'index update failed; searching the index as it is');
        return null;
      })
      .finally(() => phase?.('sync', performance.now() - checking));
    const synced = await boundedSync(syncing, this.options.syncWait ?? defaultSyncWait);
    if (synced === 'late') this.options.logger.info({ project }, 'the index is still catching up; searching it as it is');
    return synced !== 'late' && synced && synced.changed + synced.deleted > 0 ? this.index.search(project, search) : early;
  }
}

/**
 * The weights used with an embedder: a lexical (hashing) vector is another, weaker keyword
 * signal, so keywords lead: the larger of the two weights goes to them (0.3 vector + 0.7 keyword
 * with the defaults; measured above an even split on both LoCoMo and BEAM dev, docs/retrieval.md).
 */
export function effectiveWeights(w: RecallWeights, semantic: boolean): RecallWeights {
  return semantic ? w : { ...w, vector: Math.min(w.vector, w.keyword), keyword: Math.max(w.vector, w.keyword) };
}

/** One question's candidates merged into one rank (scripts/tune-locomo.ts re-ranks saved candidates with it). */
export function fuse(found: Candidates, query: string, shape: QueryShape, weights: RecallWeights): Fusion {
  return new Fusion(found.vector, found.keyword, weights, new Set(termsOf(query)), shape, found.temporal);
}

/**
 * Entity hop: a note among the top hits lifts the hits of the pages it links to, by up to
 * `weight` (scaled by how well the linking note scored), labelled `hop:<page>` in their why.
 */
export function liftLinked(hits: RecallHit[], links: ReadonlyMap<string, readonly string[]>, weight: number, limit: number): RecallHit[] {
  const best = hits[0]?.score ?? 0;
  if (best <= 0 || links.size === 0) return hits.slice(0, limit);
  const lift = new Map<string, { by: string; amount: number }>();
  for (const h of hits.slice(0, limit)) {
    for (const target of links.get(h.page) ?? []) {
      if (target === h.page) continue;
      const amount = weight * (h.score / best);
      if (amount > (lift.get(target)?.amount ?? 0)) lift.set(target, { by: h.page, amount });
    }
  }
  if (lift.size === 0) return hits.slice(0, limit);
  const out = hits.map((h) => {
    const l = lift.get(h.page);
    if (!l) return h;
    return { ...h, score: h.score * (1 + l.amount), why: [...h.why, `hop:${l.by.replace(/^notes\//, '').replace(/\.md$/, '')}`] };
  });
  out.sort((a, b) => b.score - a.score || a.page.localeCompare(b.page) || a.lineStart - b.lineStart);
  return out.slice(0, limit);
}

export function createRecall(options: RecallOptions): RecallService {
  const index = new MemoryIndex({
    projectsDir: options.projectsDir,
    indexDir: join(options.dataDir, 'index'),
    embedder: options.embedder,
    logger: options.logger.child({ module: 'index' }),
    chunking: options.chunking,
    ...(options.budget ? { budget: options.budget } : {}),
    ...(options.freed ? { freed: options.freed } : {}),
    // a project's idle time is read on the app's clock (the index-sweep job runs on it too)
    ...(options.clock ? { now: () => options.clock!.now().getTime() } : {}),
  });
  const recall = new HybridRecall(index, options);
  const stops = new Set<() => Promise<void>>();
  return {
    recall,
    sync: (project) => index.sync(project),
    changed: (project, paths, rescan) => index.changed(project, paths, rescan),
    watching: (on) => index.watching(on),
    syncAll: () => index.syncAll(),
    resident: () => ({ budget: index.budget, projects: index.resident.list() }),
    letGoIdle: () => index.resident.sweep(),
    reindexAll: () => index.reindexAll(),
    purge: (project) => index.purge(project),
    watch(also, onTrust, first) {
      const stop = watchProjects(
        options.projectsDir,
        async (changes) => {
          await first?.(changes);
          await index.changed(changes.project, changes.paths, changes.rescan);
          await also?.(changes);
        },
        options.logger,
        {
          onTrust: (trusted) => {
            index.watching(trusted);
            onTrust?.(trusted);
          },
        },
      );
      stops.add(stop);
      return async () => {
        stops.delete(stop);
        await stop();
      };
    },
    async close() {
      await Promise.all([...stops].map((s) => s()));
      stops.clear();
      await index.close();
    },
  };
}
