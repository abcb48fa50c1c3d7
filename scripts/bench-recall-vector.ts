/**
 * `npm run bench:recall -- --vector --sizes 1000000`: recall's vector phase alone, on a table
 * written straight to LanceDB with cheaply derived vectors, so a million-row experiment takes
 * minutes instead of the 45 of a full build through pages, chunker and embedder.
 *
 * Rows have Charlie's schema (project-table.ts) with short texts; their vectors are sums of two of
 * 10,000 built-in-embedder vectors of generated sentences, normalised (clustered as real text
 * is, not uniform noise). The table is indexed as Charlie indexes it (`ProjectTable.optimize`),
 * then the same query vectors are searched by Charlie's vector pass (`vectorSearch`, over its
 * bounded connection) and by a plain LanceDB query (default connection, `nearestTo(...).limit(100)`,
 * every column), each timed with the process's CPU time; LanceDB's `analyzePlan` of the first
 * query of each is printed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { connectBounded, indexCacheBytesFor, METADATA_CACHE_BYTES } from '../src/memory/index/lance-connect.js';
import { memoryBudget } from '../src/memory/index/memory-budget.js';
import { HashingEmbedder } from '../src/memory/index/hashing-embedder.js';
import { ProjectTable } from '../src/memory/index/project-table.js';
import { percentile } from './bench-util.js';

const BASIS = 10_000;
const WRITE_ROWS = 50_000;

/** LanceDB's own apache-arrow (its CommonJS build): a Table of the ESM build is not recognised as one by `add`. */
const arrow = createRequire(import.meta.url)('apache-arrow') as typeof import('apache-arrow');

/** One batch of rows in Charlie's schema: page `notes/P-<n>.md`, 100 rows a page. */
function batch(from: number, n: number, dims: number, basis: Float32Array[], random: () => number): import('apache-arrow').Table {
  const floats = new Float32Array(n * dims);
  for (let i = 0; i < n; i++) {
    const a = basis[(from + i) % basis.length]!;
    const b = basis[Math.floor(random() * basis.length)]!;
    let norm = 0;
    for (let d = 0; d < dims; d++) {
      const v = a[d]! + 0.7 * b[d]!;
      floats[i * dims + d] = v;
      norm += v * v;
    }
    const s = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let d = 0; d < dims; d++) floats[i * dims + d]! *= s;
  }
  const ids = Array.from({ length: n }, (_, i) => from + i);
  const str = (f: (row: number) => string) => arrow.vectorFromArray(ids.map(f), new arrow.Utf8());
  const int = (f: (row: number) => number) => arrow.vectorFromArray(ids.map(f), new arrow.Int32());
  const vectorType = new arrow.FixedSizeList(dims, new arrow.Field('item', new arrow.Float32(), true));
  return new arrow.Table({
    page: str((r) => `notes/P-${Math.floor(r / 100)}.md`),
    heading: str((r) => `Section ${r % 100}`),
    line_start: int((r) => (r % 100) * 4 + 1),
    line_end: int((r) => (r % 100) * 4 + 3),
    message_line: int(() => 0),
    text: str((r) => `row ${r}`),
    search_text: str((r) => `Section ${r % 100}\nrow ${r}`),
    context: str(() => ''),
    entity: str((r) => `P-${Math.floor(r / 100)}`),
    updated: str((r) => new Date(Date.UTC(2025, 0, 1) + (r % 365) * 86_400_000).toISOString()),
    staleness: arrow.vectorFromArray(
      ids.map(() => 3),
      new arrow.Float64(),
    ),
    sensitivity: str(() => 'personal'),
    hash: str((r) => `h${r}`),
    embedder: str(() => 'synthetic'),
    vector: arrow.makeVector(arrow.makeData({ type: vectorType, length: n, nullCount: 0, child: arrow.makeData({ type: new arrow.Float32(), length: n * dims, data: floats }) })),
  });
}

/** `keep`: a folder to build each size's table in once and keep (a later run with the same folder only queries it). */
export async function vectorPhase(sizes: number[], queries: number, random: () => number, sentence: () => string, keep?: string): Promise<void> {
  const embedder = new HashingEmbedder();
  const dims = embedder.dimensions;
  const basis = await embedder.embed(Array.from({ length: BASIS }, sentence));
  const questions = await embedder.embed(Array.from({ length: queries + 10 }, sentence));
  console.log(`bench:recall --vector — synthetic rows (derived built-in-embedder vectors), ${queries} queries; the vector phase only`);
  for (const size of sizes) {
    const dir = keep ? join(keep, String(size)) : mkdtempSync(join(tmpdir(), 'charlie-bench-vector-'));
    const kept = keep !== undefined && existsSync(join(dir, 'bench.lance'));
    const step = (what: string) => process.stderr.write(`  [${size}] ${what}\n`);
    try {
      mkdirSync(dir, { recursive: true });
      // Charlie's connection (memory-index.ts: bounded caches)
      const { db } = await connectBounded(lancedb, dir);
      let t = performance.now();
      let writeMs = 0;
      let indexMs = 0;
      if (!kept) {
        (await ProjectTable.open(db, 'bench', dims)).dropKeywordIndex(); // creates the table with Charlie's schema
        step('writing rows');
        const raw = await db.openTable('bench');
        for (let from = 0; from < size; from += WRITE_ROWS) await raw.add(batch(from, Math.min(WRITE_ROWS, size - from), dims, basis, random));
        const written = await raw.countRows();
        raw.close();
        if (written !== size) throw new Error(`wrote ${written} rows of ${size}`);
        writeMs = performance.now() - t;
      }
      // a kept table whose index build was cut short is indexed now
      const table = await ProjectTable.open(db, 'bench', dims);
      if (await table.indexesDue()) {
        step('indexing (Charlie: ProjectTable.optimize)');
        t = performance.now();
        await table.optimize();
        indexMs = performance.now() - t;
      }
      // a fresh open, as after a build: the keyword index (and the rows the vector pass returns) read once
      // through a connection whose index cache holds the vector index, as Charlie's grows to (lance-connect.ts: FittedConnection)
      const index = indexCacheBytesFor(await table.vectorIndexBytes(), memoryBudget(256).indexCacheBytes);
      const fitted = (await connectBounded(lancedb, dir, { index, metadata: METADATA_CACHE_BYTES })).db;
      const ours = await ProjectTable.open(fitted, 'bench', dims);
      const peerDb = await lancedb.connect(dir);
      const peer = await peerDb.openTable('bench');
      const vectors = await peer.listIndices();
      const stats = await Promise.all(vectors.map((i) => peer.indexStats(i.name)));
      const indexBytes = execFileSync('du', ['-sb', join(dir, 'bench.lance', '_indices')], { encoding: 'utf8' }).split('\t')[0];
      console.log(
        `${size} rows: index files ${(Number(indexBytes) / 1024 / 1024).toFixed(0)} MB; written in ${(writeMs / 1000).toFixed(1)} s, indexed in ${(indexMs / 1000).toFixed(1)} s; indexes: ${vectors.map((i, k) => `${i.name} (${i.indexType}, ${stats[k]?.numIndexedRows ?? '?'} rows indexed, ${stats[k]?.numUnindexedRows ?? '?'} not)`).join(', ')}`,
      );
      step('querying');
      const plain = (q: Float32Array) => peer.query().nearestTo(Array.from(q)).distanceType('cosine').limit(100);
      console.log(`  plan of the plain query:\n${indent(await plain(questions[0]!).analyzePlan())}`);
      // Charlie's query (project-table.ts `nearest`, refineFactor 1): as it was (refineFactor 4), over the peer's connection (LanceDB's default 6 GB index cache), and without re-scoring
      const bounded = await db.openTable('bench');
      const charlies = (on: lancedb.Table, refine: number) => (q: Float32Array) => {
        const v = on.query().nearestTo(q).distanceType('cosine');
        return (refine ? v.refineFactor(refine) : v).select(['page', 'line_start', 'hash', '_distance']).limit(100);
      };
      const variants = {
        "Charlie's query before (refineFactor 4)": charlies(bounded, 4),
        "Charlie's query over the peer's connection (6 GB index cache)": charlies(peer, 1),
        "Charlie's query without re-scoring": charlies(bounded, 0),
      };
      console.log(`  plan of Charlie's query:\n${indent(await charlies(bounded, 1)(questions[0]!).analyzePlan())}`);
      for (const [name, run] of Object.entries(variants)) {
        const ms: number[] = [];
        for (const q of questions) {
          t = performance.now();
          await run(q).toArray();
          ms.push(performance.now() - t);
        }
        console.log(`  ${name}: p50 ${percentile(ms.slice(10), 50).toFixed(1)} / p95 ${percentile(ms.slice(10), 95).toFixed(1)} ms`);
      }
      bounded.close();
      const figures = { ours: [] as number[], oursCpu: [] as number[], plain: [] as number[], plainCpu: [] as number[] };
      for (let i = 0; i < questions.length; i++) {
        const q = questions[i]!;
        let cpu = process.cpuUsage();
        t = performance.now();
        await ours.vectorSearch(q, 100);
        const oursMs = performance.now() - t;
        let used = process.cpuUsage(cpu);
        const oursCpu = (used.user + used.system) / 1000;
        cpu = process.cpuUsage();
        t = performance.now();
        await plain(q).toArray();
        const plainMs = performance.now() - t;
        used = process.cpuUsage(cpu);
        if (i < 10) continue; // warm-up
        figures.ours.push(oursMs);
        figures.oursCpu.push(oursCpu);
        figures.plain.push(plainMs);
        figures.plainCpu.push((used.user + used.system) / 1000);
      }
      const pq = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(1)} / p95 ${percentile(xs, 95).toFixed(1)} ms`;
      console.log(
        `  vector phase: Charlie ${pq(figures.ours)} (CPU ${pq(figures.oursCpu)})  plain LanceDB ${pq(figures.plain)} (CPU ${pq(figures.plainCpu)})` +
          `  ratio p50 ${(percentile(figures.ours, 50) / percentile(figures.plain, 50)).toFixed(2)}× p95 ${(percentile(figures.ours, 95) / percentile(figures.plain, 95)).toFixed(2)}×; load average ${loadavg()[0]!.toFixed(1)}`,
      );
      peer.close();
      peerDb.close();
      fitted.close();
      db.close();
    } finally {
      if (!keep) rmSync(dir, { recursive: true, force: true });
    }
  }
}

const indent = (s: string) =>
  s
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
