/**
 * The knowledge graph of every project on disk (the KnowledgeGraph port), as a facade: the page
 * store (cache, lanes, the one compare-and-swap loop), link upkeep (renames, deletes, hand
 * edits) and the generated files (`_index.md`, `_log.md`, `review.md`) are their own modules;
 * this one plans writes, traverses links and reads records.
 */
import { z } from 'zod';
import type { Clock, GraphWrite, GraphWriteReport, KnowledgeGraph, LinkedPage, Logger, PageCard, PageLinks, PageMapEntry, PageMapRequest, RecordView } from '../../core/ports/index.js';
import { reviewEvents, reviewPairs, resolveOnPage, type ReviewChoice, type ReviewPair } from '../records/review.js';
import { editEvent, parseRecordEvents, recordLogLine, type RecordEvent } from '../records/history.js';
import { buildChains } from '../records/provenance.js';
import type { Provenance, RecordRef } from '../../core/records/provenance.js';
import { readIfExists } from '../../files/atomic-write.js';
import { parseFrontMatter } from '../markdown/front-matter.js';
import { resolveInside } from '../../files/safe-path.js';
import { GeneratedFiles, type LogEntry } from './generated.js';
import { applyToPage, DEFAULT_TAXONOMY, planWrite, type IsForgotten } from './graph-write.js';
import { LinkUpkeep } from './link-upkeep.js';
import { buildPageMap } from './page-map.js';
import { PageStore, type Mutation } from './page-store.js';
import { PageRemoval, type PageEdits } from './page-removal.js';
import { follow, linkMap, linkMapAfter, pageLinks } from './traversal.js';
import { readPage, type WikiPage } from './page.js';
import type { WikiSnapshot } from './wiki-pages.js';
import type { CuratedPages } from './graph-sides.js';
import { plainStatement, recordViews, withBody, withField, withStatementSettled } from './wiki-records.js';

export interface WikiOptions {
  projectsDir: string;
  clock: Clock;
  logger: Logger;
  /** The privacy layer's tombstone check: a forgotten item is never written again. */
  isForgotten?: IsForgotten;
}

const taxonomySchema = z.looseObject({ taxonomy: z.array(z.string().min(1)).min(1).optional() });

/** The page that holds record `id` (read without a copy of its lists: at 10,000 pages a turn's marks copied 11,000 arrays a record). */
const holding = (id: string) => (p: WikiPage) => p.facts.some((f) => f.blockId === id) || p.unsourced.some((f) => f.blockId === id);

export class Wiki implements KnowledgeGraph, CuratedPages {
  private readonly store: PageStore;
  private readonly files: GeneratedFiles;
  private readonly upkeep: LinkUpkeep;
  /** Deleting a page, or a line of one, for the project store's delete and forget. */
  readonly pages: PageEdits;
  /** linkMap per snapshot: recall asks for it on every search, the pages change far less often. */
  private readonly linkMaps = new WeakMap<WikiSnapshot, Map<string, string[]>>();
  /** Each project's last link map, to build the next one from after a hand edit (linkMapAfter). */
  private readonly lastLinks = new Map<string, { snap: WikiSnapshot; links: Map<string, string[]> }>();

  constructor(private readonly o: WikiOptions) {
    this.store = new PageStore(o.projectsDir);
    this.files = new GeneratedFiles(this.store, o.clock);
    this.upkeep = new LinkUpkeep(this.store, this.files, o.logger);
    this.pages = new PageRemoval(this.store, this.files, this.upkeep);
  }

  /** The projects folder this graph writes under. */
  get projectsDir(): string {
    return this.o.projectsDir;
  }

  notesDir(project: string): string {
    return this.store.notesDir(project);
  }

  /** The projects/ watcher is running (true) or stopped: while it runs, loads stop listing notes/ folders. */
  watching(on: boolean): void {
    this.store.watching(on);
  }

  /**
   * The watcher saw these files of a project change (paths relative to the project folder; `rescan`:
   * it lost track). True when a page changed in a way Charlie has not read yet, i.e. a reconcile is due.
   */
  filesChanged(project: string, paths: readonly string[], rescan = false): boolean {
    return this.store.filesChanged(project, paths, rescan);
  }

  /** Every page of a project (cached by file size and mtime). */
  load(project: string): Promise<WikiSnapshot> {
    return this.store.load(project);
  }

  /** Runs `fn` with no graph write of the project in between (reflection, restore); `fn` must not call `write`. */
  exclusive<T>(project: string, fn: () => Promise<T>): Promise<T> {
    return this.store.serial(project, fn);
  }

  /**
   * Changes one page through the page store's compare-and-swap loop (reflection, restore,
   * `memory check --fix`); call inside `exclusive`. The cache follows.
   */
  mutatePage<T extends { content: string }>(project: string, path: string, change: (current: string | null) => T | null): Promise<Mutation<T>> {
    return this.store.mutate(project, path, change);
  }

  /** A page was written outside `write` (reflection, restore): the next load reads it again. */
  pageWritten(project: string, path: string): void {
    this.store.invalidate(project, path);
  }

  async taxonomy(project: string): Promise<readonly string[]> {
    const text = await readIfExists(resolveInside(this.store.projectDir(project), 'project.md'));
    if (!text) return DEFAULT_TAXONOMY;
    const parsed = parseFrontMatter(text, taxonomySchema, `${project}/project.md`);
    return parsed.kind === 'ok' && parsed.data.taxonomy ? parsed.data.taxonomy.map((t) => t.trim().replace(/^\/+|\/+$/g, '')) : DEFAULT_TAXONOMY;
  }

  async pageMap(project: string, request: PageMapRequest): Promise<PageMapEntry[]> {
    const snap = await this.load(project);
    return buildPageMap(snap.pages, snap.resolver, request);
  }

  write(project: string, write: GraphWrite): Promise<GraphWriteReport> {
    return this.store.serial(project, async () => {
      const snap = await this.load(project);
      const dir = this.notesDir(project);
      this.store.forgetSnapshot(project);
      const { plans, report } = await planWrite(snap, write, {
        project,
        taxonomy: await this.taxonomy(project),
        ...(this.o.isForgotten ? { isForgotten: this.o.isForgotten } : {}),
        pageText: (path) => readIfExists(resolveInside(dir, path)),
      });
      const today = this.o.clock.now().toISOString().slice(0, 10);
      const logged: LogEntry[] = [];
      const events: Omit<RecordEvent, 'at'>[] = [];
      for (const plan of plans.values()) {
        let done;
        try {
          done = await this.store.mutate(project, plan.path, (current) => applyToPage(current, { ...plan, isNew: current === null }, today, (t) => snap.target(t)));
        } catch (err) {
          report.refused.push({ item: plan.path, reason: `left untouched: ${String(err instanceof Error ? err.message : err)}` });
          continue;
        }
        if (done.kind === 'conflict') report.refused.push({ item: plan.path, reason: 'the page kept changing while Charlie wrote it' });
        if (done.kind !== 'written') continue;
        const { result, created } = done;
        (created ? report.created : report.updated).push(plan.path);
        report.factsAdded += result.factsAdded;
        report.factsRefreshed += result.factsRefreshed;
        report.linksAdded += result.linksAdded;
        logged.push({ action: created ? 'created' : 'updated', path: plan.path, source: write.origin });
        events.push(...result.events.map((e) => (e.action === 'added' ? { ...e, detail: `by ${write.origin}; ${e.detail ?? ''}` } : e)));
      }
      // what was refused is memory text (a fact, a page's name): counted at info, shown only at debug, as docs/privacy.md promises
      if (report.refused.length) this.o.logger.info({ project, refused: report.refused.length }, 'graph items not written');
      for (const r of report.refused) this.o.logger.debug({ project, item: r.item, reason: r.reason }, 'graph item not written');
      if (logged.length) {
        await this.files.log(project, [...logged, ...events.map(recordLogLine)]);
        await this.files.regenerateIndex(project);
      }
      return report;
    });
  }

  async follow(project: string, start: string, options: { label?: string; depth: number }): Promise<{ start: PageCard; linked: LinkedPage[] } | null> {
    return follow(await this.load(project), start, options);
  }

  /** Page → pages it links to (paths relative to the project folder), for recall's entity hop; one map per snapshot. */
  async linkMap(project: string): Promise<Map<string, string[]>> {
    const snap = await this.load(project);
    let known = this.linkMaps.get(snap);
    if (!known) {
      const last = this.lastLinks.get(project);
      known = (last && linkMapAfter(last, snap)) ?? linkMap(snap);
      this.linkMaps.set(snap, known);
      this.lastLinks.set(project, { snap, links: known });
    }
    return known;
  }

  /** Charlie renames a page: the file moves and every link to it follows. */
  rename(project: string, from: string, to: string): Promise<void> {
    return this.store.serial(project, async () => {
      await this.upkeep.rename(project, from, to);
      await this.files.regenerateIndex(project);
    });
  }

  /**
   * After files changed on disk (the watcher): a page that disappeared while one with the same
   * title appeared was renamed, so links follow it; a page that disappeared is unlinked; the
   * index is regenerated.
   */
  reconcile(project: string, changed?: readonly string[]): Promise<void> {
    return this.store.serial(project, async () => {
      await this.upkeep.reconcile(project, changed);
      await this.files.regenerateIndex(project);
    });
  }

  /** The records `refs` name with their provenance chains (hand edits not yet logged are logged first). */
  provenance(project: string, refs: readonly RecordRef[]): Promise<Provenance> {
    return this.store.serial(project, async () => {
      const log = await this.upkeep.logHandEdits(project);
      const snap = await this.load(project);
      return buildChains(snap.pages, parseRecordEvents(log), refs, this.o.clock.now());
    });
  }

  /** Records the pages of every project as they are now, so the first hand rename after start is recognised, and brings their generated files in step. */
  primeAll(): Promise<void> {
    return this.upkeep.primeAll();
  }

  /** The pairs of records in review (see records/review.ts). */
  async reviewList(project: string): Promise<ReviewPair[]> {
    return reviewPairs((await this.load(project)).pages.values());
  }

  /** A person's choice about a record in review (or `hold`); false when no page has that record. */
  review(project: string, id: string, choice: ReviewChoice): Promise<boolean> {
    const today = this.o.clock.now().toISOString().slice(0, 10);
    return this.changePage(
      project,
      holding(id),
      (content, page) => resolveOnPage(content, page, id, choice, today),
      `review: ${choice} ${id}`,
      (page) => reviewEvents(page, id, choice),
    );
  }

  /** The pages and their `## Related` links (from the cached snapshot: fast at thousands of pages). */
  async pageLinks(project: string): Promise<PageLinks> {
    return pageLinks(await this.load(project));
  }

  /** Every typed record of the project's pages (or of `pages` only: a turn's reminders read a few, not thousands), decay read at `now`. */
  async records(project: string, now: Date, pages?: readonly string[]): Promise<RecordView[]> {
    const all = (await this.load(project)).pages;
    if (!pages) return recordViews(all.values(), now);
    return recordViews(
      pages.map((p) => all.get(p)).filter((p): p is WikiPage => p !== undefined),
      now,
    );
  }

  /** Notes on records that Charlie asked about them or mentioned their review, so it does not again. */
  async markRecords(project: string, ids: readonly string[], what: 'asked' | 'raised', date: string): Promise<void> {
    // an asked/raised note changes neither _index.md nor review.md: no regeneration on the turn's path
    for (const id of ids)
      await this.changePage(
        project,
        holding(id),
        (content) => withField(content, id, what, date),
        `${what}: ${id}`,
        () => [],
        false,
      );
  }

  /** A person rewrote record `id`'s statement (a hand edit: manual, confidence 1). */
  editRecord(project: string, id: string, statement: string): Promise<boolean> {
    const text = plainStatement(statement);
    return this.changePage(
      project,
      holding(id),
      (content, page) => withStatementSettled(content, page.path, id, text, this.o.clock.now().toISOString().slice(0, 10)),
      `manual: edited ${id}`,
      (page) => [editEvent(page.path, id, text)],
    );
  }

  /** A person rewrote a page's text (front matter kept; source manual, confidence 1). */
  editPage(project: string, path: string, body: string): Promise<boolean> {
    const rel = path.replace(/^notes\//, '');
    return this.changePage(
      project,
      (p) => p.path === rel,
      (content, page) => withBody(content, page, body, this.o.clock.now()),
      'manual: page text edited',
    );
  }

  /** Rewrites the first page `pick` chooses (null from `change` = no change), logged and re-indexed. */
  private changePage(
    project: string,
    pick: (p: WikiPage) => boolean,
    change: (content: string, page: WikiPage) => string | null,
    source: string,
    events: (page: WikiPage) => Omit<RecordEvent, 'at'>[] = () => [],
    regenerate = true,
  ): Promise<boolean> {
    return this.store.serial(project, async () => {
      let page: WikiPage | undefined;
      for (const p of (await this.load(project)).pages.values()) {
        if (!pick(p)) continue;
        page = p;
        break;
      }
      if (!page) return false;
      const done = await this.store.mutate(project, page.path, (current) => {
        const read = current === null ? null : readPage(current, page.path, page.path);
        const next = current !== null && read?.ok ? change(current, read.page) : null;
        return next === null || !read?.ok ? null : { content: next, page: read.page };
      });
      if (done.kind !== 'written') return false;
      await this.files.log(project, [{ action: 'updated', path: page.path, source }, ...events(done.result.page).map(recordLogLine)]);
      // read back at once, so the watcher's event for this write is known as Charlie's own
      if (regenerate) await this.files.regenerateIndex(project);
      else await this.load(project);
      return true;
    });
  }

  /** `_index.md` from the pages' front matter (and the project's `review.md`); written only when its bytes change. */
  regenerateIndex(project: string): Promise<boolean> {
    return this.files.regenerateIndex(project);
  }

  log(project: string, lines: LogEntry[]): Promise<void> {
    return this.files.log(project, lines);
  }

  /** The log's text (for the inbox's source records). */
  readLog(project: string): Promise<string> {
    return this.files.readLog(project);
  }
}
