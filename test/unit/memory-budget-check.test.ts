import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { memoryBudgetCheck } from '../../src/doctor/memory-budget-check.js';
import { residentStatusFile } from '../../src/memory/index/resident-status.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(budget: string) {
  const root = mkdtempSync(join(tmpdir(), 'charlie-budget-check-'));
  dirs.push(root);
  const config = loadConfig({ DATA_DIR: join(root, 'data'), PROJECTS_DIR: join(root, 'projects'), CHARLIE_MEMORY_BUDGET: budget }, root);
  mkdirSync(join(config.dataDir, 'index'), { recursive: true });
  return config;
}

const status = (pid: number, projects: { project: string; bytes: number }[]) =>
  JSON.stringify({ pid, at: 0, budgetBytes: 0, residentBytes: 100 * 2 ** 20, indexCacheBytes: 0, metadataCacheBytes: 0, projects: projects.map((p) => ({ ...p, usedAt: 0 })) });

describe('doctor: memory budget', () => {
  it('reports the budget and that nothing is resident while Charlie is not running', async () => {
    const config = setup('256');
    const v = await memoryBudgetCheck(config).run(new AbortController().signal);
    expect(v.status).toBe('ok');
    expect(v.detail).toMatch(/CHARLIE_MEMORY_BUDGET 256 MB/);
    expect(v.detail).toMatch(/not running, nothing is resident/);
    // this machine has glibc: what the index frees is given back
    expect(v.detail).toMatch(/native memory freed by the index is given back \(malloc_trim\)/);
  });

  it('says when freed native memory cannot be given back on this system, and why', async () => {
    const config = setup('256');
    const v = await memoryBudgetCheck(config, Date.now, { unavailable: () => 'no glibc on darwin' }).run(new AbortController().signal);
    expect(v.status).toBe('ok');
    expect(v.detail).toMatch(/native memory freed by the index is not given back here \(no glibc on darwin\)/);
  });

  it('lists what the running Charlie keeps resident, and warns when one project alone is over its share', async () => {
    const config = setup('192');
    const file = residentStatusFile(join(config.dataDir, 'index'));
    writeFileSync(file, status(process.pid, [{ project: 'home', bytes: 40 * 2 ** 20 }]));
    const fits = await memoryBudgetCheck(config, () => 120_000).run(new AbortController().signal);
    expect(fits.status).toBe('ok');
    expect(fits.detail).toMatch(/resident \(as of 2 min ago\): home 40 MB \(searched 2 min ago\)/);
    writeFileSync(file, status(process.pid, [{ project: 'home', bytes: 300 * 2 ** 20 }]));
    const over = await memoryBudgetCheck(config).run(new AbortController().signal);
    expect(over.status).toBe('warn');
    expect(over.fix).toMatch(/raise CHARLIE_MEMORY_BUDGET/);
  });

  it("warns when LanceDB's index cache grew past its share to hold the vector indexes, and says by how much", async () => {
    const config = setup('256');
    const file = residentStatusFile(join(config.dataDir, 'index'));
    const cache = (bound: number | undefined) =>
      JSON.stringify({
        ...JSON.parse(status(process.pid, [{ project: 'home', bytes: 40 * 2 ** 20 }])),
        indexCacheBytes: 128 * 2 ** 20,
        ...(bound === undefined ? {} : { indexCacheBoundBytes: bound, vectorIndexBytes: 50 * 2 ** 20 }),
      });
    // at its share, or a file of an older Charlie without the bound: nothing to say
    for (const bound of [128 * 2 ** 20, undefined]) {
      writeFileSync(file, cache(bound));
      const fits = await memoryBudgetCheck(config).run(new AbortController().signal);
      expect(fits.status).toBe('ok');
      expect(fits.detail).not.toMatch(/index cache/);
    }
    writeFileSync(file, cache(140 * 2 ** 20));
    const grown = await memoryBudgetCheck(config).run(new AbortController().signal);
    expect(grown.status).toBe('warn');
    expect(grown.detail).toMatch(/index cache may hold 140 MB, past its 128 MB share, to keep the vector indexes of the projects opened \(50 MB on disk\)/);
    expect(grown.fix).toMatch(/12 MB more than CHARLIE_MEMORY_BUDGET/);
  });
});
