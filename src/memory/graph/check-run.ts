/** `npm run memory -- check [--project NAME] [--fix]`, as a function the script and tests call. */
import { readdir } from 'node:fs/promises';
import { silentLogger, systemClock } from '../../core/ports/index.js';
import { checkPages, fixDangling, formatProblem } from './check.js';
import { Wiki } from './wiki.js';

export interface CheckRun {
  projectsDir: string;
  project?: string;
  fix?: boolean;
  write: (line: string) => void;
}

/** Prints `path:line: problem` lines; returns the exit code (0 clean, 1 problems, 2 no such project). */
export async function runMemoryCheck(run: CheckRun): Promise<number> {
  const wiki = new Wiki({ projectsDir: run.projectsDir, clock: systemClock, logger: silentLogger });
  const all = (await readdir(run.projectsDir, { withFileTypes: true }).catch(() => []))
    .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
    .map((d) => d.name)
    .sort();
  const projects = run.project ? all.filter((p) => p === run.project) : all;
  if (run.project && projects.length === 0) {
    run.write(`no project "${run.project}" in ${run.projectsDir} (projects: ${all.join(', ') || 'none'})`);
    return 2;
  }
  let remaining = 0;
  let pages = 0;
  for (const project of projects) {
    let snap = await wiki.load(project);
    let problems = checkPages(project, snap);
    if (run.fix) {
      const fixed = await fixDangling(wiki, project, problems);
      if (fixed) {
        run.write(`${project}: removed ${fixed} link(s) to missing pages`);
        await wiki.regenerateIndex(project);
        snap = await wiki.load(project);
        problems = checkPages(project, snap);
      }
    }
    pages += snap.pages.size;
    for (const p of problems) run.write(formatProblem(p));
    remaining += problems.length;
  }
  run.write(remaining ? `${remaining} problem(s) in ${pages} page(s)` : `no problems in ${pages} page(s) of ${projects.length} project(s)`);
  return remaining ? 1 : 0;
}
