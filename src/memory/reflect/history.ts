/**
 * Previous versions of the pages reflection (or a restore) changes, kept in the project as plain
 * Markdown: `projects/<p>/.history/notes/People/Sarah-Chen.2026-11-30T14-00-00.000Z.md` holds the
 * page's exact bytes before that change. The folder starts with a dot, so the index, the watcher
 * and the graph never read it as memory. Restoring writes a version back byte for byte, after
 * keeping the page as it is now (a restore can itself be undone).
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UnsafeNameError } from '../../core/errors.js';
import type { PageVersion, RestoreOutcome } from '../../core/reflection/reflection.js';
import type { Mutation } from '../graph/page-store.js';
import { entriesIfExists, readIfExists, writeFileAtomic } from '../../files/atomic-write.js';
import { assertRealInside, resolveChild, resolveInside } from '../../files/safe-path.js';

export const HISTORY_DIR = '.history';

/** A version's name: its time with `:` replaced (file names on every system), e.g. `2026-11-30T14-00-00.000Z`. */
const VERSION = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z$/;

/** `People/Sarah-Chen`, `notes/People/Sarah-Chen.md` … → `People/Sarah-Chen.md` (null when it is no page name). */
export function pageName(name: string): string | null {
  const page = name
    .trim()
    .replace(/^\/+/, '')
    .replace(/^notes\//, '');
  if (!page || page.split('/').some((s) => s === '' || s === '.' || s === '..' || s.startsWith('.'))) return null;
  return /\.md$/i.test(page) ? page : `${page}.md`;
}

export function versionOf(time: Date): string {
  return time.toISOString().replace(/:/g, '-');
}

/** The page store's side a restore writes through (the knowledge graph): its folder and its one compare-and-swap loop. */
export interface PageWriter {
  notesDir(project: string): string;
  mutatePage<T extends { content: string }>(project: string, path: string, change: (current: string | null) => T | null): Promise<Mutation<T>>;
}

export class PageHistory {
  constructor(
    private readonly projectsDir: string,
    private readonly pages: PageWriter,
  ) {}

  private projectDir(project: string): string {
    return resolveChild(this.projectsDir, project);
  }

  private historyFile(project: string, page: string, version: string): string {
    return resolveInside(this.projectDir(project), `${HISTORY_DIR}/notes/${page.replace(/\.md$/i, '')}.${version}.md`);
  }

  /** Keeps `content` as the version of `page` before a change made at `time`; returns the file (relative to the project). */
  async keep(project: string, page: string, content: string, time: Date): Promise<string> {
    let version = versionOf(time);
    let full = this.historyFile(project, page, version);
    // two changes in the same millisecond: the next free millisecond
    for (let ms = time.getTime() + 1; (await readIfExists(full)) !== null; ms++) {
      version = versionOf(new Date(ms));
      full = this.historyFile(project, page, version);
    }
    await assertRealInside(this.projectsDir, full);
    await mkdir(dirname(full), { recursive: true });
    await writeFileAtomic(full, content);
    return `${HISTORY_DIR}/notes/${page.replace(/\.md$/i, '')}.${version}.md`;
  }

  /** The kept versions of one page (or of every page), oldest first. */
  async versions(project: string, page?: string): Promise<PageVersion[]> {
    const root = resolveInside(this.projectDir(project), `${HISTORY_DIR}/notes`);
    const entries = await entriesIfExists(root, { recursive: true });
    const out: PageVersion[] = [];
    for (const e of entries) {
      if (!e.isFile()) continue;
      const rel = `${e.parentPath}/${e.name}`
        .slice(root.length + 1)
        .split('\\')
        .join('/');
      const m = /^(.*)\.([^./]+\.\d{3}Z)\.md$/.exec(rel);
      if (!m?.[1] || !m[2] || !VERSION.test(m[2])) continue;
      const p = `${m[1]}.md`;
      if (page === undefined || p === page) out.push({ page: p, version: m[2], file: `${HISTORY_DIR}/notes/${rel}` });
    }
    return out.sort((a, b) => a.version.localeCompare(b.version) || a.page.localeCompare(b.page));
  }

  /**
   * Writes a kept version of `page` back (the newest when `version` is left out), byte for byte;
   * the page as it is now is kept first. The page is written through the page store (call
   * inside its lane), so its cache follows.
   */
  async restore(project: string, name: string, version: string | undefined, time: Date): Promise<RestoreOutcome> {
    const page = pageName(name);
    if (!page) return { ok: false, reason: `"${name}" is not a page name (e.g. People/Sarah-Chen)` };
    if (version !== undefined && !VERSION.test(version))
      return { ok: false, reason: `"${version}" is not a version (e.g. 2026-11-30T14-00-00.000Z; /memory restore ${page.replace(/\.md$/, '')} lists them)` };
    let target: string;
    try {
      target = resolveInside(this.pages.notesDir(project), page);
    } catch (err) {
      if (err instanceof UnsafeNameError) return { ok: false, reason: err.message };
      throw err;
    }
    const kept = await this.versions(project, page);
    const chosen = version === undefined ? kept.at(-1) : kept.find((v) => v.version === version);
    if (!chosen) return { ok: false, reason: kept.length ? `no version ${version ?? ''} of ${page}` : `no earlier version of ${page} is kept` };
    const previous = await readIfExists(resolveInside(this.projectDir(project), chosen.file));
    if (previous === null) return { ok: false, reason: `the version ${chosen.version} of ${page} disappeared` };
    await assertRealInside(this.projectsDir, target);
    const current = await readIfExists(target);
    if (current === previous) return { ok: true, page, version: chosen.version };
    if (current !== null) await this.keep(project, page, current, time);
    const written = await this.pages.mutatePage(project, page, (now) => (now === current ? { content: previous } : null));
    if (written.kind !== 'written') return { ok: false, reason: `${page} changed while it was being restored; try again` };
    return { ok: true, page, version: chosen.version };
  }
}
