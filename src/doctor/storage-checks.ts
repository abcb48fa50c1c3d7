/**
 * Storage: the memory folder and the data folder can be written, there is room on the disk,
 * `memory check` finds no problem in the pages, and the search index has seen the pages as
 * they are now (read from its page manifests, so the doctor never opens or rebuilds the index).
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { runMemoryCheck } from '../memory/graph/check-run.js';
import { loadManifest } from '../memory/index/page-manifest.js';
import { listPageFiles, listProjects } from '../memory/index/page-files.js';
import { fail, ok, warn, type Check, type Part } from './check.js';
import { errorWithCause } from '../util/error-text.js';
import { memoryBudgetCheck } from './memory-budget-check.js';

function writableCheck(label: string, dir: string, variable: string): Check {
  return {
    name: `storage: ${label}`,
    async run() {
      try {
        mkdirSync(dir, { recursive: true });
        const probe = join(dir, `.doctor-${String(process.pid)}.tmp`);
        writeFileSync(probe, 'ok');
        rmSync(probe);
        return ok(`${dir} is writable`);
      } catch (err) {
        return fail(`${dir} cannot be written: ${errorWithCause(err)}`, `fix the folder's permissions, or point ${variable} at a folder you own`);
      }
    },
  };
}

function diskCheck(dataDir: string): Check {
  return {
    name: 'storage: free disk',
    async run() {
      const at = existsSync(dataDir) ? dataDir : '.';
      const s = statfsSync(at);
      const freeGb = (s.bavail * s.bsize) / 1024 ** 3;
      const text = `${freeGb.toFixed(1)} GB free where ${dataDir} is`;
      if (freeGb < 0.2) return Promise.resolve(fail(text, 'free some space: models, the index and the archive need room to be written safely'));
      if (freeGb < 2) return Promise.resolve(warn(text, 'free some space: a local model download alone can take 100 MB–1 GB'));
      return Promise.resolve(ok(text));
    },
  };
}

/** Pages changed, added or removed since each project was last indexed. */
async function indexDrift(config: Config): Promise<{ projects: number; pages: number; unindexed: string[]; changed: number }> {
  const indexDir = join(config.dataDir, 'index');
  const manifests = existsSync(indexDir) ? readdirSync(indexDir).filter((f) => f.endsWith('.pages.json')) : [];
  const result = { projects: 0, pages: 0, unindexed: [] as string[], changed: 0 };
  for (const project of await listProjects(config.projectsDir)) {
    result.projects++;
    const files = listPageFiles(join(config.projectsDir, project));
    result.pages += files.size;
    const prefix = `${project.replace(/[^A-Za-z0-9_-]/g, '_')}__`;
    const mine = manifests
      .filter((f) => f.startsWith(prefix) && /^[0-9a-f]{10}\.pages\.json$/.test(f.slice(prefix.length)))
      .map((f) => join(indexDir, f))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    const newest = mine[0];
    if (newest === undefined) {
      if (files.size > 0) result.unindexed.push(project);
      continue;
    }
    const seen = await loadManifest(newest);
    for (const [page, f] of files) {
      const s = seen.get(page);
      if (s?.size !== f.size || s.mtimeMs !== f.mtimeMs) result.changed++;
    }
    for (const page of seen.keys()) if (!files.has(page)) result.changed++;
  }
  return result;
}

function indexCheck(config: Config): Check {
  return {
    name: 'storage: search index',
    timeoutMs: 15_000,
    async run() {
      const d = await indexDrift(config);
      const base = `${String(d.projects)} project(s), ${String(d.pages)} page(s)`;
      if (d.unindexed.length === 0 && d.changed === 0) return ok(`${base}; the index is in sync`);
      const what = [d.unindexed.length ? `not indexed yet: ${d.unindexed.slice(0, 5).join(', ')}` : '', d.changed ? `${String(d.changed)} page(s) changed since indexed` : '']
        .filter(Boolean)
        .join('; ');
      return warn(`${base}; ${what}`, 'nothing is lost: each project catches up at its next search, or run `npm run reindex` now');
    },
  };
}

function memoryCheck(config: Config): Check {
  return {
    name: 'storage: memory check',
    timeoutMs: 20_000,
    async run() {
      const lines: string[] = [];
      const code = await runMemoryCheck({ projectsDir: config.projectsDir, write: (l) => lines.push(l) });
      const summary = lines.at(-1) ?? '';
      if (code === 0) return ok(summary);
      return warn(`${summary}; first: ${lines[0] ?? ''}`, 'run `npm run memory -- check` for the list (`-- --fix` removes links to missing pages); the rest is for a person to edit');
    },
  };
}

export function storagePart(config: Config): Part {
  return {
    name: 'storage',
    checks: [
      writableCheck('projects/', config.projectsDir, 'PROJECTS_DIR'),
      writableCheck('data/', config.dataDir, 'DATA_DIR'),
      diskCheck(config.dataDir),
      memoryCheck(config),
      indexCheck(config),
      memoryBudgetCheck(config),
    ],
  };
}
