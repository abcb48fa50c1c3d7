/**
 * Tunes recall's fusion weights on LoCoMo-format data (LoCoMo, and BEAM converted by
 * bench-data/beam-to-locomo.mjs) without re-running the slow part. Two steps:
 *
 *   npm run tune:locomo -- --data ../shared/bench-data/locomo-dev.json --data /tmp/beam-dev.json --dump /tmp/candidates.json
 *     loads every conversation of every dataset as bench:locomo does and saves each question's
 *     vector, keyword and temporal candidates (what HybridRecall.gather returns) — keep the file
 *     out of the repo, and dump development data only;
 *   npm run tune:locomo -- --candidates /tmp/candidates.json --grid '{"thread":[0,0.8],"brevity":[0,4]}'
 *     re-ranks the saved candidates through the real fusion (recall.ts `fuse`) for every combination
 *     of the given RecallWeights fields (or each combination of a JSON array, e.g. one signal off
 *     at a time: '[{"thread":0},{"brevity":0}]'), on top of the configured weights; prints recall@5
 *     per dataset for each, then
 *     leaves one conversation out at a time: of the combinations that do not lower recall@5 on
 *     the other conversations of *any* dataset below the configured weights', the one with the
 *     best mean gain across datasets is chosen there and scored on the one left out. The held-out
 *     rankings, scored together per dataset, are the figure to expect on unseen conversations.
 *
 * --base '{"spread":0}' compares with other weights than the configured ones (e.g. a signal off).
 * With --bm25 run files (bench-data/bm25-baseline.mjs --dump) and --abilities (beam-to-locomo.mjs),
 * the held-out figures are also printed beside BM25's per category and BEAM ability.
 *
 * Only fusion weights can be tuned this way: chunking, keyword terms and the context weight change
 * the candidates themselves (dump again, or run bench:locomo --weights).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { applyIndexRuntime, loadConfig } from '../src/config.js';
import { silentLogger, systemClock } from '../src/core/ports/index.js';
import { DEFAULT_WEIGHTS, type RecallWeights } from '../src/memory/index/fusion.js';
import type { Candidates } from '../src/memory/index/search-query.js';
import type { ScoredChunk } from '../src/memory/index/project-table.js';
import { classifyQuery } from '../src/memory/index/query-kind.js';
import { HashingEmbedder } from '../src/memory/index/hashing-embedder.js';
import { createRecall, effectiveWeights, fuse, recallSettings } from '../src/memory/recall.js';
import { FileProjectStore } from '../src/memory/store/project-store.js';
import { SqliteUsageStore } from '../src/storage/usage-store.js';
import { loadConversation, loadSamples } from './locomo-corpus.js';
import { compareRuns, meanRecall, normaliseEvidence, scoreRuns, type ScoredItem } from './locomo-util.js';

type Ranked = [key: string, score: number][];
interface Question extends ScoredItem {
  conv: string;
  question: string;
  vector: Ranked;
  keyword: Ranked;
  temporal: Ranked;
}
interface Saved {
  /** Per conversation: its dataset, chunk (`page#line`) → its stored fields, and archive line → dia_id. */
  convs: Record<string, { dataset: string; chunks: Record<string, Omit<ScoredChunk, 'score'>>; lines: Record<string, string> }>;
  questions: Question[];
}

const { values: args } = parseArgs({
  options: {
    data: { type: 'string', multiple: true },
    dump: { type: 'string' },
    candidates: { type: 'string' },
    grid: { type: 'string', default: '{}' },
    k: { type: 'string', default: '10' },
    abilities: { type: 'string' },
    base: { type: 'string', default: '{}' },
    bm25: { type: 'string', multiple: true },
  },
});
const config = loadConfig();
const K = Number(args.k);

/** Step 1: every question's candidates, through the same gather() that recall() uses. */
async function dump(datasets: string[], out: string): Promise<void> {
  applyIndexRuntime(config);
  const root = mkdtempSync(join(tmpdir(), 'charlie-locomo-tune-'));
  const projectsDir = join(root, 'projects');
  const usage = new SqliteUsageStore(join(root, 'data', 'usage.sqlite'));
  const service = createRecall({ projectsDir, dataDir: join(root, 'data'), embedder: new HashingEmbedder(), usage, logger: silentLogger, ...recallSettings(config) });
  const store = new FileProjectStore({ projectsDir, clock: systemClock, logger: silentLogger });
  const saved: Saved = { convs: {}, questions: [] };
  try {
    for (const sample of datasets.flatMap((path) => loadSamples(path).map((s) => ({ ...s, dataset: basename(path, '.json') })))) {
      const { project, validIds, lines } = await loadConversation(store, projectsDir, (p) => service.sync(p), sample);
      const chunks: Saved['convs'][string]['chunks'] = {};
      saved.convs[sample.sample_id] = { dataset: sample.dataset, chunks, lines: Object.fromEntries(lines) };
      const keep = (list: ScoredChunk[]): Ranked =>
        list.map(({ score, ...chunk }) => {
          const key = `${chunk.page}#${chunk.lineStart}`;
          chunks[key] ??= chunk;
          return [key, score];
        });
      for (const [i, qa] of sample.qa.entries()) {
        const gold = normaliseEvidence(qa.evidence ?? [], validIds);
        const question = qa.question.trim();
        if (gold.length === 0 || !question) continue;
        const found = await service.recall.gather(question, classifyQuery(question, systemClock.now()), project, K);
        saved.questions.push({
          key: `${sample.sample_id}#${i}`,
          conv: sample.sample_id,
          category: qa.category,
          gold,
          question,
          vector: keep(found.vector),
          keyword: keep(found.keyword),
          temporal: keep(found.temporal),
        });
      }
    }
  } finally {
    await service.close();
    usage.close();
    rmSync(root, { recursive: true, force: true });
  }
  writeFileSync(resolve(out), JSON.stringify(saved));
  console.log(`${saved.questions.length} questions' candidates written to ${out}`);
}

/** Step 2: every combination of the grid, scored on all conversations and left out one at a time. */
function tune(saved: Saved, grid: Record<string, number[]> | Record<string, number>[]): void {
  let combos: Record<string, number>[] = [{}];
  if (Array.isArray(grid)) combos = grid;
  else for (const [key, values] of Object.entries(grid)) combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  const unknown = [...new Set(combos.flatMap((c) => Object.keys(c)))].filter((key) => !(key in DEFAULT_WEIGHTS));
  if (unknown.length > 0) throw new Error(`not a RecallWeights field: ${unknown.join(', ')}`);
  // --base '{"spread":0}': the weights to compare with, when not the configured ones (to measure a signal that is on)
  const base = { ...recallSettings(config).weights, ...(JSON.parse(args.base) as Partial<RecallWeights>) };
  const now = systemClock.now();
  const shapes = new Map(saved.questions.map((q) => [q, classifyQuery(q.question, now)]));
  const rank = (combo: Record<string, number>): Record<string, string[]> => {
    const weights = effectiveWeights({ ...base, ...combo }, false);
    const out: Record<string, string[]> = {};
    for (const q of saved.questions) {
      const conv = saved.convs[q.conv]!;
      const chunks = (list: Ranked): ScoredChunk[] => list.map(([key, score]) => ({ ...conv.chunks[key]!, score }));
      const found: Candidates = { vector: chunks(q.vector), keyword: chunks(q.keyword), temporal: chunks(q.temporal) };
      const ids: string[] = [];
      for (const h of fuse(found, q.question, shapes.get(q)!, weights).rank(() => 0, now, K)) {
        const id = conv.lines[`${h.page}#${h.message ?? h.lineStart}`];
        if (id && !ids.includes(id)) ids.push(id);
      }
      out[q.key] = ids;
    }
    return out;
  };
  const scored = saved.questions.filter((q) => q.category >= 1 && q.category <= 4);
  const datasets = [...new Set(Object.values(saved.convs).map((c) => c.dataset))];
  const datasetOf = (q: Question) => saved.convs[q.conv]!.dataset;
  const runs = [{ combo: {}, rankings: rank({}) }, ...combos.filter((c) => Object.keys(c).length > 0).map((combo) => ({ combo, rankings: rank(combo) }))];
  const pct = (x: number) => (100 * x).toFixed(1);
  /** recall@5 of each dataset's questions among `items`. */
  const perDataset = (rankings: Record<string, string[]>, items: Question[]) =>
    datasets.map((d) =>
      meanRecall(
        items.filter((q) => datasetOf(q) === d),
        rankings,
        5,
      ),
    );
  const all = runs.map((r) => perDataset(r.rankings, scored));
  console.log(`${(args.base === '{}' ? 'weights (on top of the configured ones)' : 'weights (on top of the configured ones and --base)').padEnd(60)}${datasets.map((d) => d.padStart(14)).join('')}`);
  const order = runs.map((_, i) => i).sort((a, b) => all[b]!.reduce((x, y) => x + y, 0) - all[a]!.reduce((x, y) => x + y, 0));
  for (const i of order) console.log(`${JSON.stringify(runs[i]!.combo).padEnd(60)}${all[i]!.map((x) => pct(x).padStart(14)).join('')}`);
  /** The combination chosen on `items`: none may lower a dataset below the configured weights (runs[0]); best mean gain. */
  const choose = (items: Question[]) => {
    const rs = runs.map((r) => perDataset(r.rankings, items));
    const baseline = rs[0]!;
    let best = 0;
    let bestGain = 1;
    rs.forEach((r, i) => {
      if (r.some((x, d) => x < baseline[d]! - 1e-9)) return;
      const gain = r.reduce((sum, x, d) => sum + (baseline[d]! > 0 ? x / baseline[d]! : 1), 0) / r.length;
      if (gain > bestGain + 1e-9) [best, bestGain] = [i, gain];
    });
    return runs[best]!;
  };
  const heldOut: Record<string, string[]> = {};
  console.log('\nleave one conversation out: chosen on the others → scored on the one left out');
  for (const conv of Object.keys(saved.convs)) {
    const test = scored.filter((q) => q.conv === conv);
    const b = choose(scored.filter((q) => q.conv !== conv));
    for (const q of test) heldOut[q.key] = b.rankings[q.key] ?? [];
    console.log(`${conv.padEnd(10)} ${pct(meanRecall(test, heldOut, 5)).padStart(5)} (configured ${pct(meanRecall(test, runs[0]!.rankings, 5))})  with ${JSON.stringify(b.combo)}`);
  }
  const chosen = choose(scored);
  console.log(`\nchosen on all conversations: ${JSON.stringify(chosen.combo)}`);
  // BM25 rankings (bench-data/bm25-baseline.mjs --dump) and BEAM abilities, to compare the held-out figure per category and ability
  const bm25: Record<string, string[]> = {};
  for (const p of args.bm25 ?? []) Object.assign(bm25, JSON.parse(readFileSync(resolve(p), 'utf8')) as Record<string, string[]>);
  const groups = args.abilities ? (JSON.parse(readFileSync(resolve(args.abilities), 'utf8')) as Record<string, string>) : undefined;
  for (const d of datasets) {
    const items = scored.filter((q) => datasetOf(q) === d);
    console.log(
      `\n${d}: held-out rankings (the expected figure on unseen conversations) — configured weights ${pct(meanRecall(items, runs[0]!.rankings, 5))} at recall@5\n${scoreRuns(items, heldOut)}`,
    );
    if (items.some((q) => bm25[q.key])) console.log(`\n${d}: held-out rankings (Charlie) beside BM25 (--bm25)\n${compareRuns(items, heldOut, bm25, groups)}`);
  }
}

if (args.dump && args.data) await dump(args.data, args.dump);
else if (args.candidates) tune(JSON.parse(readFileSync(resolve(args.candidates), 'utf8')) as Saved, JSON.parse(args.grid) as Record<string, number[]> | Record<string, number>[]);
else {
  console.error('usage: tune-locomo --data locomo.json [--data beam.json] --dump candidates.json | --candidates candidates.json --grid \'{"brevity":[0,4]}\'');
  process.exit(2);
}
