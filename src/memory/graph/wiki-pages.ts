/**
 * Reads every page of a project's notes/ folder, re-reading only files whose size or mtime
 * changed since the last load (the cache lives in the instance, one per notes folder).
 */
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FileProblem } from '../../core/ports/index.js';
import { INDEX_FILE, LOG_FILE_NAME } from '../notes/note-index.js';
import { entriesIfExists } from '../../files/atomic-write.js';
import { folderOf, readPage, type WikiPage } from './page.js';
import { titleFromPath } from '../../util/one-line.js';
import { EntityResolver } from './resolver.js';
import { PageKeeper } from './kept-page.js';
import { ownString } from '../../util/own-string.js';

export interface WikiSnapshot {
  pages: ReadonlyMap<string, WikiPage>;
  problems: FileProblem[];
  /** Files whose front matter does not parse (relative to notes/): never written. */
  broken: Set<string>;
  resolver: EntityResolver;
  /** Resolves a `[[link]]` target to a page path (exact path, any case, then a unique file name). */
  target: (link: string) => string | null;
  /** Tells this snapshot from others of the process. */
  serial: number;
  /** Set when this snapshot is the one numbered `of` with `paths` read again under the same names (the rest is the same objects). */
  patch?: { of: number; paths: readonly string[] };
}

let serials = 0;

interface Cached {
  mtimeMs: number;
  size: number;
  read: ReturnType<typeof readPage>;
}

/** A Markdown page of notes/ (relative path): no dotfiles, not the generated index or log. */
function isNotePath(rel: string): boolean {
  return /\.md$/i.test(rel) && !rel.split('/').some((s) => s.startsWith('.') || s === '') && rel !== INDEX_FILE && rel !== LOG_FILE_NAME;
}

/** Note files under `notesDir`, relative, sorted (no dotfiles, no generated files, no symlinks). */
export async function noteFiles(notesDir: string): Promise<string[]> {
  const entries = await entriesIfExists(notesDir, { recursive: true });
  const out: string[] = [];
  for (const e of entries) {
    if (!e.isFile()) continue;
    const rel = join(e.parentPath, e.name)
      .slice(notesDir.length + 1)
      .split('\\')
      .join('/');
    if (isNotePath(rel)) out.push(rel);
  }
  return out.sort();
}

/**
 * Pages are stat'ed and read synchronously: for thousands of small files that is several times
 * faster than one promise per file (no thread-pool round trip), and a load of 5,000 pages stays
 * well under the second the page map may take.
 *
 * While a file watcher reports every change under notes/ (`watched`), a load lists nothing: it
 * re-reads only the files named since the last one (by the watcher or by Charlie's own writes),
 * so a turn's page map costs the same at 10,000 pages as at 10.
 */
export class PageCache {
  private readonly cache = new Map<string, Cached>();
  /** Cached pages pin no text they were parsed from and share their repeated strings (kept-page.ts). */
  private readonly keeper = new PageKeeper();
  /** The last snapshot, reused while no file changed (the resolver is not rebuilt). */
  private last: { key: string; snap: WikiSnapshot } | null = null;
  private generation = 0;
  /** Files named since the last load; null: the folder is listed again (not watched, or the watcher asked for it). */
  private dirty: Set<string> | null = null;
  /** Files read again or dropped since the last snapshot was built. */
  private readonly touched = new Set<string>();

  constructor(
    private readonly notesDir: string,
    private readonly shownPrefix: string,
    private watched = false,
  ) {}

  /** A watcher now reports changes (true), or stopped (false); either way the next load lists the folder once. */
  watch(on: boolean): void {
    this.watched = on;
    this.dirty = null;
  }

  /**
   * A watcher saw `rel` (relative to notes/) change: re-read at the next load. True when it is a
   * page whose file differs from what the cache holds (Charlie's own writes, already read back, are not).
   */
  changed(rel: string): boolean {
    if (!isNotePath(rel)) return false;
    const s = lstatSync(join(this.notesDir, rel), { throwIfNoEntry: false });
    const c = this.cache.get(rel);
    if (s && c && s.isFile() && c.mtimeMs === s.mtimeMs && c.size === s.size) return false;
    if (!s && !c) return false;
    this.dirty?.add(rel);
    return true;
  }

  /** The watcher lost track (a folder moved, an error): the next load lists the folder. */
  rescan(): void {
    this.dirty = null;
  }

  async load(): Promise<WikiSnapshot> {
    if (!this.watched || this.dirty === null) {
      this.dirty = new Set();
      const files = await noteFiles(this.notesDir);
      const keep = new Set(files);
      for (const k of this.cache.keys()) {
        if (!keep.has(k)) {
          this.cache.delete(k);
          this.generation++;
          this.touched.add(k);
        }
      }
      for (const rel of files) this.refresh(rel);
    } else if (this.dirty.size > 0) {
      const named = [...this.dirty];
      this.dirty.clear();
      // a symlink or a folder never counts as a page (as when listing)
      for (const rel of named) this.refresh(rel, lstatSync(join(this.notesDir, rel), { throwIfNoEntry: false })?.isFile() === true);
    }
    const key = `${this.generation}:${this.cache.size}`;
    if (this.last?.key === key) {
      this.touched.clear();
      return this.last.snap;
    }
    const patched = this.last ? this.patched(this.last.snap) : null;
    this.touched.clear();
    if (patched) {
      this.last = { key, snap: patched };
      return patched;
    }
    const files = [...this.cache.keys()].sort();
    const pages = new Map<string, WikiPage>();
    const problems: FileProblem[] = [];
    const broken = new Set<string>();
    for (const rel of files) {
      const c = this.cache.get(rel);
      if (!c) continue;
      if (c.read.ok) pages.set(rel, c.read.page);
      else {
        problems.push(c.read.problem);
        broken.add(rel);
      }
    }
    const snap = snapshot(pages, problems, broken);
    this.last = { key, snap };
    return snap;
  }

  /**
   * The last snapshot with the pages read again swapped in, when none of them came, went, broke or
   * changed its name (title, aliases, category, Discord id): the resolver and link targets hold,
   * so a record added to one page of 10,000 does not rebuild them. Null when they must be rebuilt.
   */
  private patched(prev: WikiSnapshot): WikiSnapshot | null {
    if (this.touched.size > 64) return null;
    const swapped = new Map<string, WikiPage>();
    for (const rel of this.touched) {
      const before = prev.pages.get(rel);
      const now = this.cache.get(rel)?.read;
      if (!before || !now?.ok || !sameName(before, now.page)) return null;
      swapped.set(rel, now.page);
    }
    return { ...prev, pages: PatchedPages.over(prev.pages, swapped), serial: ++serials, patch: { of: prev.serial, paths: [...this.touched] } };
  }

  /** Drops the reused snapshot (a write planned on it added pages to its resolver). */
  forgetSnapshot(): void {
    this.last = null;
  }

  /** Forgets a file so the next load reads it again (after Charlie wrote it). */
  invalidate(rel: string): void {
    if (this.cache.delete(rel)) this.generation++;
    this.touched.add(rel);
    if (isNotePath(rel)) this.dirty?.add(rel);
  }

  private refresh(rel: string, isFile = true): void {
    const full = join(this.notesDir, rel);
    const s = isFile ? statSync(full, { throwIfNoEntry: false }) : undefined;
    if (!s && this.cache.delete(rel)) this.generation++;
    const c = this.cache.get(rel);
    if (s && c && c.mtimeMs === s.mtimeMs && c.size === s.size) return;
    this.generation++;
    this.touched.add(rel);
    let content: string | null;
    try {
      content = s ? readFileSync(full, 'utf8') : null;
    } catch {
      content = null;
    }
    if (!s || content === null) {
      this.cache.delete(rel);
      return;
    }
    // one copy of the path, the cache's key and the page's path: `rel` may be a cut of a longer
    // string (the folder's full path as listed), which a key would keep alive (own-string.ts)
    const own = ownString(rel);
    this.cache.set(own, { mtimeMs: s.mtimeMs, size: s.size, read: this.keeper.keep(readPage(content, own, this.shownPrefix + own), own) });
  }
}

/**
 * A snapshot's pages as the last full map's with some pages read again: a hand edit of one page
 * of 10,000 swaps that page in without copying the map (a copy of every entry at every edit). The
 * keys and their order are the full map's; the pages swapped since it are kept beside it, and the
 * map is copied once they pass SWAPPED_BOUND (so a copy every so many edits, not every one).
 */
class PatchedPages implements ReadonlyMap<string, WikiPage> {
  private constructor(
    private readonly base: ReadonlyMap<string, WikiPage>,
    private readonly swapped: ReadonlyMap<string, WikiPage>,
  ) {}

  static over(pages: ReadonlyMap<string, WikiPage>, swapped: ReadonlyMap<string, WikiPage>): ReadonlyMap<string, WikiPage> {
    const [base, before] = pages instanceof PatchedPages ? [pages.base, pages.swapped] : [pages, new Map<string, WikiPage>()];
    const all = new Map([...before, ...swapped]);
    if (all.size <= SWAPPED_BOUND) return new PatchedPages(base, all);
    return new Map([...base].map(([k, v]) => [k, all.get(k) ?? v]));
  }

  get size(): number {
    return this.base.size;
  }

  get(key: string): WikiPage | undefined {
    return this.swapped.get(key) ?? this.base.get(key);
  }

  has(key: string): boolean {
    return this.base.has(key);
  }

  keys(): MapIterator<string> {
    return this.base.keys();
  }

  *entries(): MapIterator<[string, WikiPage]> {
    for (const [k, v] of this.base) yield [k, this.swapped.get(k) ?? v];
  }

  *values(): MapIterator<WikiPage> {
    for (const [k, v] of this.base) yield this.swapped.get(k) ?? v;
  }

  forEach(fn: (value: WikiPage, key: string, map: ReadonlyMap<string, WikiPage>) => void, self?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(self, v, k, this);
  }

  [Symbol.iterator](): MapIterator<[string, WikiPage]> {
    return this.entries();
  }
}

/** Pages swapped beside a full map before it is copied (PatchedPages). */
const SWAPPED_BOUND = 256;

/** Whether two reads of a page resolve the same names (what the resolver and link targets are built from). */
function sameName(a: WikiPage, b: WikiPage): boolean {
  return a.title === b.title && a.category === b.category && a.discordId === b.discordId && a.aliases.length === b.aliases.length && a.aliases.every((x, i) => x === b.aliases[i]);
}

export function snapshot(pages: Map<string, WikiPage>, problems: FileProblem[], broken = new Set<string>()): WikiSnapshot {
  const resolver = new EntityResolver(pages.values());
  // a page that cannot be read still owns its name: nothing else is created in its place
  for (const path of broken) resolver.add({ path, title: titleFromPath(path), aliases: [], category: folderOf(path) });
  const lower = new Map<string, string>();
  // a file name most often names one page: its path, not an array of one (kept for every page)
  const byName = new Map<string, string | string[]>();
  for (const path of pages.keys()) {
    const bare = path.replace(/\.md$/i, '');
    lower.set(bare.toLowerCase(), path);
    const base = (bare.split('/').pop() ?? bare).toLowerCase();
    const known = byName.get(base);
    if (known === undefined) byName.set(base, path);
    else if (typeof known === 'string') byName.set(base, [known, path]);
    else known.push(path);
  }
  return {
    pages,
    problems,
    broken,
    resolver,
    serial: ++serials,
    target(link) {
      const bare = link
        .trim()
        .replace(/^notes\//, '')
        .replace(/\.md$/i, '');
      const exact = lower.get(bare.toLowerCase());
      if (exact) return exact;
      if (bare.includes('/')) return null;
      const named = byName.get(bare.toLowerCase());
      return typeof named === 'string' ? named : null;
    },
  };
}
