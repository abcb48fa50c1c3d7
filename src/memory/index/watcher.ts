/**
 * Watches `projects/` for hand edits while Charlie runs and syncs the touched project,
 * debounced. Recall also syncs before every search, so the watcher only keeps the index
 * warm; it is never needed for correctness.
 */
import { mkdirSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { watch } from 'chokidar';
import type { Logger } from '../../core/ports.js';

export function watchProjects(projectsDir: string, sync: (project: string) => Promise<unknown>, logger: Logger, debounceMs = 300): () => Promise<void> {
  mkdirSync(projectsDir, { recursive: true });
  const timers = new Map<string, NodeJS.Timeout>();
  const watcher = watch(projectsDir, {
    ignoreInitial: true,
    ignored: (path: string) => /(^|[/\\])\.[^/\\]/.test(relative(projectsDir, path)),
    awaitWriteFinish: { stabilityThreshold: 100, pollInterval: 50 },
  });
  const touched = (path: string) => {
    const [project, folder] = relative(projectsDir, path).split(sep);
    // Markdown pages, and any file put into the project's inbox/ (a source to ingest)
    if (!project || project.startsWith('..') || !(path.endsWith('.md') || folder === 'inbox')) return;
    clearTimeout(timers.get(project));
    timers.set(
      project,
      setTimeout(() => {
        timers.delete(project);
        sync(project).catch((err: unknown) => logger.warn({ project, err: String(err) }, 'index sync after a file change failed'));
      }, debounceMs),
    );
  };
  watcher.on('add', touched).on('change', touched).on('unlink', touched);
  watcher.on('error', (err) => logger.warn({ err: String(err) }, 'project watcher error'));
  return async () => {
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
    await watcher.close();
  };
}
