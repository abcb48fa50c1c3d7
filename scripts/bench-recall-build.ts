/**
 * `npm run bench:recall -- --build`: peak memory of building the index of a corpus, Charlie's
 * build (`sync` of a fresh index) beside a plain LanceDB build of the same chunks (chunked,
 * embedded and added 2,048 rows at a time, then the same vector index and compaction), each in
 * its own process so neither counts the other's memory (or the corpus generator's).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { silentLogger } from '../src/core/ports/index.js';
import { chunkPage } from '../src/memory/index/chunker.js';
import { HashingEmbedder } from '../src/memory/index/hashing-embedder.js';
import { createRecall } from '../src/memory/recall.js';
import { SqliteUsageStore } from '../src/storage/usage-store.js';

export interface BuildFigures {
  chunks: number;
  ms: number;
  /** Peak resident set size of the process, bytes. */
  peakRss: number;
}

const ROWS_PER_ADD = 2048;
const EMBED_BATCH = 64;

/** Runs one build in a child process (`kind` charlie or lancedb) over `root`'s corpus. */
export function measureBuild(kind: 'charlie' | 'lancedb', root: string): BuildFigures {
  const out = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', '--import', 'tsx', join(import.meta.dirname, 'bench-recall.ts'), '--build-child', kind, '--root', root], {
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
  const started = performance.now();
  let chunks: number;
  if (kind === 'charlie') {
    const dataDir = join(root, `data-charlie-${process.pid}`);
    const usage = new SqliteUsageStore(join(dataDir, 'usage.sqlite'));
    const service = createRecall({ projectsDir, dataDir, embedder: new HashingEmbedder(), usage, logger: silentLogger });
    chunks = (await service.sync('bench')).chunks;
    await service.close();
    usage.close();
  } else {
    chunks = await plainBuild(join(projectsDir, 'bench'), join(root, `data-lancedb-${process.pid}`, 'index'));
  }
  const figures: BuildFigures = { chunks, ms: performance.now() - started, peakRss: process.resourceUsage().maxRSS * 1024 };
  console.log(JSON.stringify(figures));
}

/** The peer: the same chunks and rows, streamed into a LanceDB table, then indexed and compacted as Charlie's are. */
async function plainBuild(projectDir: string, indexDir: string): Promise<number> {
  const embedder = new HashingEmbedder();
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
    if (chunks >= 8000) await t.createIndex('vector', { config: lancedb.Index.hnswSq({ distanceType: 'dot' }) });
    await t.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) });
    t.close();
  }
  db.close();
  return chunks;
}
