/**
 * `npm run bench:recall -- --build`: peak memory of building the index of a corpus, Charlie's
 * build (`sync` of a fresh index) beside a plain LanceDB build of the same chunks (chunked,
 * embedded and added 2,048 rows at a time, then the same vector index and compaction), each in
 * its own process so neither counts the other's memory (or the corpus generator's). The peak is
 * the kernel's high-water mark of the child (VmHWM in /proc/<pid>/status); each build is split
 * into its two phases (chunk, embed and write; then the vector index and compaction), with the
 * time and the highest sampled RSS of each, and the JS heap and Arrow/Buffer memory at that RSS.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { silentLogger } from '../src/core/ports/index.js';
import { chunkPage } from '../src/memory/index/chunker.js';
import { HashingEmbedder } from '../src/memory/index/hashing-embedder.js';
import { ProjectTable } from '../src/memory/index/project-table.js';
import { nativeHeap } from '../src/memory/index/native-heap.js';
import { createRecall } from '../src/memory/recall.js';
import { SqliteUsageStore } from '../src/storage/usage-store.js';
import { scriptArgs, START_NODE_FLAGS, startEnv } from './bench-util.js';

export interface BuildFigures {
  chunks: number;
  ms: number;
  /** Peak resident set size of the process (VmHWM), bytes. */
  peakRss: number;
  /** Time spent embedding, ms (within the write phase). */
  embedMs: number;
  phases: PhaseFigures[];
}

export interface PhaseFigures {
  name: string;
  ms: number;
  /** Highest RSS sampled in the phase, with the JS heap in use and `external` (Arrow, Buffers) at that sample, bytes. */
  rss: number;
  heapUsed: number;
  external: number;
}

/** The kernel's peak RSS of this process: VmHWM from /proc (Linux), else getrusage's maxRSS. */
function highWaterMark(): number {
  const m = existsSync('/proc/self/status') ? /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8')) : null;
  return m ? Number(m[1]) * 1024 : process.resourceUsage().maxRSS * 1024;
}

/** Samples memory every 20 ms and splits it by phase. */
class PhaseMeter {
  private readonly done: PhaseFigures[] = [];
  private current: PhaseFigures & { started: number } = { name: 'start', ms: 0, rss: 0, heapUsed: 0, external: 0, started: performance.now() };
  private readonly timer = setInterval(() => this.sample(), 20);

  sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss <= this.current.rss) return;
    const m = process.memoryUsage();
    Object.assign(this.current, { rss: m.rss, heapUsed: m.heapUsed, external: m.external });
  }

  enter(name: string): void {
    if (name === this.current.name) return;
    this.sample();
    this.done.push({ ...this.current, ms: performance.now() - this.current.started });
    this.current = { name, ms: 0, rss: 0, heapUsed: 0, external: 0, started: performance.now() };
  }

  finish(): PhaseFigures[] {
    this.enter('end');
    clearInterval(this.timer);
    return this.done.filter((p) => p.name !== 'start').map(({ name, ms, rss, heapUsed, external }) => ({ name, ms, rss, heapUsed, external }));
  }
}

/** The built-in embedder, timed. */
class TimedEmbedder extends HashingEmbedder {
  ms = 0;

  override async embed(texts: string[]): Promise<Float32Array[]> {
    const t = performance.now();
    const out = await super.embed(texts);
    this.ms += performance.now() - t;
    return out;
  }
}

const ROWS_PER_ADD = 2048;
const EMBED_BATCH = 64;

/** Runs one build in a child process (`kind` charlie or lancedb) over `root`'s corpus. */
export function measureBuild(kind: 'charlie' | 'lancedb', root: string): BuildFigures {
  // as `npm start` runs Charlie (its node flags and malloc settings), so the peak RSS is the product's
  const out = spawnSync(process.execPath, [...START_NODE_FLAGS, '--disable-warning=ExperimentalWarning', ...scriptArgs('bench-recall'), '--build-child', kind, '--root', root], {
    env: startEnv(process.env),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
  });
  if (out.status !== 0) throw new Error(`${kind} build failed (exit ${out.status})`);
  return JSON.parse(out.stdout.trim().split('\n').pop()!) as BuildFigures;
}

/** The child's side: builds, then prints its figures as one JSON line. */
export async function buildChild(kind: string, root: string): Promise<void> {
  const projectsDir = join(root, 'projects');
  const meter = new PhaseMeter();
  const embedder = new TimedEmbedder();
  const started = performance.now();
  let chunks: number;
  if (kind === 'charlie') {
    const dataDir = join(root, `data-charlie-${process.pid}`);
    const usage = new SqliteUsageStore(join(dataDir, 'usage.sqlite'));
    // the phases, seen from outside: the first batch's write starts the first, the table's optimize the second
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its table below
    const optimize = ProjectTable.prototype.optimize;
    ProjectTable.prototype.optimize = function (this: ProjectTable, keepMs?: number) {
      meter.enter('index + optimize');
      return optimize.call(this, keepMs);
    };
    const logger = { ...silentLogger, debug: (obj: object | string, msg?: string) => msg === 'writing chunks' && meter.enter('chunk + embed + write') };
    const service = createRecall({ projectsDir, dataDir, embedder, usage, logger: { ...logger, child: () => logger }, freed: nativeHeap(silentLogger).freed });
    chunks = (await service.sync('bench')).chunks;
    await service.close();
    usage.close();
  } else {
    chunks = await plainBuild(join(projectsDir, 'bench'), join(root, `data-lancedb-${process.pid}`, 'index'), embedder, meter);
  }
  const ms = performance.now() - started;
  const figures: BuildFigures = { chunks, ms, peakRss: highWaterMark(), embedMs: embedder.ms, phases: meter.finish() };
  console.log(JSON.stringify(figures));
}

/** The peer: the same chunks and rows, streamed into a LanceDB table, then indexed and compacted as Charlie's are. */
async function plainBuild(projectDir: string, indexDir: string, embedder: HashingEmbedder, meter: PhaseMeter): Promise<number> {
  meter.enter('chunk + embed + write');
  const db = await lancedb.connect(indexDir);
  let table: lancedb.Table | null = null;
  let rows: Record<string, unknown>[] = [];
  let chunks = 0;
  const flush = async () => {
    if (rows.length === 0) return;
    if (table) await table.add(rows);
    else table = await db.createTable('bench', rows);
    rows = [];
  };
  const files = readdirSync(projectDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const file of files) {
    const page = relative(projectDir, file).split(sep).join('/');
    const pageChunks = chunkPage(page, readFileSync(file, 'utf8'));
    for (let i = 0; i < pageChunks.length; i += EMBED_BATCH) {
      const batch = pageChunks.slice(i, i + EMBED_BATCH);
      const vectors = await embedder.embed(batch.map((c) => `${c.heading}\n${c.text}`));
      batch.forEach((c, j) =>
        rows.push({
          page: c.page,
          heading: c.heading,
          line_start: c.lineStart,
          line_end: c.lineEnd,
          text: c.text,
          search_text: `${c.heading}\n${c.text}`,
          context: c.context,
          entity: c.entity,
          updated: c.updated,
          staleness: c.staleness,
          sensitivity: c.sensitivity,
          hash: c.hash,
          embedder: embedder.id,
          vector: Array.from(vectors[j]!),
        }),
      );
    }
    chunks += pageChunks.length;
    if (rows.length >= ROWS_PER_ADD) await flush();
  }
  await flush();
  const t = table as lancedb.Table | null;
  if (t) {
    meter.enter('index + optimize');
    if (chunks >= 8000) await t.createIndex('vector', { config: lancedb.Index.hnswSq({ distanceType: 'dot' }) });
    await t.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) });
    t.close();
  }
  db.close();
  return chunks;
}
