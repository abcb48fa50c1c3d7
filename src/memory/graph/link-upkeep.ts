/**
 * Links follow the pages: when Charlie renames or deletes a page, and when a person does it by
 * hand while Charlie runs (a page gone while one with the same title appeared was renamed). Hand
 * edits of records are logged when first noticed.
 */
import { readdir } from 'node:fs/promises';
import type { Logger } from '../../core/ports/index.js';
import { recordLogLine } from '../records/history.js';
import { unloggedEdits } from '../records/provenance.js';
import type { GeneratedFiles } from './generated.js';
import { editLines } from './page-edit.js';
import type { PageStore } from './page-store.js';
import { readPage, type WikiPage } from './page.js';
import type { WikiSnapshot } from './wiki-pages.js';

const bare = (p: string) => p.replace(/\.md$/i, '').toLowerCase();
const baseOf = (p: string) => (p.split('/').pop() ?? p).toLowerCase();
/** The entry of `set` a link target names: the same path, or the same file name for a bare name. */
function matching(target: string, set: Iterable<string>): string | null {
  const t = bare(target);
  for (const s of set) if (t === s || (!t.includes('/') && baseOf(s) === t)) return s;
  return null;
}

/**
 * Whether `pages` has exactly the paths of `known`; if so, `known`'s titles are brought up to
 * date in place. One pass of lookups, where building the map again cost tens of ms at 10,000 pages.
 */
function sameKeysNoting(known: Map<string, string>, pages: ReadonlyMap<string, WikiPage>): boolean {
  if (known.size !== pages.size) return false;
  for (const path of pages.keys()) if (!known.has(path)) return false;
  for (const [path, page] of pages) {
    const title = page.title.toLowerCase();
    if (known.get(path) !== title) known.set(path, title);
  }
  return true;
}

export class LinkUpkeep {
  /** Last pages seen per project (path → lower-case title), to tell a hand rename or delete from a new page. */
  private readonly known = new Map<string, Map<string, string>>();
  /**
   * Per project, the link resolver of the snapshot `known` was last checked against: a snapshot
   * with the same one is that snapshot with pages read again under the same names (the page
   * cache's patch, wiki-pages.ts), so no page came, went or was renamed, and nothing is checked.
   */
  private readonly names = new Map<string, WikiSnapshot['target']>();

  constructor(
    private readonly store: PageStore,
    private readonly files: GeneratedFiles,
    private readonly logger: Logger,
  ) {}

  /** Moves a page's file and every link to it (inside the project's lane). */
  async rename(project: string, from: string, to: string): Promise<void> {
    await this.store.move(project, from, to);
    const known = this.known.get(project);
    const title = known?.get(from);
    if (known && title !== undefined) {
      known.delete(from);
      known.set(to, title);
    }
    await this.retarget(project, new Map([[from, to]]), new Set());
    await this.files.log(project, [{ action: 'renamed', path: `${from} → ${to}` }]);
  }

  /** Drops the links to a deleted page (inside the project's lane). */
  async removeLinksTo(project: string, path: string): Promise<void> {
    this.known.get(project)?.delete(path); // not a hand delete: the watcher need not report it again
    await this.retarget(project, new Map(), new Set([path]));
  }

  /**
   * Rewrites links on every page: targets in `moved` point to their new path, targets in
   * `gone` are dropped. Pages that do not parse are left alone.
   */
  private async retarget(project: string, moved: ReadonlyMap<string, string>, gone: ReadonlySet<string>): Promise<void> {
    const snap = await this.store.load(project);
    const movedBare = new Map([...moved].map(([a, b]) => [bare(a), b]));
    const goneBare = new Set([...gone].map(bare));
    const dangling = (target: string) => !snap.target(target) && (matching(target, movedBare.keys()) !== null || matching(target, goneBare) !== null);
    for (const page of snap.pages.values()) {
      if (!page.links.some((l) => dangling(l.target))) continue;
      await this.store.mutate(project, page.path, (content) => {
        const fresh = content === null ? null : readPage(content, page.path, page.path);
        if (content === null || !fresh?.ok) return null;
        const lines = content.split('\n');
        const edits = new Map<number, string | null>();
        for (const l of fresh.page.links) {
          if (!dangling(l.target)) continue; // still resolves: leave it
          const m = matching(l.target, movedBare.keys());
          const to = m ? movedBare.get(m) : undefined;
          edits.set(l.line, to ? lines[l.line - 1]!.replace(/\[\[[^\]|#]+/, `[[${to.replace(/\.md$/i, '')}`) : null);
        }
        return edits.size ? { content: editLines(content, edits) } : null;
      });
    }
  }

  /** After files changed on disk (inside the project's lane): hand renames and deletes are followed and logged. */
  async reconcile(project: string, changed?: readonly string[]): Promise<void> {
    const snap = await this.store.load(project);
    const known = this.known.get(project);
    if (changed && known && (this.names.get(project) === snap.target || sameKeysNoting(known, snap.pages))) {
      // no page came or went (the common hand edit of one page): nothing was renamed or deleted
      this.names.set(project, snap.target);
      await this.noteHandEdits(project, changed);
      return;
    }
    this.names.set(project, snap.target);
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
        await this.files.log(project, [
          ...[...moved].map(([a, b]) => ({ action: 'renamed' as const, path: `${a} → ${b}`, source: 'hand edit' })),
          ...[...deleted].map((p) => ({ action: 'deleted' as const, path: p, source: 'hand edit' })),
        ]);
      }
    }
    // the watcher names the pages that changed: only they can hold new hand edits
    await this.noteHandEdits(project, changed && [...changed, ...now.keys()].filter((p) => !before?.has(p) || changed.includes(p)));
  }

  /** Hand edits of records not in the log yet get their `edited` line (dated when noticed); `only`: of these pages. Returns the log. */
  async logHandEdits(project: string, only?: readonly string[]): Promise<string> {
    await this.noteHandEdits(project, only);
    return this.files.readLog(project);
  }

  /** logHandEdits without reading the log back: what it already holds is read as it grows (log-state.ts). */
  private async noteHandEdits(project: string, only?: readonly string[]): Promise<void> {
    const snap = await this.store.load(project);
    const { logged, renamed } = await this.files.logState(project);
    const pages = only ? [...new Set(only)].map((p) => snap.pages.get(p)).filter((p): p is WikiPage => p !== undefined) : snap.pages.values();
    const edits = unloggedEdits(pages, logged, renamed);
    if (edits.length) await this.files.log(project, edits.map(recordLogLine));
  }

  /**
   * Records the pages of every project as they are now, so the first hand rename after start is
   * recognised, and brings its generated files in step (written only where their text differs),
   * so the first hand edit renders only its page's line and checks the files by two stats: left
   * to that edit, it read, hashed and wrote the whole `_index.md` (1 MB at 10,000 pages).
   */
  async primeAll(): Promise<void> {
    const dirs = await readdir(this.store.projectsDir, { withFileTypes: true }).catch(() => []);
    for (const d of dirs) {
      if (!d.isDirectory() || d.name.startsWith('.')) continue;
      try {
        const snap = await this.store.load(d.name);
        if (!this.known.has(d.name)) {
          this.known.set(d.name, new Map([...snap.pages.values()].map((p) => [p.path, p.title.toLowerCase()])));
          this.names.set(d.name, snap.target);
        }
        // a project with no page yet gets no generated file before its first one
        if (snap.pages.size > 0 || snap.problems.length > 0) await this.store.serial(d.name, () => this.files.regenerateIndex(d.name));
        else this.files.prime(d.name, snap);
      } catch (err) {
        this.logger.warn({ project: d.name, err }, 'could not read the pages of a project');
      }
    }
  }
}
