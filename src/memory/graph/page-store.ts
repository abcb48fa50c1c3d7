/**
 * The pages of every project on disk: one cache per notes/ folder, one write lane per project,
 * and the one read → compare-and-swap → invalidate loop every page change goes through.
 */
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { CharlieError } from '../../core/errors.js';
import { dirname } from 'node:path';
import { KeyedQueue } from '../../core/keyed-queue.js';
import { ABSENT, fileVersion, readIfExists, sha256, writeFileAtomic } from '../../files/atomic-write.js';
import { assertRealInside, resolveChild, resolveInside } from '../../files/safe-path.js';
import { PageCache, type WikiSnapshot } from './wiki-pages.js';

const MAX_ATTEMPTS = 3;

/** What `mutate` did: wrote `result` (to a new file when `created`), found nothing to change, or lost every race. */
export type Mutation<T> = { kind: 'written'; result: T; created: boolean } | { kind: 'unchanged' } | { kind: 'conflict' };

export class PageStore {
  private readonly caches = new Map<string, PageCache>();
  private readonly lanes = new KeyedQueue();
  /** A file watcher reports every change under projects/: loads re-read only what it named. */
  private watched = false;

  constructor(readonly projectsDir: string) {}

  projectDir(project: string): string {
    return resolveChild(this.projectsDir, project);
  }

  notesDir(project: string): string {
    return resolveInside(this.projectDir(project), 'notes');
  }

  private cache(project: string): PageCache {
    let c = this.caches.get(project);
    if (!c) this.caches.set(project, (c = new PageCache(this.notesDir(project), `${project}/notes/`, this.watched)));
    return c;
  }

  watching(on: boolean): void {
    this.watched = on;
    for (const c of this.caches.values()) c.watch(on);
  }

  filesChanged(project: string, paths: readonly string[], rescan: boolean): boolean {
    const cache = this.cache(project);
    if (rescan) {
      cache.rescan();
      return true;
    }
    let any = false;
    for (const p of paths) if (p.startsWith('notes/') && cache.changed(p.slice('notes/'.length))) any = true;
    return any;
  }

  async load(project: string): Promise<WikiSnapshot> {
    await assertRealInside(this.projectsDir, this.notesDir(project));
    return this.cache(project).load();
  }

  /** Runs `fn` with no other change of the project's pages in between. */
  serial<T>(project: string, fn: () => Promise<T>): Promise<T> {
    return this.lanes.run(project, fn);
  }

  invalidate(project: string, path: string): void {
    this.cache(project).invalidate(path);
  }

  /** Planning adds new pages to the snapshot's resolver: the next load builds a fresh one. */
  forgetSnapshot(project: string): void {
    this.cache(project).forgetSnapshot();
  }

  /**
   * The one page-change loop: reads the page (`path` under notes/; null when absent), asks
   * `change` for its new text (null: nothing to change), and writes it only if the file still
   * holds what was read; on a race it reads again, up to three times. A written page is
   * invalidated in the cache. Call inside `serial`. `change` may throw: nothing is written.
   */
  async mutate<T extends { content: string }>(project: string, path: string, change: (current: string | null) => T | null): Promise<Mutation<T>> {
    const full = resolveInside(this.notesDir(project), path);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const current = await readIfExists(full);
      const result = change(current);
      if (!result) return { kind: 'unchanged' };
      if (current === null) await mkdir(dirname(full), { recursive: true });
      if (!(await writeFileAtomic(full, result.content, current === null ? ABSENT : sha256(current))).ok) continue;
      this.invalidate(project, path);
      return { kind: 'written', result, created: current === null };
    }
    return { kind: 'conflict' };
  }

  /** Moves a page file (`from`, `to` under notes/); throws when `to` exists or `from` does not. Call inside `serial`. */
  async move(project: string, from: string, to: string): Promise<void> {
    const dir = this.notesDir(project);
    const src = resolveInside(dir, from);
    const dst = resolveInside(dir, to);
    await assertRealInside(this.projectsDir, dst);
    if ((await fileVersion(dst)) !== ABSENT) throw new CharlieError(`${project}/notes/${to} already exists`);
    await stat(src);
    await mkdir(dirname(dst), { recursive: true });
    await rename(src, dst);
    this.invalidate(project, from);
    this.invalidate(project, to);
  }

  /** Deletes a page file (`path` under notes/); false when there is none. Call inside `serial`. */
  async remove(project: string, path: string): Promise<boolean> {
    const full = resolveInside(this.notesDir(project), path);
    await assertRealInside(this.projectsDir, full);
    try {
      if (!(await stat(full)).isFile()) return false;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
    await rm(full);
    this.invalidate(project, path);
    return true;
  }
}
