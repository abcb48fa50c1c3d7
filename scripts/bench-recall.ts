/**
 * Speed of recall on synthetic corpora (built-in embedder, so model time is excluded).
 *
 *   npm run bench:recall [-- --sizes 1000,10000,100000 --pages 1000 --queries 200]
 *   npm run bench:recall -- --vector --sizes 1000000   (the vector phase alone, on derived rows: bench-recall-vector.ts)
 *   npm run bench:recall -- --sizes 1000000 --keep /var/tmp/recall   (pages, index and peer table kept: a second run only queries)
 *
 * For each size: 1,000 Markdown pages holding size/1,000 chunks each are written to a temp
 * project; prints indexing throughput (the whole sync, and of it the index upkeep; beside it how long the plain LanceDB
 * peer's copy and its full-text and vector indexes took), recall p50/p95 through `recall()` — as while the app's
 * projects/ watcher runs (no check of the pages before a search; `--unwatched`: with the check
 * before every search, as without a watcher) — beside a plain LanceDB query over the same table
 * (vector ∥ full-text, top 100) and the BM25 baseline of scripts/bm25.ts over the same sections, timed in the same loop, the time of an incremental reindex of the
 * unchanged tree (warm and from a fresh process state), and peak memory.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import * as lancedb from '@lancedb/lancedb';
import { applyIndexRuntime, loadConfig } from '../src/config.js';
import { tableName } from '../src/memory/index/table-layout.js';
import { peerTable, plainHybridQuery, type PeerBuildTimes } from './bench-plain-query.js';
import { silentLogger } from '../src/core/ports/index.js';
import { HashingEmbedder } from '../src/memory/index/hashing-embedder.js';
import { ProjectTable } from '../src/memory/index/project-table.js';
import { createRecall } from '../src/memory/recall.js';
import { nativeHeap, TRIM_LOGGED } from '../src/memory/index/native-heap.js';
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
    /** Build each size's corpus, index and peer table in this folder once and keep them; a later run only queries them (the same queries). */
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

/**
 * Writes the pages; returns every section's text, for the BM25 baseline over the same chunks.
 * `write` false draws the same words without writing (a kept corpus: the queries that follow are the same).
 */
function writeCorpus(projectDir: string, pages: number, chunksPerPage: number, keep = true, write = true): string[] {
  const docs: string[] = [];
  for (let p = 0; p < pages; p++) {
    const dir = join(projectDir, 'notes', `Topic-${Math.floor(p / 100)}`);
    if (write) mkdirSync(dir, { recursive: true });
    const sections = Array.from({ length: chunksPerPage }, (_, i) => `## Section ${i} ${word()}\n\n${sentence(30 + Math.floor(random() * 20))}.\n`);
    if (keep) docs.push(...sections);
    const title = word();
    if (write) writeFileSync(join(dir, `Page-${p}.md`), `---\ntitle: Page ${p} ${title}\nstaleness: 3\n---\n\n# Page ${p}\n\n${sections.join('\n')}`);
  }
  return docs;
}

/** A stretch of time on performance.now()'s clock (ms): a search (`label`: what it did), a collection or a trim (`kind`). */
interface Pause {
  at: number;
  ms: number;
  kind?: string;
  label?: string;
}

const GC_KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak callbacks' };
const gcKind = (kind: number | undefined) => (kind === undefined ? 'gc' : (GC_KINDS[kind] ?? `gc ${kind}`));

/** The trim the native heap just logged ("gave back", with its ms): it ended now. */
function lastTrim(obj: object | string): Pause {
  const ms = typeof obj === 'object' && 'ms' in obj ? Number(obj.ms) : 0;
  return { at: performance.now() - ms, ms, kind: 'trim' };
}

/** For the slowest 5% of `searches`: each one's length and label, and the collections and trims that fell inside them, summed by kind. */
function overlapLine(searches: Pause[], pauses: Pause[]): string {
  const slow = [...searches].sort((a, b) => b.ms - a.ms).slice(0, Math.max(1, Math.round(searches.length / 20)));
  const byKind = new Map<string, { n: number; ms: number }>();
  for (const s of slow)
    for (const p of pauses) {
      const inside = Math.min(s.at + s.ms, p.at + p.ms) - Math.max(s.at, p.at);
      if (inside <= 0) continue;
      const kind = p.kind ?? 'gc';
      const k = byKind.get(kind) ?? { n: 0, ms: 0 };
      byKind.set(kind, { n: k.n + 1, ms: k.ms + inside });
    }
  const kinds = [...byKind].map(([kind, k]) => `${kind} ×${k.n} ${k.ms.toFixed(1)} ms`).join(', ');
  return `${slow.length} searches, ${slow.map((s) => `${s.ms.toFixed(0)}${s.label ? ` (${s.label})` : ''}`).join('/')} ms: ${kinds || 'no collection or trim'}`;
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
/** When the native heap's trims ran (start and length, ms on performance.now()'s clock): a trim runs on the main thread. */
const trims: Pause[] = [];
const heap = nativeHeap({ ...silentLogger, debug: (obj: object | string, msg?: string) => msg === TRIM_LOGGED && trims.push(lastTrim(obj)) });
/** V8's collections while the searches ran. */
const collections: Pause[] = [];
const gcWatch = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) collections.push({ at: e.startTime, ms: e.duration, kind: gcKind((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind) });
});
gcWatch.observe({ entryTypes: ['gc'] });
for (const size of args.sizes.split(',').map(Number)) {
  const root = args.keep ? join(args.keep, String(size)) : mkdtempSync(join(tmpdir(), 'charlie-bench-recall-'));
  /** A corpus, index and peer table this folder already holds from an earlier run with --keep, of as many pages. */
  const marker = join(root, 'complete');
  const kept = args.keep !== undefined && existsSync(marker) && readFileSync(marker, 'utf8') === args.pages;
  if (args.keep && !kept) rmSync(root, { recursive: true, force: true });
  const projectsDir = join(root, 'projects');
  const dataDir = join(root, 'data');
  const usage = new SqliteUsageStore(join(dataDir, 'usage.sqlite'));
  try {
    const step = (what: string) => process.stderr.write(`  [${size}] ${what}\n`);
    step(kept ? "drawing the kept corpus's words (nothing written)" : 'writing pages');
    const withBm25 = size <= Number(args['bm25-max']);
    const docs = writeCorpus(join(projectsDir, 'bench'), pages, Math.max(1, Math.round(size / pages)), withBm25, !kept);
    step(kept ? 'checking the kept index' : 'indexing');
    /** How long each phase of the measured searches took (embed, sync, vector, keyword, temporal, fuse). */
    const phases = new Map<string, number[]>();
    let timing = false;
    /** The phases of the search under way, named with their ms ("vector 41"), shown for the slowest. */
    let thisSearch: string[] = [];
    const phase = (name: string, ms: number) => {
      if (!timing) return;
      thisSearch.push(`${name} ${ms.toFixed(0)}`);
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
    const peerTimes: PeerBuildTimes = { copyMs: 0, fullTextMs: 0, vectorMs: 0 };
    let table: lancedb.Table;
    if (kept) table = await peerDb.openTable('plain');
    else {
      step('copying the table for the plain LanceDB peer');
      const charlies = await db.openTable(tableName('bench', embedder.id));
      table = await peerTable(peerDb, charlies, 'plain', peerTimes);
      charlies.close();
      if (args.keep) writeFileSync(marker, args.pages);
    }
    const times: number[] = [];
    /** CPU time of the process (every thread) during each search: the work, whatever the machine's load. */
    const cpuTimes: number[] = [];
    const bm25Times: number[] = [];
    const lexical = buildBm25(docs);
    const plain: number[] = [];
    const n = Number(args.queries);
    /** Each measured search's start and length (ms), to see what the slowest ones overlapped. */
    const searches: Pause[] = [];
    const plainSearches: Pause[] = [];
    const firstTrim = trims.length;
    const firstCollection = collections.length;
    for (let i = 0; i < n + 30; i++) {
      // every fourth question names a time, so the temporal pass (a filtered search) is measured too
      const q = sentence(2 + Math.floor(random() * 4)) + (i % 4 === 3 ? ' last week' : '');
      // the first queries warm caches and thread pools
      timing = i >= 30;
      thisSearch = [];
      const cpu = process.cpuUsage();
      t = performance.now();
      const startedAt = t;
      await service.recall.recall(q, { project: 'bench', limit: 10 });
      const ours = performance.now() - t;
      const used = process.cpuUsage(cpu);
      timing = false;
      t = performance.now();
      const plainAt = t;
      const [vector] = await embedder.embed([q]);
      await plainHybridQuery(table, vector!, q);
      const plainMs = performance.now() - t;
      t = performance.now();
      if (withBm25) searchBm25(lexical, q, 10);
      const bm25Ms = performance.now() - t;
      if (i >= 30) {
        cpuTimes.push((used.user + used.system) / 1000);
        searches.push({ at: startedAt, ms: ours, label: `${i % 4 === 3 ? 'dated; ' : ''}${thisSearch.join(', ')}; CPU ${((used.user + used.system) / 1000).toFixed(0)}` });
        plainSearches.push({ at: plainAt, ms: plainMs });
        times.push(ours);
        plain.push(plainMs);
        bm25Times.push(bm25Ms);
      }
    }
    const chunks = kept ? await table.countRows() : built.chunks;
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
    const indexed = kept
      ? `kept index checked in ${(indexMs / 1000).toFixed(1)} s (built by an earlier run)`
      : `index ${(indexMs / 1000).toFixed(1)} s (${Math.round((built.chunks / indexMs) * 1000)} chunks/s)`;
    console.log(
      `${String(chunks).padStart(7)} chunks: ${indexed}` +
        `  recall p50 ${percentile(times, 50).toFixed(1)} ms p95 ${percentile(times, 95).toFixed(1)} ms` +
        `  plain LanceDB p50 ${percentile(plain, 50).toFixed(1)} ms p95 ${percentile(plain, 95).toFixed(1)} ms (recall ${(percentile(times, 50) / percentile(plain, 50)).toFixed(2)}×)` +
        (withBm25 ? ` (BM25 over the same ${docs.length} sections: p50 ${percentile(bm25Times, 50).toFixed(2)} ms p95 ${percentile(bm25Times, 95).toFixed(2)} ms)` : '') +
        `  unchanged reindex of ${built.pages} pages: ${warmMs.toFixed(0)} ms warm, ${coldMs.toFixed(0)} ms from a fresh start` +
        `  peak RSS ${mb(peakRss)}`,
    );
    if (!kept)
      console.log(
        `  index: of Charlie's ${(indexMs / 1000).toFixed(1)} s, index upkeep (compaction, vector and time indexes) ${(upkeepMs / 1000).toFixed(1)} s; ` +
          `the plain LanceDB peer's table, made from Charlie's rows (nothing chunked or embedded): copy ${(peerTimes.copyMs / 1000).toFixed(1)} s, full-text indexes ${(peerTimes.fullTextMs / 1000).toFixed(1)} s, vector index ${(peerTimes.vectorMs / 1000).toFixed(1)} s`,
      );
    console.log(
      `  recall CPU per search p50 ${percentile(cpuTimes, 50).toFixed(1)} ms p95 ${percentile(cpuTimes, 95).toFixed(1)} ms; phases (p50 / p95 ms): ${phaseLine(phases)}; load average ${loadavg()[0]!.toFixed(1)}`,
    );
    const pauses = [...collections.slice(firstCollection), ...trims.slice(firstTrim)];
    console.log(`  what the slowest 5% of searches overlapped: Charlie's ${overlapLine(searches, pauses)}; the plain peer's ${overlapLine(plainSearches, pauses)}`);
  } finally {
    usage.close();
    if (!args.keep) rmSync(root, { recursive: true, force: true });
  }
}
gcWatch.disconnect();
clearInterval(sampler);
console.log(`peak memory: ${mb(Math.max(peakRss, process.resourceUsage().maxRSS * 1024))}`);
