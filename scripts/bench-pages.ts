/**
 * `npm run bench:pages`: the JS heap the page cache of one large project holds (its pages read,
 * the snapshot's resolver and name maps), without an index, a model or turns: a figure that
 * takes seconds where bench:scale takes many minutes.
 *
 *   npm run bench:pages [-- --pages 10000]
 *
 * Writes bench:scale's household (scripts/bench-scale-data.ts; one day of archives) to a temp
 * folder and prints the heap in use (after a full GC) before and after the first load of its
 * pages, and again without the snapshot (what its resolver and name maps hold).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PageStore } from '../src/memory/graph/page-store.js';
import { MAIN, writeHousehold } from './bench-scale-data.js';

const { values: args } = parseArgs({ options: { pages: { type: 'string', default: '10000' } } });
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:pages does)');
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1e6;
};

const root = mkdtempSync(join(tmpdir(), 'charlie-bench-pages-'));
try {
  const pages = Number(args.pages);
  writeHousehold(root, { pages, days: 1, projects: 1, end: new Date('2026-11-01T12:00:00Z') });
  const store = new PageStore(root);
  const before = heapMb();
  // in a function of its own, so no frame of this module keeps the snapshot alive
  const loaded = await (async () => (await store.load(MAIN.slug)).pages.size)();
  const withSnapshot = heapMb();
  store.forgetSnapshot(MAIN.slug);
  const pagesOnly = heapMb();
  console.log(`bench:pages — ${loaded} pages of ${pages} read into the page cache`);
  console.log(`  heap of the page cache and its snapshot  ${(withSnapshot - before).toFixed(1)} MB`);
  console.log(`  of which the snapshot (resolver, names)  ${(withSnapshot - pagesOnly).toFixed(1)} MB`);
  console.log(`  per page                                 ${(((withSnapshot - before) * 1e6) / Math.max(1, loaded)).toFixed(0)} bytes`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
