/**
 * Speed of recall on synthetic corpora (built-in embedder, so model time is excluded).
 *
 *   npm run bench:recall [-- --sizes 1000,10000,100000 --pages 1000 --queries 200]
 *   npm run bench:recall -- --vector --sizes 1000000   (the vector phase alone, on derived rows: bench-recall-vector.ts)
 *
 * For each size: 1,000 Markdown pages holding size/1,000 chunks each are written to a temp
 * project; prints indexing throughput (the whole sync, and of it the index upkeep; beside it how long the plain LanceDB
 * peer's copy and its full-text and vector indexes took), recall p50/p95 through `recall()` — as while the app's
 * projects/ watcher runs (no check of the pages before a search; `--unwatched`: with the check
 * before every search, as without a watcher) — beside a plain LanceDB query over the same table
 * (vector ∥ full-text, top 100) and the BM25 baseline of scripts/bm25.ts over the same sections, timed in the same loop, the time of an incremental reindex of the
 * unchanged tree (warm and from a fresh process state), and peak memory.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as lancedb from '@lancedb/lancedb';
import { applyIndexRuntime, loadConfig } from '../src/config.js';
import { tableName } from '../src/memory/index/table-layout.js';
import { peerTable, plainHybridQuery, type PeerBuildTimes } from './bench-plain-query.js';
import { silentLogger } from '../src/core/ports/index.js';
import { HashingEmbedder } from '../src/memory/index/hashing-embedder.js';
import { ProjectTable } from '../src/memory/index/project-table.js';
import { createRecall } from '../src/memory/recall.js';
import { nativeHeap } from '../src/memory/index/native-heap.js';
import { SqliteUsageStore } from '../src/storage/usage-store.js';
import { buildBm25, searchBm25 } from './bm25.js';
import { consoleLogger, mulberry32, percentile, phaseLine } from './bench-util.js';
import { buildChild, measureBuild } from './bench-recall-build.js';
import { vectorPhase } from './bench-recall-vector.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    pages: { type: 'string', default: '1000' },
    queries: { type: 'string', default: '200' },
    verbose: { type: 'boolean', default: false },
    unwatched: { type: 'boolean', default: false },
    /** Largest corpus the in-process BM25 baseline is built for (it holds every section's text and postings: GBs at 1M). */
    'bm25-max': { type: 'string', default: '100000' },
    /** Peak memory of Charlie's index build beside a plain LanceDB build, each in its own process. */
    build: { type: 'boolean', default: false },
    'build-child': { type: 'string' },
    /** The vector phase alone, on rows written straight to LanceDB with derived vectors (minutes at 1M, not 45). */
    vector: { type: 'boolean', default: false },
    /** With --vector: build each size's table in this folder once and keep it; a later run only queries it. */
    keep: { type: 'string' },
    root: { type: 'string' },
  },
});

if (args['build-child']) {
  await buildChild(args['build-child'], args.root!);
  process.exit(0);
}

const random = mulberry32(42);
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tu', 'sa', 'vel', 'dor', 'pi', 'nex', 'ar', 'qui', 'ban', 'zo', 'li', 'mor', 'ta', 'gen'];
const vocabulary = Array.from({ length: 6000 }, () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(''));
/** Zipf-like pick: common words are much more frequent. */
const word = () => vocabulary[Math.floor(Math.pow(random(), 2.2) * vocabulary.length)]!;
const sentence = (n: number) => Array.from({ length: n }, word).join(' ');

/** Writes the pages; returns every section's text, for the BM25 baseline over the same chunks. */
function writeCorpus(projectDir: string, pages: number, chunksPerPage: number, keep = true): string[] {
  const docs: string[] = [];
  for (let p = 0; p < pages; p++) {
    const dir = join(projectDir, 'notes', `Topic-${Math.floor(p / 100)}`);
    mkdirSync(dir, { recursive: true });
    const sections = Array.from({ length: chunksPerPage }, (_, i) => `## Section ${i} ${word()}\n\n${sentence(30 + Math.floor(random() * 20))}.\n`);
    if (keep) docs.push(...sections);
    writeFileSync(join(dir, `Page-${p}.md`), `---\ntitle: Page ${p} ${word()}\nstaleness: 3\n---\n\n# Page ${p}\n\n${sections.join('\n')}`);
  }
  return docs;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

applyIndexRuntime(loadConfig());
if (args.vector) {
  await vectorPhase(args.sizes.split(',').map(Number), Number(args.queries), random, () => sentence(3 + Math.floor(random() * 30)), args.keep);
  clearInterval(sampler);
  console.log(`peak memory: ${mb(Math.max(peakRss, process.resourceUsage().maxRSS * 1024))}`);
  process.exit(0);
}
const pages = Number(args.pages);
if (args.build) {
  console.log(`bench:recall --build — built-in embedder, ${pages} pages per corpus; peak RSS of each build in its own process`);
  for (const size of args.sizes.split(',').map(Number)) {
    const root = mkdtempSync(join(tmpdir(), 'charlie-bench-build-'));
    try {
      process.stderr.write(`  [${size}] writing pages\n`);
      writeCorpus(join(root, 'projects', 'bench'), pages, Math.max(1, Math.round(size / pages)), false);
      process.stderr.write(`  [${size}] Charlie's build\n`);
      const ours = measureBuild('charlie', root);
      process.stderr.write(`  [${size}] plain LanceDB build\n`);
      const peer = measureBuild('lancedb', root);
      console.log(
        `${String(ours.chunks).padStart(8)} chunks: Charlie ${mb(ours.peakRss)} peak RSS, ${(ours.ms / 1000).toFixed(1)} s` +
          `  plain LanceDB ${mb(peer.peakRss)}, ${(peer.ms / 1000).toFixed(1)} s (${peer.chunks} chunks)  ratio ${(ours.peakRss / peer.peakRss).toFixed(2)}×`,
      );
      for (const [who, f] of [
        ['Charlie', ours],
        ['plain LanceDB', peer],
      ] as const) {
        const phases = f.phases.map((p) => `${p.name} ${(p.ms / 1000).toFixed(1)} s, RSS ≤ ${mb(p.rss)} (heap ${mb(p.heapUsed)}, external ${mb(p.external)})`);
        console.log(`          ${who}: embedding ${(f.embedMs / 1000).toFixed(1)} s; ${phases.join('; ')}`);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  clearInterval(sampler);
  process.exit(0);
}
console.log(`bench:recall — built-in embedder, ${pages} pages per corpus, ${args.queries} queries each`);
const heap = nativeHeap(silentLogger);
for (const size of args.sizes.split(',').map(Number)) {
  const root = mkdtempSync(join(tmpdir(), 'charlie-bench-recall-'));
  const projectsDir = join(root, 'projects');
  const dataDir = join(root, 'data');
  const usage = new SqliteUsageStore(join(dataDir, 'usage.sqlite'));
  try {
    const step = (what: string) => process.stderr.write(`  [${size}] ${what}\n`);
    step('writing pages');
    const withBm25 = size <= Number(args['bm25-max']);
    const docs = writeCorpus(join(projectsDir, 'bench'), pages, Math.max(1, Math.round(size / pages)), withBm25);
    step('indexing');
    /** How long each phase of the measured searches took (embed, sync, vector, keyword, temporal, fuse). */
    const phases = new Map<string, number[]>();
    let timing = false;
    const phase = (name: string, ms: number) => {
      if (!timing) return;
      const list = phases.get(name);
      if (list) list.push(ms);
      else phases.set(name, [ms]);
    };
    // the index as the composition root makes it: with the native heap that gives back what its bulk reads freed
    const open = () => createRecall({ projectsDir, dataDir, embedder: new HashingEmbedder(), usage, logger: args.verbose ? consoleLogger('debug') : silentLogger, phase, freed: heap.freed });
    let service = open();
    // the sync's index upkeep (compaction, the vector and time indexes), timed apart: the figure is still the whole sync
    let upkeepMs = 0;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its table below
    const optimize = ProjectTable.prototype.optimize;
    ProjectTable.prototype.optimize = async function (this: ProjectTable, ...a: Parameters<ProjectTable['optimize']>) {
      const started = performance.now();
      try {
        await optimize.apply(this, a);
      } finally {
        upkeepMs += performance.now() - started;
      }
    };
    let t = performance.now();
    const built = await service.sync('bench');
    const indexMs = performance.now() - t;
    ProjectTable.prototype.optimize = optimize;
    step('querying');
    if (!args.unwatched) {
      // what the app's watcher does once it is ready: from then on it names what changes
      service.watching(true);
      await service.changed('bench', [], true);
    }
    const embedder = new HashingEmbedder();
    const db = await lancedb.connect(join(dataDir, 'index'));
    const peerDb = await lancedb.connect(join(dataDir, 'plain-lancedb')); // its own folder: Charlie's index never sees it
    step('copying the table for the plain LanceDB peer');
    const charlies = await db.openTable(tableName('bench', embedder.id));
    const peerTimes: PeerBuildTimes = { copyMs: 0, fullTextMs: 0, vectorMs: 0 };
    const table = await peerTable(peerDb, charlies, 'plain', peerTimes);
    charlies.close();
    const times: number[] = [];
    /** CPU time of the process (every thread) during each search: the work, whatever the machine's load. */
    const cpuTimes: number[] = [];
    const bm25Times: number[] = [];
    const lexical = buildBm25(docs);
    const plain: number[] = [];
    const n = Number(args.queries);
    for (let i = 0; i < n + 30; i++) {
      // every fourth question names a time, so the temporal pass (a filtered search) is measured too
      const q = sentence(2 + Math.floor(random() * 4)) + (i % 4 === 3 ? ' last week' : '');
      // the first queries warm caches and thread pools
      timing = i >= 30;
      const cpu = process.cpuUsage();
      t = performance.now();
      await service.recall.recall(q, { project: 'bench', limit: 10 });
      const ours = performance.now() - t;
      const used = process.cpuUsage(cpu);
      timing = false;
      t = performance.now();
      const [vector] = await embedder.embed([q]);
      await plainHybridQuery(table, vector!, q);
      const plainMs = performance.now() - t;
      t = performance.now();
      if (withBm25) searchBm25(lexical, q, 10);
      const bm25Ms = performance.now() - t;
      if (i >= 30) {
        cpuTimes.push((used.user + used.system) / 1000);
        times.push(ours);
        plain.push(plainMs);
        bm25Times.push(bm25Ms);
      }
    }
    table.close();
    db.close();
    peerDb.close();
    step('incremental reindex');
    service.watching(false); // an incremental reindex checks every page
    t = performance.now();
    const warm = await service.sync('bench');
    const warmMs = performance.now() - t;
    await service.close();
    service = open();
    t = performance.now();
    const cold = await service.sync('bench');
    const coldMs = performance.now() - t;
    await service.close();
    if (warm.embedded + cold.embedded > 0) throw new Error('an unchanged tree was re-embedded');
    console.log(
      `${String(built.chunks).padStart(7)} chunks: index ${(indexMs / 1000).toFixed(1)} s (${Math.round((built.chunks / indexMs) * 1000)} chunks/s)` +
        `  recall p50 ${percentile(times, 50).toFixed(1)} ms p95 ${percentile(times, 95).toFixed(1)} ms` +
        `  plain LanceDB p50 ${percentile(plain, 50).toFixed(1)} ms p95 ${percentile(plain, 95).toFixed(1)} ms (recall ${(percentile(times, 50) / percentile(plain, 50)).toFixed(2)}×)` +
        (withBm25 ? ` (BM25 over the same ${docs.length} sections: p50 ${percentile(bm25Times, 50).toFixed(2)} ms p95 ${percentile(bm25Times, 95).toFixed(2)} ms)` : '') +
        `  unchanged reindex of ${built.pages} pages: ${warmMs.toFixed(0)} ms warm, ${coldMs.toFixed(0)} ms from a fresh start` +
        `  peak RSS ${mb(peakRss)}`,
    );
    console.log(
      `  index: of Charlie's ${(indexMs / 1000).toFixed(1)} s, index upkeep (compaction, vector and time indexes) ${(upkeepMs / 1000).toFixed(1)} s; ` +
        `the plain LanceDB peer's table, made from Charlie's rows (nothing chunked or embedded): copy ${(peerTimes.copyMs / 1000).toFixed(1)} s, full-text indexes ${(peerTimes.fullTextMs / 1000).toFixed(1)} s, vector index ${(peerTimes.vectorMs / 1000).toFixed(1)} s`,
    );
    console.log(
      `  recall CPU per search p50 ${percentile(cpuTimes, 50).toFixed(1)} ms p95 ${percentile(cpuTimes, 95).toFixed(1)} ms; phases (p50 / p95 ms): ${phaseLine(phases)}; load average ${loadavg()[0]!.toFixed(1)}`,
    );
  } finally {
    usage.close();
    rmSync(root, { recursive: true, force: true });
  }
}
clearInterval(sampler);
console.log(`peak memory: ${mb(Math.max(peakRss, process.resourceUsage().maxRSS * 1024))}`);
