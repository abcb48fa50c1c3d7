/**
 * Reads every page of a project's notes/ folder, re-reading only files whose size or mtime
 * changed since the last load (the cache lives in the instance, one per notes folder).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FileProblem } from '../../core/ports.js';
import { INDEX_FILE, LOG_FILE_NAME } from '../notes/note-index.js';
import { entriesIfExists } from '../store/atomic-write.js';
import { folderOf, readPage, titleFromPath, type WikiPage } from './page.js';
import { EntityResolver } from './resolver.js';

export interface WikiSnapshot {
  pages: Map<string, WikiPage>;
  problems: FileProblem[];
  /** Files whose front matter does not parse (relative to notes/): never written. */
  broken: Set<string>;
  resolver: EntityResolver;
  /** Resolves a `[[link]]` target to a page path (exact path, any case, then a unique file name). */
  target(link: string): string | null;
}

interface Cached {
  mtimeMs: number;
  size: number;
  read: ReturnType<typeof readPage>;
}

/** Note files under `notesDir`, relative, sorted (no dotfiles, no generated files, no symlinks). */
export async function noteFiles(notesDir: string): Promise<string[]> {
  const entries = await entriesIfExists(notesDir, { recursive: true });
  const out: string[] = [];
  for (const e of entries) {
    if (!e.isFile() || !/\.md$/i.test(e.name)) continue;
    const rel = join(e.parentPath, e.name)
      .slice(notesDir.length + 1)
      .split('\\')
      .join('/');
    if (rel.split('/').some((s) => s.startsWith('.')) || rel === INDEX_FILE || rel === LOG_FILE_NAME) continue;
    out.push(rel);
  }
  return out.sort();
}

/**
 * Pages are stat'ed and read synchronously: for thousands of small files that is several times
 * faster than one promise per file (no thread-pool round trip), and a load of 5,000 pages stays
 * well under the second the page map may take.
 */
export class PageCache {
  private readonly cache = new Map<string, Cached>();
  /** The last snapshot, reused while no file changed (the resolver is not rebuilt). */
  private last: { key: string; snap: WikiSnapshot } | null = null;
  private generation = 0;

  constructor(
    private readonly notesDir: string,
    private readonly shownPrefix: string,
  ) {}

  async load(): Promise<WikiSnapshot> {
    const files = await noteFiles(this.notesDir);
    const keep = new Set(files);
    for (const k of this.cache.keys()) {
      if (!keep.has(k)) {
        this.cache.delete(k);
        this.generation++;
      }
    }
    for (const rel of files) this.refresh(rel);
    const key = `${this.generation}:${files.length}`;
    if (this.last?.key === key) return this.last.snap;
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

  /** Drops the reused snapshot (a write planned on it added pages to its resolver). */
  forgetSnapshot(): void {
    this.last = null;
  }

  /** Forgets a file so the next load reads it again (after Charlie wrote it). */
  invalidate(rel: string): void {
    if (this.cache.delete(rel)) this.generation++;
  }

  private refresh(rel: string): void {
    const full = join(this.notesDir, rel);
    const s = statSync(full, { throwIfNoEntry: false });
    const c = this.cache.get(rel);
    if (s && c && c.mtimeMs === s.mtimeMs && c.size === s.size) return;
    this.generation++;
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
    this.cache.set(rel, { mtimeMs: s.mtimeMs, size: s.size, read: readPage(content, rel, this.shownPrefix + rel) });
  }
}

export function snapshot(pages: Map<string, WikiPage>, problems: FileProblem[], broken = new Set<string>()): WikiSnapshot {
  const resolver = new EntityResolver(pages.values());
  // a page that cannot be read still owns its name: nothing else is created in its place
  for (const path of broken) resolver.add({ path, title: titleFromPath(path), aliases: [], category: folderOf(path) });
  const lower = new Map<string, string>();
  const byName = new Map<string, string[]>();
  for (const path of pages.keys()) {
    const bare = path.replace(/\.md$/i, '');
    lower.set(bare.toLowerCase(), path);
    const base = (bare.split('/').pop() ?? bare).toLowerCase();
    byName.set(base, [...(byName.get(base) ?? []), path]);
  }
  return {
    pages,
    problems,
    broken,
    resolver,
    target(link) {
      const bare = link
        .trim()
        .replace(/^notes\//, '')
        .replace(/\.md$/i, '');
      const exact = lower.get(bare.toLowerCase());
      if (exact) return exact;
      if (bare.includes('/')) return null;
      const named = byName.get(bare.toLowerCase());
      return named?.length === 1 ? named[0]! : null;
    },
  };
}
