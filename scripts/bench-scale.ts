/**
 * `npm run bench:scale`: what a year of memory costs per turn, beside an empty project.
 *
 *   npm run bench:scale [-- --pages 10000 --days 365 --projects 20 --turns 500 --model-ms 50]
 *
 * Writes a household memory (scripts/bench-scale-data.ts) to a temp folder, indexes it, then runs
 * Charlie's real composition (`buildApp`, the watcher on) against a scripted model server that
 * answers after a fixed delay, and measures for the large memory and for an empty project:
 *   - per-turn overhead (turn time minus the model's own time, timed straight at the server in
 *     the same run) p50/p95, and the part before the model is called;
 *   - recall through `searchMemory` and a plain LanceDB query (vector ∥ full-text, top 100) over
 *     the same table;
 *   - a hand edit: main-thread time spent in the 3 s after it (nothing else asked of the app), and,
 *     for a second edit looked for every 50 ms, the time until a search finds it (and the main
 *     thread's time in its 3 s, those searches included: the figure of the runs before 2026-12-07);
 *   - RSS after 0, 50, 100, 200, 500 turns (after a GC);
 *   - start-up of the terminal chat to its prompt and its idle RSS, against `--version`.
 * Everything is printed with the ratio large / empty. `--profile-edit DIR`: a CPU profile of each
 * scenario's hand edit alone (its busy figure then counts the profiler too).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { Session } from 'node:inspector/promises';
import { performance, PerformanceObserver, constants as perfConstants, type PerformanceEntry } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import * as lancedb from '@lancedb/lancedb';
import { applyIndexRuntime, loadConfig } from '../src/config.js';
import { silentLogger, type Logger } from '../src/core/ports/index.js';
import { HashingEmbedder } from '../src/memory/index/hashing-embedder.js';
import { tableName } from '../src/memory/index/table-layout.js';
import { peerTable, plainHybridQuery } from './bench-plain-query.js';
import { createRecall } from '../src/memory/recall.js';
import { SqliteUsageStore } from '../src/storage/usage-store.js';
import { buildApp } from '../src/main.js';
import { startFakeModelServer } from '../test/support/fake-model-server.js';
import { chatStartEnv, consoleLogger, percentile, scriptArgs, START_NODE_FLAGS, startEnv, timeStart } from './bench-util.js';
import { formatProcMemory, procMemory, reducingGc } from './proc-memory.js';
import { MAIN, SPEAKER, writeEmpty, writeHousehold, type Household } from './bench-scale-data.js';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '10000' },
    days: { type: 'string', default: '365' },
    projects: { type: 'string', default: '20' },
    turns: { type: 'string', default: '500' },
    'model-ms': { type: 'string', default: '50' },
    queries: { type: 'string', default: '60' },
    'skip-startup': { type: 'boolean', default: false },
    /** A folder: each scenario's process writes a CPU profile there (node --cpu-prof). */
    profile: { type: 'string' },
    /** A folder: each scenario writes a CPU profile of its hand edit's 3 s alone there (`<label>-edit.cpuprofile`). */
    'profile-edit': { type: 'string' },
    /** A folder: each scenario writes a V8 heap snapshot there at 50 and at its last RSS point, to diff in DevTools. */
    'heap-snapshots': { type: 'string' },
    child: { type: 'string' },
    label: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
const TURNS = Number(args.turns);
const MODEL_MS = Number(args['model-ms']);
const RSS_AT = [0, 50, 100, 200, 500].filter((n) => n <= TURNS);
const REPLY = 'Noted — I will keep that in mind.';
const step = (what: string) => process.stderr.write(`  · ${what}\n`);
const mb = (bytes: number) => bytes / 1024 / 1024;
const gc = (globalThis as { gc?: () => void }).gc;
const GC_KINDS: Record<number, string> = {
  [perfConstants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [perfConstants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [perfConstants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Figures {
  label: string;
  overhead: number[];
  beforeModel: number[];
  /** The garbage collector's pauses within each turn (ms), and which turns had a major collection. */
  turnGc: number[];
  /** The part of each turn's overhead after the model answered (archiving the reply, reminders noted). */
  afterModel: number[];
  /** The overhead of the turns whose message names a page ("Did … call back?"). */
  namedOverhead: number[];
  turnMajor: boolean[];
  recall: number[];
  plain: number[];
  editBusyMs: number;
  /** Of it, the garbage collector's pauses (PerformanceObserver 'gc' entries in the same 3 s). */
  editGcMs: number;
  /** The main thread's CPU time in the same 3 s: its work, without the time it waited for a core. */
  editCpuMs: number;
  editFoundMs: number;
  /** Main-thread time in the 3 s after a second edit, with the searches that looked for it every 50 ms. */
  editPolledBusyMs: number;
  rss: Map<number, number>;
  /** JS heap in use at the same points: RSS growth beyond it is native (LanceDB, SQLite) or freed-but-kept memory. */
  heap: Map<number, number>;
  /** Memory V8 knows of outside its heap (Buffers, Arrow's ArrayBuffers) at the same points. */
  external: Map<number, number>;
  /** The process's thread count at the same points (LanceDB's pools start on its first use). */
  threads: Map<number, number>;
  buildMs: number;
}

/** The model's own time: a streamed request straight at the server, read to the end. */
async function modelAlone(url: string): Promise<number> {
  const body = JSON.stringify({ model: 'fake-model', stream: true, messages: [{ role: 'user', content: 'model alone' }] });
  const t = performance.now();
  const res = await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  await res.text();
  return performance.now() - t;
}

/** The index is derived: built before the app starts, as a household running for a year has it. */
async function buildIndex(root: string): Promise<void> {
  const usage = new SqliteUsageStore(join(root, 'data', 'usage.db'));
  const service = createRecall({ projectsDir: join(root, 'projects'), dataDir: join(root, 'data'), embedder: new HashingEmbedder(), usage, logger: silentLogger });
  await service.syncAll();
  await service.close();
  usage.close();
}

/** One scenario in a fresh process, so its RSS is the app's and not the data generator's or the indexer's. */
function inChild(label: string, root: string, titles: string[]): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const extra = Object.entries(args).flatMap(([k, v]) => (typeof v === 'string' ? [`--${k}`, v] : v ? [`--${k}`] : []));
    const profile = args.profile ? ['--cpu-prof', '--cpu-prof-dir', args.profile] : [];
    const child = spawn(
      process.execPath,
      [...profile, ...START_NODE_FLAGS, '--expose-gc', '--disable-warning=ExperimentalWarning', ...scriptArgs('bench-scale'), ...extra, '--child', root, '--label', label],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
        env: startEnv(process.env),
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stdin.end(JSON.stringify(titles));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`scenario ${label} failed (exit ${String(code)})`));
        return;
      }
      const f = JSON.parse(out.trim().split('\n').at(-1)!) as Figures & { rss: [number, number][]; heap: [number, number][]; external: [number, number][]; threads: [number, number][] };
      resolve({ ...f, rss: new Map(f.rss), heap: new Map(f.heap), external: new Map(f.external), threads: new Map(f.threads) });
    });
  });
}

async function scenario(label: string, household: Household | null, root: string, logger: Logger): Promise<Figures> {
  const projectsDir = join(root, 'projects');
  const dataDir = join(root, 'data');
  const arrivals = new Map<string, number>();
  const model = await startFakeModelServer((body: { messages?: { content?: unknown }[] }) => {
    const last = body.messages?.at(-1)?.content;
    const m = /\[turn (\d+)\]/.exec(typeof last === 'string' ? last : JSON.stringify(last ?? ''));
    if (m) arrivals.set(m[1]!, performance.now());
    return { text: REPLY, delayMs: MODEL_MS };
  });
  const config = loadConfig(
    { LLM_BASE_URL: model.url, LLM_MODEL: 'fake-model', EMBEDDER: 'builtin', WATCH_PROJECTS: 'true', PROJECTS_DIR: projectsDir, DATA_DIR: dataDir, WEB_PORT: '0', LOG_LEVEL: 'silent' },
    root,
  );
  let t = performance.now();
  const app = await buildApp(config, logger);
  const buildMs = performance.now() - t;
  const figures: Figures = {
    label,
    overhead: [],
    beforeModel: [],
    turnGc: [],
    afterModel: [],
    namedOverhead: [],
    turnMajor: [],
    recall: [],
    plain: [],
    editBusyMs: 0,
    editGcMs: 0,
    editCpuMs: 0,
    editFoundMs: 0,
    editPolledBusyMs: 0,
    rss: new Map(),
    heap: new Map(),
    external: new Map(),
    threads: new Map(),
    buildMs,
  };
  try {
    for (let i = 0; i < 5; i++) await modelAlone(model.url); // warm the connection
    const place = { kind: 'project' as const, origin: { name: MAIN.name, key: MAIN.key } };
    const titles = household?.titles ?? [];
    const sample = () => {
      reducingGc();
      const m = process.memoryUsage();
      return { rss: mb(m.rss), heap: mb(m.heapUsed), external: mb(m.external) };
    };
    const record = (i: number) => {
      const m = sample();
      const proc = procMemory();
      step(`${label} after ${i} turns: ${formatProcMemory(proc)}`);
      figures.threads.set(i, proc.threads);
      figures.rss.set(i, m.rss);
      figures.heap.set(i, m.heap);
      figures.external.set(i, m.external);
      if (args['heap-snapshots'] && (i === 50 || i === RSS_AT.at(-1))) writeHeapSnapshot(join(args['heap-snapshots'], `${label.replace(/\W+/g, '-')}-${i}.heapsnapshot`));
    };
    await sleep(1500); // let the start-up scans settle
    // LanceDB loads on the first search or index update, once (its library, ~40 MB of code, and its
    // thread pools): one search first, so that this one-time step does not read as growth per turn
    step(`${label} before the first search: ${formatProcMemory(procMemory())}`);
    await app.assistant.memory.searchMemory(place, 'boiler', 8);
    record(0);
    step(`${label}: ${TURNS} turns`);
    // the model's own time, timed between the turns of the same run (so machine load hits both alike)
    const own: number[] = [];
    const totals: number[] = [];
    const turnPauses: PerformanceEntry[] = [];
    const windows: [start: number, ms: number][] = [];
    const arrivedAt: number[] = [];
    const turnGcs = new PerformanceObserver((list) => turnPauses.push(...list.getEntries()));
    turnGcs.observe({ entryTypes: ['gc'] });
    for (let i = 1; i <= TURNS; i++) {
      const named = titles.length > 0 && i % 3 === 0 ? ` Did ${titles[(i * 7919) % titles.length]} call back?` : '';
      const text = `Can you remember the ${['boiler', 'school run', 'dentist'][i % 3]} thing for later?${named} [turn ${i}]`;
      t = performance.now();
      const outcome = await app.assistant.conversation.handle({ place, speaker: SPEAKER, text, source: `terminal:${i}` });
      const total = performance.now() - t;
      if (outcome.reply !== REPLY) throw new Error(`turn ${i} did not get the scripted reply: ${outcome.reply}`);
      const arrived = arrivals.get(String(i));
      arrivals.delete(String(i));
      if (arrived !== undefined) figures.beforeModel.push(arrived - t);
      arrivedAt.push(arrived === undefined ? NaN : arrived - t);
      totals.push(total);
      windows.push([t, total]);
      // the fake server keeps every request body; the app does not, so neither may its RSS
      model.requests.length = 0;
      model.requestHeaders.length = 0;
      await sleep(10);
      own.push(await modelAlone(model.url));
      if (RSS_AT.includes(i)) record(i);
    }
    await sleep(50); // the observer is told of a pause after it
    turnGcs.disconnect();
    // the pauses that began within each turn
    for (const [began, ms] of windows) {
      const mine = turnPauses.filter((e) => e.startTime >= began && e.startTime < began + ms);
      figures.turnGc.push(mine.reduce((sum, e) => sum + e.duration, 0));
      figures.turnMajor.push(mine.some((e) => (e as { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR));
    }
    const ownP50 = percentile(own, 50);
    figures.overhead = totals.map((t) => Math.max(0, t - ownP50));
    // what the turn did once the model had answered: the turn's time after the request arrived, less the model's own
    figures.afterModel = totals.map((t, i) => Math.max(0, t - (arrivedAt[i] ?? NaN) - ownP50)).filter((v) => Number.isFinite(v));
    figures.namedOverhead = figures.overhead.filter((_o, i) => (i + 1) % 3 === 0 && titles.length > 0);
    step(`${label}: recall`);
    const queries = Number(args.queries);
    const db = await lancedb.connect(join(dataDir, 'index'));
    const peerDb = await lancedb.connect(join(dataDir, 'plain-lancedb')); // its own folder: Charlie's index never sees it
    const charlies = await db.openTable(tableName(MAIN.slug, new HashingEmbedder().id));
    const table = await peerTable(peerDb, charlies, 'plain');
    charlies.close();
    const embedder = new HashingEmbedder();
    for (let i = 0; i < queries + 10; i++) {
      const q = `${['boiler', 'school', 'dentist', 'insurance'][i % 4]} ${titles.length ? titles[(i * 31) % titles.length] : 'plans'}`;
      t = performance.now();
      await app.assistant.memory.searchMemory(place, q, 8);
      const ours = performance.now() - t;
      t = performance.now();
      const vector = (await embedder.embed([q]))[0]!;
      await plainHybridQuery(table, vector, q);
      const plain = performance.now() - t;
      if (i >= 10) {
        figures.recall.push(ours);
        figures.plain.push(plain);
      }
    }
    table.close();
    db.close();
    peerDb.close();
    step(`${label}: a hand edit`);
    const page = join(projectsDir, MAIN.slug, 'notes', 'People', `${SPEAKER.replace(/ /g, '-')}.md`);
    const edit = (marker: string) => {
      if (existsSync(page)) appendFileSync(page, `\n### 2026-11-30\n\nPlans a trip with a ${marker}.\n`);
      else {
        mkdirSync(dirname(page), { recursive: true });
        writeFileSync(page, `---\nschema: 1\ntitle: ${SPEAKER}\ncategory: People\n---\n\n### 2026-11-30\n\nPlans a trip with a ${marker}.\n`);
      }
    };
    const found = async (marker: string) => (await app.assistant.memory.searchMemory(place, marker, 3)).some((h) => h.text.includes(marker));
    /** Main-thread time, GC pauses and CPU time in the 3 s after an edit; `during` runs in that window (searching for it, or nothing). */
    const window3s = async (during: (t: number) => Promise<void>) => {
      // a full collection first: the edit is not charged for collecting what the turns and searches before it left
      // (a major GC's marking at 10,000 pages, about 45 ms of main-thread CPU, fell in the window in some runs and not others)
      reducingGc();
      await sleep(100);
      const pauses: PerformanceEntry[] = [];
      const gcs = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
      gcs.observe({ entryTypes: ['gc'] });
      const elu = performance.eventLoopUtilization();
      const cpu = process.threadCpuUsage();
      const start = performance.now();
      await during(start);
      await sleep(Math.max(0, 3000 - (performance.now() - start)));
      const busy = performance.eventLoopUtilization(elu).active;
      const used = process.threadCpuUsage(cpu);
      await sleep(20); // the observer is told of a pause after it
      gcs.disconnect();
      return { busy, cpu: (used.user + used.system) / 1000, gc: pauses.reduce((sum, e) => sum + e.duration, 0), pauses };
    };
    const profiler = args['profile-edit'] ? await editProfiler() : null;
    // the edit alone: nothing else is asked of the app in its 3 s (the searches that look for it cost what recall costs, its own row)
    const alone = await window3s(async () => edit('zanzibarquokka'));
    if (!(await found('zanzibarquokka'))) throw new Error(`${label}: the hand edit was not searchable 3 s after it`);
    figures.editBusyMs = alone.busy;
    figures.editGcMs = alone.gc;
    figures.editCpuMs = alone.cpu;
    const kinds = new Map<number, number[]>();
    for (const e of alone.pauses) {
      const kind = (e as { detail?: { kind?: number } }).detail?.kind ?? 0;
      kinds.set(kind, [...(kinds.get(kind) ?? []), e.duration]);
    }
    step(`${label}: the hand edit's GC pauses: ${[...kinds].map(([k, d]) => `${GC_KINDS[k] ?? k} ${d.length}× ${d.reduce((a, b) => a + b, 0).toFixed(1)} ms`).join(', ') || 'none'}`);
    // a second edit, looked for every 50 ms until a search finds it (the figure of the runs before 2026-12-07, searches included)
    const polled = await window3s(async (t) => {
      edit('quokkazanzibar');
      figures.editFoundMs = NaN;
      while (performance.now() - t < 10_000) {
        if (await found('quokkazanzibar')) {
          figures.editFoundMs = performance.now() - t;
          break;
        }
        await sleep(50);
      }
    });
    figures.editPolledBusyMs = polled.busy;
    if (profiler) writeFileSync(join(args['profile-edit']!, `${label.replace(/\W+/g, '-')}-edit.cpuprofile`), await profiler.stop());
  } finally {
    await app.close();
    await model.close();
  }
  return figures;
}

/** A CPU profile of this process from now until `stop()` (the inspector's, as `--cpu-prof` writes it). */
async function editProfiler(): Promise<{ stop: () => Promise<string> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    stop: async () => {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      return JSON.stringify(profile);
    },
  };
}

/** Start-up of the terminal chat to its prompt line and its RSS once idle, against `--version`. */
async function startup(root: string): Promise<{ version: number; chat: number; idleRss: number }> {
  const model = await startFakeModelServer(() => ({ text: REPLY }));
  const env = chatStartEnv(root, model.url);
  // what `npm start` runs: the start-up build (bin/build.mjs); the first --version builds it if stale
  const run = (extra: string[], until: RegExp | null) => timeStart(['--disable-warning=ExperimentalWarning', 'bin/charlie.mjs', ...extra], env, until);
  try {
    const version: number[] = [];
    const chat: number[] = [];
    let idleRss = 0;
    await run(['--version'], null); // a source edited since the last start is built here, not timed
    for (let i = 0; i < 3; i++) {
      version.push((await run(['--version'], null)).ms);
      const c = await run(['--project', 'empty'], /— project /);
      chat.push(c.ms);
      idleRss = Math.max(idleRss, c.rss);
    }
    return { version: percentile(version, 50), chat: percentile(chat, 50), idleRss };
  } finally {
    await model.close();
  }
}

const pad = (s: string, n: number) => s.padEnd(n);
const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : 'n/a');
function row(what: string, big: number, empty: number, unit: (v: number) => string = ms): void {
  const ratio = empty > 0 && Number.isFinite(big) && Number.isFinite(empty) ? `${(big / empty).toFixed(2)}×` : 'n/a';
  console.log(`  ${pad(what, 44)} ${pad(unit(big), 12)} ${pad(unit(empty), 12)} ${ratio}`);
}

applyIndexRuntime(loadConfig({}));
const logger = args.verbose ? consoleLogger('debug') : silentLogger;
if (args.child) {
  const titles = JSON.parse(readFileSync(0, 'utf8')) as string[];
  const f = await scenario(args.label ?? '', titles.length ? { titles, days: 0 } : null, args.child, logger);
  process.stdout.write(`${JSON.stringify({ ...f, rss: [...f.rss], heap: [...f.heap], external: [...f.external], threads: [...f.threads] })}\n`);
  process.exit(0);
}
const pages = Number(args.pages);
const end = new Date();
const bigRoot = mkdtempSync(join(tmpdir(), 'charlie-bench-scale-'));
const emptyRoot = mkdtempSync(join(tmpdir(), 'charlie-bench-empty-'));
try {
  step(`writing ${pages} pages, ${args.days} days of archives, ${args.projects} projects`);
  const household = writeHousehold(join(bigRoot, 'projects'), { pages, days: Number(args.days), projects: Number(args.projects), end });
  writeEmpty(join(emptyRoot, 'projects'));
  step('indexing');
  await buildIndex(bigRoot);
  await buildIndex(emptyRoot);
  const big = await inChild(`${pages} pages`, bigRoot, household.titles);
  const empty = await inChild('empty', emptyRoot, []);
  console.log(
    `\nbench:scale — ${pages} entity pages, ${args.days} days of archives, ${args.projects} projects; ${TURNS} turns; model answers after ${MODEL_MS} ms${gc ? '' : ' (run with --expose-gc for steady RSS)'}`,
  );
  console.log(`  ${pad('', 44)} ${pad(`${pages} pages`, 12)} ${pad('empty', 12)} ratio`);
  row('per-turn overhead p50', percentile(big.overhead, 50), percentile(empty.overhead, 50));
  row('per-turn overhead p95', percentile(big.overhead, 95), percentile(empty.overhead, 95));
  row('  of which before the model, p50', percentile(big.beforeModel, 50), percentile(empty.beforeModel, 50));
  row('  of which before the model, p95', percentile(big.beforeModel, 95), percentile(empty.beforeModel, 95));
  row('  of which after the model, p50', percentile(big.afterModel, 50), percentile(empty.afterModel, 50));
  row('  of which after the model, p95', percentile(big.afterModel, 95), percentile(empty.afterModel, 95));
  if (big.namedOverhead.length) console.log(`  ${pad('  p95 of the turns that name a page', 44)} ${pad(`${percentile(big.namedOverhead, 95).toFixed(1)} ms`, 12)}`);
  row('  garbage collection within a turn, p95', percentile(big.turnGc, 95), percentile(empty.turnGc, 95));
  const withoutMajor = (f: Figures) => f.overhead.filter((_o, i) => !f.turnMajor[i]);
  row('  overhead p95 of turns without a major GC', percentile(withoutMajor(big), 95), percentile(withoutMajor(empty), 95));
  console.log(`  ${pad('  turns with a major GC', 44)} ${pad(String(big.turnMajor.filter(Boolean).length), 12)} ${pad(String(empty.turnMajor.filter(Boolean).length), 12)}`);
  row('recall (searchMemory) p50', percentile(big.recall, 50), percentile(empty.recall, 50));
  row('recall (searchMemory) p95', percentile(big.recall, 95), percentile(empty.recall, 95));
  row('plain LanceDB vector ∥ FTS p50', percentile(big.plain, 50), percentile(empty.plain, 50));
  console.log(
    `  ${pad('recall p50 / plain LanceDB p50', 44)} ${pad(`${(percentile(big.recall, 50) / percentile(big.plain, 50)).toFixed(2)}×`, 12)} ${pad(`${(percentile(empty.recall, 50) / percentile(empty.plain, 50)).toFixed(2)}×`, 12)}`,
  );
  row('hand edit: main-thread time in the next 3 s', big.editBusyMs, empty.editBusyMs);
  row('  of which garbage collection', big.editGcMs, empty.editGcMs);
  row("  the main thread's CPU time in those 3 s", big.editCpuMs, empty.editCpuMs);
  row('hand edit: until searchable', big.editFoundMs, empty.editFoundMs);
  row('  main-thread time in its 3 s, searching for it', big.editPolledBusyMs, empty.editPolledBusyMs);
  row('app build (buildApp)', big.buildMs, empty.buildMs);
  const rssText = (v: number) => `${v.toFixed(0)} MB`;
  for (const n of RSS_AT) row(`RSS after ${n} turns`, big.rss.get(n) ?? NaN, empty.rss.get(n) ?? NaN, rssText);
  for (const n of RSS_AT) row(`  JS heap in use after ${n} turns`, big.heap.get(n) ?? NaN, empty.heap.get(n) ?? NaN, rssText);
  for (const n of RSS_AT) row(`  external (Buffers, Arrow) after ${n} turns`, big.external.get(n) ?? NaN, empty.external.get(n) ?? NaN, rssText);
  for (const n of RSS_AT) row(`  threads after ${n} turns`, big.threads.get(n) ?? NaN, empty.threads.get(n) ?? NaN, (v) => v.toFixed(0));
  const last = RSS_AT.at(-1)!;
  if (RSS_AT.includes(50) && last > 50) {
    const growth = (f: Figures) => `${(((f.rss.get(last)! - f.rss.get(50)!) / f.rss.get(50)!) * 100).toFixed(1)} %`;
    console.log(`  ${pad(`RSS growth, 50 → ${last} turns`, 44)} ${pad(growth(big), 12)} ${pad(growth(empty), 12)}`);
  }
  if (!args['skip-startup']) {
    step('start-up');
    const s = await startup(emptyRoot);
    console.log(`\nstart-up (empty project, terminal chat, WEB_PORT=0), median of 3:`);
    console.log(`  --version ${ms(s.version)} · chat to its prompt ${ms(s.chat)} · difference ${ms(s.chat - s.version)} · idle RSS ${rssText(mb(s.idleRss))}`);
  }
} finally {
  rmSync(bigRoot, { recursive: true, force: true });
  rmSync(emptyRoot, { recursive: true, force: true });
}
