/**
 * The knowledge graph of every project on disk (the KnowledgeGraph port): page map, writes
 * through entity resolution, two-way links, traversal, link upkeep when pages are renamed or
 * deleted (by Charlie or by hand while it runs), and `_index.md` / `_log.md`.
 */
import { appendFile, mkdir, readFile, readdir, rename as renameFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { Clock, GraphWrite, GraphWriteReport, KnowledgeGraph, LinkedPage, Logger, PageCard, PageLinks, PageMapEntry, PageMapRequest, RecordView } from '../../core/ports.js';
import { CharlieError } from '../../core/errors.js';
import { KeyedQueue } from '../../core/keyed-queue.js';
import { reviewEvents, reviewPairs, renderReview, resolveOnPage, type ReviewChoice, type ReviewPair } from '../records/review.js';
import { editEvent, parseRecordEvents, parseRenames, recordLogLine, type RecordEvent } from '../records/history.js';
import { buildChains, unloggedEdits } from '../records/provenance.js';
import type { Provenance, RecordRef } from '../../core/why.js';
import { formatLogLine, INDEX_FILE, LOG_FILE_NAME, LOG_HEADING, renderIndex, type LogAction } from '../notes/note-index.js';
import { ABSENT, fileVersion, readIfExists, sha256, writeFileAtomic } from '../store/atomic-write.js';
import { parseFrontMatter } from '../store/front-matter.js';
import { assertRealInside, resolveChild, resolveInside } from '../store/safe-path.js';
import { applyToPage, DEFAULT_TAXONOMY, planWrite, type IsForgotten } from './graph-write.js';
import { buildPageMap } from './page-map.js';
import { editLines } from './page-edit.js';
import { readPage, type WikiPage } from './page.js';
import { PageCache, type WikiSnapshot } from './wiki-pages.js';
import { plainStatement, recordViews, withBody, withField, withStatement } from './wiki-records.js';

export interface WikiOptions {
  projectsDir: string;
  clock: Clock;
  logger: Logger;
  /** The privacy layer's tombstone check: a forgotten item is never written again. */
  isForgotten?: IsForgotten;
}

const MAX_ATTEMPTS = 3;
const taxonomySchema = z.looseObject({ taxonomy: z.array(z.string().min(1)).min(1).optional() });

/** Generated at the project's root: the pairs of records in review. */
export const REVIEW_FILE = 'review.md';

const holding = (id: string) => (p: WikiPage) => p.facts.concat(p.unsourced).some((f) => f.blockId === id);

function card(p: WikiPage): PageCard {
  return {
    path: p.path,
    title: p.title,
    aliases: p.aliases,
    category: p.category,
    description: p.description,
    updated: p.updated,
    staleness: p.staleness,
    sensitivity: p.sensitivity,
    ...(p.discordId ? { discordId: p.discordId } : {}),
  };
}

export class Wiki implements KnowledgeGraph {
  private readonly caches = new Map<string, PageCache>();
  private readonly lanes = new KeyedQueue();
  /** Last pages seen per project, to tell a hand rename or delete from a new page. */
  private readonly known = new Map<string, Map<string, string>>();
  /** A file watcher reports every change under projects/: loads re-read only what it named. */
  private watched = false;
  /** linkMap per snapshot: recall asks for it on every search, the pages change far less often. */
  private readonly linkMaps = new WeakMap<WikiSnapshot, Map<string, string[]>>();

  constructor(private readonly o: WikiOptions) {}

  notesDir(project: string): string {
    return resolveInside(resolveChild(this.o.projectsDir, project), 'notes');
  }

  private cache(project: string): PageCache {
    let c = this.caches.get(project);
    if (!c) this.caches.set(project, (c = new PageCache(this.notesDir(project), `${project}/notes/`, this.watched)));
    return c;
  }

  /** The projects/ watcher is running (true) or stopped: while it runs, loads stop listing notes/ folders. */
  watching(on: boolean): void {
    this.watched = on;
    for (const c of this.caches.values()) c.watch(on);
  }

  /**
   * The watcher saw these files of a project change (paths relative to the project folder; `rescan`:
   * it lost track). True when a page changed in a way Charlie has not read yet, i.e. a reconcile is due.
   */
  filesChanged(project: string, paths: readonly string[], rescan = false): boolean {
    const cache = this.cache(project);
    if (rescan) {
      cache.rescan();
      return true;
    }
    let any = false;
    for (const p of paths) if (p.startsWith('notes/') && cache.changed(p.slice('notes/'.length))) any = true;
    return any;
  }

  /** Every page of a project (cached by file size and mtime). */
  async load(project: string): Promise<WikiSnapshot> {
    await assertRealInside(this.o.projectsDir, this.notesDir(project));
    return this.cache(project).load();
  }

  private serial<T>(project: string, fn: () => Promise<T>): Promise<T> {
    return this.lanes.run(project, fn);
  }

  /** Runs `fn` with no graph write of the project in between (reflection, restore); `fn` must not call `write`. */
  exclusive<T>(project: string, fn: () => Promise<T>): Promise<T> {
    return this.serial(project, fn);
  }

  /** A page was written outside `write` (reflection, restore): the next load reads it again. */
  pageWritten(project: string, path: string): void {
    this.cache(project).invalidate(path);
  }

  async taxonomy(project: string): Promise<readonly string[]> {
    const text = await readIfExists(resolveInside(resolveChild(this.o.projectsDir, project), 'project.md'));
    if (!text) return DEFAULT_TAXONOMY;
    const parsed = parseFrontMatter(text, taxonomySchema, `${project}/project.md`);
    return parsed.kind === 'ok' && parsed.data.taxonomy ? parsed.data.taxonomy.map((t) => t.trim().replace(/^\/+|\/+$/g, '')) : DEFAULT_TAXONOMY;
  }

  async pageMap(project: string, request: PageMapRequest): Promise<PageMapEntry[]> {
    const snap = await this.load(project);
    return buildPageMap(snap.pages, snap.resolver, request);
  }

  write(project: string, write: GraphWrite): Promise<GraphWriteReport> {
    return this.serial(project, async () => {
      const snap = await this.load(project);
      const dir = this.notesDir(project);
      // planning adds new pages to the snapshot's resolver: the next load builds a fresh one
      this.cache(project).forgetSnapshot();
      const { plans, report } = await planWrite(snap, write, {
        project,
        taxonomy: await this.taxonomy(project),
        ...(this.o.isForgotten ? { isForgotten: this.o.isForgotten } : {}),
        pageText: (path) => readIfExists(resolveInside(dir, path)),
      });
      const now = this.o.clock.now();
      const today = now.toISOString().slice(0, 10);
      const changes: [string, string][] = [];
      const events: Omit<RecordEvent, 'at'>[] = [];
      for (const plan of plans.values()) {
        const full = resolveInside(dir, plan.path);
        let done = false;
        for (let attempt = 1; attempt <= MAX_ATTEMPTS && !done; attempt++) {
          const current = await readIfExists(full);
          let result;
          try {
            result = applyToPage(current, { ...plan, isNew: current === null }, today, (t) => snap.target(t));
          } catch (err) {
            report.refused.push({ item: plan.path, reason: `left untouched: ${String(err instanceof Error ? err.message : err)}` });
            done = true;
            break;
          }
          if (!result) {
            done = true;
            break;
          }
          await mkdir(dirname(full), { recursive: true });
          const written = await writeFileAtomic(full, result.content, current === null ? ABSENT : sha256(current));
          if (!written.ok) continue;
          done = true;
          this.cache(project).invalidate(plan.path);
          (current === null ? report.created : report.updated).push(plan.path);
          report.factsAdded += result.factsAdded;
          report.factsRefreshed += result.factsRefreshed;
          report.linksAdded += result.linksAdded;
          changes.push([current === null ? 'created' : 'updated', plan.path]);
          events.push(...result.events.map((e) => (e.action === 'added' ? { ...e, detail: `by ${write.origin}; ${e.detail ?? ''}` } : e)));
        }
        if (!done) report.refused.push({ item: plan.path, reason: 'the page kept changing while Charlie wrote it' });
      }
      for (const r of report.refused) this.o.logger.info({ project, item: r.item, reason: r.reason }, 'graph item not written');
      if (changes.length) {
        await this.log(project, [...changes.map(([action, path]) => ({ action: action as LogAction, path, source: write.origin })), ...events.map(recordLogLine)]);
        await this.regenerateIndex(project);
      }
      return report;
    });
  }

  async follow(project: string, start: string, options: { label?: string; depth: number }): Promise<{ start: PageCard; linked: LinkedPage[] } | null> {
    const snap = await this.load(project);
    const first = snap.target(start) ?? snap.resolver.resolve(start);
    const page = first ? snap.pages.get(first) : undefined;
    if (!page) return null;
    const depth = Math.max(1, Math.min(2, Math.floor(options.depth)));
    const label = options.label?.trim().toLowerCase();
    const linked: LinkedPage[] = [];
    const seen = new Set([page.path]);
    let frontier = [page];
    for (let d = 1; d <= depth; d++) {
      const next: WikiPage[] = [];
      for (const from of frontier) {
        for (const l of from.links) {
          if (d === 1 && label && !l.label.toLowerCase().includes(label)) continue;
          const path = snap.target(l.target);
          const to = path ? snap.pages.get(path) : undefined;
          if (!to || seen.has(to.path)) continue;
          seen.add(to.path);
          linked.push({ ...card(to), label: l.label, from: from.path, depth: d });
          next.push(to);
        }
      }
      frontier = next;
    }
    return { start: card(page), linked };
  }

  /** Page → pages it links to (paths relative to the project folder), for recall's entity hop. */
  async linkMap(project: string): Promise<Map<string, string[]>> {
    const snap = await this.load(project);
    const known = this.linkMaps.get(snap);
    if (known) return known;
    const out = new Map<string, string[]>();
    for (const p of snap.pages.values()) {
      const targets = p.links.map((l) => snap.target(l.target)).filter((t): t is string => t !== null);
      if (targets.length)
        out.set(
          `notes/${p.path}`,
          targets.map((t) => `notes/${t}`),
        );
    }
    this.linkMaps.set(snap, out);
    return out;
  }

  /** Charlie renames a page: the file moves and every link to it follows. */
  rename(project: string, from: string, to: string): Promise<void> {
    return this.serial(project, async () => {
      const dir = this.notesDir(project);
      const src = resolveInside(dir, from);
      const dst = resolveInside(dir, to);
      if ((await fileVersion(dst)) !== ABSENT) throw new CharlieError(`${project}/notes/${to} already exists`);
      await stat(src);
      await mkdir(dirname(dst), { recursive: true });
      await renameFile(src, dst);
      const known = this.known.get(project);
      const title = known?.get(from);
      if (known && title !== undefined) {
        known.delete(from);
        known.set(to, title);
      }
      await this.retarget(project, new Map([[from, to]]), new Set());
      await this.log(project, [{ action: 'renamed', path: `${from} → ${to}` }]);
      await this.regenerateIndex(project);
    });
  }

  /** After a page was deleted (by Charlie or by hand): links to it are removed. */
  removeLinksTo(project: string, path: string): Promise<void> {
    return this.serial(project, async () => {
      this.known.get(project)?.delete(path); // not a hand delete: the watcher need not report it again
      await this.retarget(project, new Map(), new Set([path]));
      await this.regenerateIndex(project);
    });
  }

  /**
   * Rewrites links on every page: targets in `moved` point to their new path, targets in
   * `gone` are dropped. Pages that do not parse are left alone.
   */
  private async retarget(project: string, moved: ReadonlyMap<string, string>, gone: ReadonlySet<string>): Promise<number> {
    const dir = this.notesDir(project);
    const snap = await this.load(project);
    const bare = (p: string) => p.replace(/\.md$/i, '').toLowerCase();
    const movedBare = new Map([...moved].map(([a, b]) => [bare(a), b]));
    const goneBare = new Set([...gone].map(bare));
    const baseOf = (p: string) => (p.split('/').pop() ?? p).toLowerCase();
    const matches = (target: string, set: Iterable<string>) => {
      const t = bare(target);
      for (const s of set) if (t === s || (!t.includes('/') && baseOf(s) === t)) return s;
      return null;
    };
    let changed = 0;
    for (const page of snap.pages.values()) {
      if (!page.links.some((l) => !snap.target(l.target) && (matches(l.target, movedBare.keys()) || matches(l.target, goneBare)))) continue;
      const full = resolveInside(dir, page.path);
      const content = await readIfExists(full);
      if (content === null) continue;
      const fresh = readPage(content, page.path, page.path);
      if (!fresh.ok) continue;
      const lines = content.split('\n');
      const edits = new Map<number, string | null>();
      for (const l of fresh.page.links) {
        if (snap.target(l.target)) continue; // still resolves: leave it
        const m = matches(l.target, movedBare.keys());
        const to = m ? movedBare.get(m) : undefined;
        if (to) edits.set(l.line, lines[l.line - 1]!.replace(/\[\[[^\]|#]+/, `[[${to.replace(/\.md$/i, '')}`));
        else if (matches(l.target, goneBare)) edits.set(l.line, null);
      }
      if (edits.size && (await writeFileAtomic(full, editLines(content, edits), sha256(content))).ok) {
        this.cache(project).invalidate(page.path);
        changed++;
      }
    }
    return changed;
  }

  /**
   * After files changed on disk (the watcher): a page that disappeared while one with the same
   * title appeared was renamed, so links follow it; a page that disappeared is unlinked; the
   * index is regenerated.
   */
  reconcile(project: string, changed?: readonly string[]): Promise<void> {
    return this.serial(project, async () => {
      const snap = await this.load(project);
      const now = new Map([...snap.pages.values()].map((p) => [p.path, p.title.toLowerCase()]));
      const before = this.known.get(project);
      this.known.set(project, now);
      if (before) {
        const gone = [...before].filter(([p]) => !now.has(p));
        const added = [...now].filter(([p]) => !before.has(p));
        const moved = new Map<string, string>();
        const deleted = new Set<string>();
        for (const [path, title] of gone) {
          const twin = added.filter(([, t]) => t === title);
          if (twin.length === 1) moved.set(path, twin[0]![0]);
          else deleted.add(path);
        }
        if (moved.size || deleted.size) {
          await this.retarget(project, moved, deleted);
          await this.log(project, [
            ...[...moved].map(([a, b]) => ({ action: 'renamed' as const, path: `${a} → ${b}`, source: 'hand edit' })),
            ...[...deleted].map((p) => ({ action: 'deleted' as const, path: p, source: 'hand edit' })),
          ]);
        }
      }
      // the watcher names the pages that changed: only they can hold new hand edits
      await this.logHandEdits(project, changed && [...changed, ...now.keys()].filter((p) => !before?.has(p) || changed.includes(p)));
      await this.regenerateIndex(project);
    });
  }

  /** Hand edits of records not in the log yet get their `edited` line (dated when noticed); `only`: of these pages. */
  private async logHandEdits(project: string, only?: readonly string[]): Promise<string> {
    const snap = await this.load(project);
    const log = await this.readLog(project);
    const pages = only ? [...new Set(only)].map((p) => snap.pages.get(p)).filter((p): p is WikiPage => p !== undefined) : snap.pages.values();
    const edits = unloggedEdits(pages, parseRecordEvents(log), parseRenames(log));
    if (edits.length === 0) return log;
    await this.log(project, edits.map(recordLogLine));
    return this.readLog(project);
  }

  /** The records `refs` name with their provenance chains (hand edits not yet logged are logged first). */
  provenance(project: string, refs: readonly RecordRef[]): Promise<Provenance> {
    return this.serial(project, async () => {
      const log = await this.logHandEdits(project);
      const snap = await this.load(project);
      return buildChains(snap.pages, parseRecordEvents(log), refs, this.o.clock.now());
    });
  }

  /** Records the pages of every project as they are now, so the first hand rename after start is recognised. */
  async primeAll(): Promise<void> {
    const dirs = await readdir(this.o.projectsDir, { withFileTypes: true }).catch(() => []);
    for (const d of dirs) {
      if (!d.isDirectory() || d.name.startsWith('.')) continue;
      try {
        const snap = await this.load(d.name);
        if (!this.known.has(d.name)) this.known.set(d.name, new Map([...snap.pages.values()].map((p) => [p.path, p.title.toLowerCase()])));
      } catch (err) {
        this.o.logger.warn({ project: d.name, err: String(err) }, 'could not read the pages of a project');
      }
    }
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
    const snap = await this.load(project);
    const pages = [...snap.pages.values()];
    return {
      pages: pages.map((p) => ({ path: p.path, title: p.title, category: p.category })),
      links: pages.flatMap((p) => p.links.map((l) => ({ from: p.path, to: snap.target(l.target), target: l.target, label: l.label }))),
    };
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
      (content) => withStatement(content, id, text),
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
    return this.serial(project, async () => {
      const snap = await this.load(project);
      const page = [...snap.pages.values()].find(pick);
      if (!page) return false;
      const full = resolveInside(this.notesDir(project), page.path);
      const current = await readIfExists(full);
      const read = current === null ? null : readPage(current, page.path, page.path);
      const next = current !== null && read?.ok ? change(current, read.page) : null;
      if (current === null || next === null || !read?.ok || !(await writeFileAtomic(full, next, sha256(current))).ok) return false;
      this.cache(project).invalidate(page.path);
      await this.log(project, [{ action: 'updated', path: page.path, source }, ...events(read.page).map(recordLogLine)]);
      // read back at once, so the watcher's event for this write is known as Charlie's own
      if (regenerate) await this.regenerateIndex(project);
      else await this.load(project);
      return true;
    });
  }

  /** `_index.md` from the pages' front matter (and the project's `review.md`); written only when its bytes change. */
  async regenerateIndex(project: string): Promise<boolean> {
    const snap = await this.load(project);
    const pairs = reviewPairs(snap.pages.values());
    const reviewFile = resolveInside(resolveChild(this.o.projectsDir, project), REVIEW_FILE);
    const reviewText = renderReview(pairs);
    const hadReview = (await fileVersion(reviewFile)) !== ABSENT;
    if ((pairs.length > 0 || hadReview) && (await fileVersion(reviewFile)) !== sha256(reviewText)) await writeFileAtomic(reviewFile, reviewText);
    const notes = [...snap.pages.values()].map((p) => ({ path: p.path, title: p.title, tags: p.tags, updated: p.updated }));
    const text = renderIndex(notes, snap.problems);
    const full = resolveInside(this.notesDir(project), INDEX_FILE);
    if ((await fileVersion(full)) === sha256(text)) return false;
    await mkdir(dirname(full), { recursive: true });
    await writeFileAtomic(full, text);
    return true;
  }

  async log(project: string, lines: { action: LogAction; path: string; source?: string; detail?: string }[]): Promise<void> {
    if (!lines.length) return;
    const full = resolveInside(this.notesDir(project), LOG_FILE_NAME);
    await mkdir(dirname(full), { recursive: true });
    const exists = (await fileVersion(full)) !== ABSENT;
    const now = this.o.clock.now().toISOString();
    const text = lines.map((l) => formatLogLine({ time: now, ...l })).join('');
    await appendFile(full, (exists ? '' : LOG_HEADING) + text, 'utf8');
  }

  /** The log's text (for the inbox's source records). */
  async readLog(project: string): Promise<string> {
    return await readFile(resolveInside(this.notesDir(project), LOG_FILE_NAME), 'utf8').catch(() => '');
  }
}
