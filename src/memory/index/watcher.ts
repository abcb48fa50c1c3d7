/**
 * Watches `projects/` for changes while Charlie runs (hand edits and Charlie's own writes) and
 * reports them per project, coalesced: the files changed during a quiet `debounceMs` come as one
 * batch, and a project's next batch waits until its handler finished the previous one, so a burst
 * of changes costs one run, however many files it touched. The handler learns which files
 * changed, so an archive append need not cost what a moved folder does.
 */
import { mkdirSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { DirWatch } from './dir-watch.js';
import type { Logger } from '../../core/ports/index.js';

/** What changed in one project since its last batch. */
export interface ProjectChanges {
  project: string;
  /** Files (relative to the project folder, `/`-separated) added, changed or removed. */
  paths: string[];
  /** A folder came or went, or the watcher reported an error: list the project again. */
  rescan: boolean;
}

export interface WatchOptions {
  debounceMs?: number;
  /**
   * true once the watcher reports every change (its initial scan is done); false after an error,
   * when it may have missed some: readers then list the folders again, as without a watcher.
   */
  onTrust?: (trusted: boolean) => void;
}

interface Pending {
  paths: Set<string>;
  rescan: boolean;
  timer: NodeJS.Timeout | null;
  running: boolean;
}

export function watchProjects(projectsDir: string, handle: (changes: ProjectChanges) => Promise<unknown>, logger: Logger, options: WatchOptions = {}): () => Promise<void> {
  const debounceMs = options.debounceMs ?? 300;
  mkdirSync(projectsDir, { recursive: true });
  const pending = new Map<string, Pending>();
  let closed = false;
  const run = (project: string, p: Pending) => {
    p.timer = null;
    if (p.running || closed) return;
    const changes: ProjectChanges = { project, paths: [...p.paths], rescan: p.rescan };
    p.paths.clear();
    p.rescan = false;
    p.running = true;
    handle(changes)
      .catch((err: unknown) => logger.warn({ project, err: err }, 'update after a file change failed'))
      .finally(() => {
        p.running = false;
        // changes that came in meanwhile: one more batch
        if (p.paths.size > 0 || p.rescan) schedule(project, p);
        else if (!p.timer) pending.delete(project);
      });
  };
  const schedule = (project: string, p: Pending) => {
    if (p.timer) clearTimeout(p.timer);
    p.timer = setTimeout(() => run(project, p), debounceMs);
  };
  const touched = (path: string, folder: boolean) => {
    const rel = relative(projectsDir, path).split(sep);
    const [project, top] = rel;
    if (!project || project.startsWith('..')) return;
    if (!folder && !(path.endsWith('.md') || top === 'inbox')) return;
    let p = pending.get(project);
    if (!p) pending.set(project, (p = { paths: new Set(), rescan: false, timer: null, running: false }));
    if (folder) p.rescan = true;
    else p.paths.add(rel.slice(1).join('/'));
    schedule(project, p);
  };
  // a folder added or removed inside a project (a whole category moved by hand): list it again;
  // the files of a new project folder are reported one by one (some may predate its watch)
  const started = DirWatch.start(projectsDir, {
    file: (path) => touched(path, false),
    folder: (path, found) => {
      if (relative(projectsDir, path).includes(sep)) touched(path, true);
      else for (const f of found) touched(f, false);
    },
    error: (err) => {
      logger.warn({ err }, 'project watcher error; listing the project folders again before each use');
      options.onTrust?.(false);
    },
  });
  started.then(
    () => closed || options.onTrust?.(true),
    (err: unknown) => {
      logger.warn({ err }, 'project watcher could not start; listing the project folders before each use');
      options.onTrust?.(false);
    },
  );
  return async () => {
    closed = true;
    options.onTrust?.(false);
    for (const p of pending.values()) if (p.timer) clearTimeout(p.timer);
    pending.clear();
    (await started.catch(() => null))?.close();
  };
}
