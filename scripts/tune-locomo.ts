/**
 * Tunes recall's fusion weights on LoCoMo without re-running the slow part. Two steps:
 *
 *   npm run tune:locomo -- --data ../shared/bench-data/locomo-dev.json --dump /tmp/locomo-candidates.json
 *     loads every conversation as bench:locomo does and saves each question's vector, keyword and
 *     temporal candidates (what HybridRecall.gather returns) — keep the file out of the repo;
 *   npm run tune:locomo -- --candidates /tmp/locomo-candidates.json --grid '{"thread":[0,0.8],"brevity":[2,4]}'
 *     re-ranks the saved candidates through the real fusion (recall.ts `fuse`) for every combination
 *     of the given RecallWeights fields, on top of the configured weights; prints recall@5 per
 *     category for each, then leaves one conversation out at a time: the combination best on the
 *     others is scored on the one left out, and the held-out rankings are scored together;
 *   add --by-kind to choose the combination per kind of question (query-kind.ts) instead, with the
 *     grid's values in place of query-kind.ts KIND_WEIGHTS: prints each kind's best as factors on the
 *     configured weights, and leaves conversations out in the same way.
 *
 * Only fusion weights can be tuned this way: chunking, keyword terms and the context weight change
 * the candidates themselves (dump again, or run bench:locomo).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { applyIndexRuntime, loadConfig } from '../src/config.js';
import { silentLogger, systemClock } from '../src/core/ports.js';
import { DEFAULT_WEIGHTS, type RecallWeights } from '../src/memory/index/fusion.js';
import type { Candidates } from '../src/memory/index/memory-index.js';
import type { ScoredChunk } from '../src/memory/index/project-table.js';
import { classifyQuery } from '../src/memory/index/query-kind.js';
import { HashingEmbedder } from '../src/memory/index/hashing-embedder.js';
import { createRecall, effectiveWeights, fuse, recallSettings } from '../src/memory/recall.js';
import { FileProjectStore } from '../src/memory/store/project-store.js';
import { SqliteUsageStore } from '../src/storage/usage-store.js';
import { loadConversation, loadSamples } from './locomo-corpus.js';
import { normaliseEvidence, scoreRuns, type ScoredItem } from './locomo-util.js';

type Ranked = [key: string, score: number][];
interface Question extends ScoredItem {
  conv: string;
  question: string;
  vector: Ranked;
  keyword: Ranked;
  temporal: Ranked;
}
interface Saved {
  /** Per conversation: chunk (`page#line`) → its stored fields, and archive line → dia_id. */
  convs: Record<string, { chunks: Record<string, Omit<ScoredChunk, 'score'>>; lines: Record<string, string> }>;
  questions: Question[];
}

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    dump: { type: 'string' },
    candidates: { type: 'string' },
    grid: { type: 'string', default: '{}' },
    k: { type: 'string', default: '10' },
    'by-kind': { type: 'boolean', default: false },
  },
});
const config = loadConfig();
const K = Number(args.k);

/** Step 1: every question's candidates, through the same gather() that recall() uses. */
async function dump(data: string, out: string): Promise<void> {
  applyIndexRuntime(config);
  const root = mkdtempSync(join(tmpdir(), 'charlie-locomo-tune-'));
  const projectsDir = join(root, 'projects');
  const usage = new SqliteUsageStore(join(root, 'data', 'usage.sqlite'));
  const service = createRecall({ projectsDir, dataDir: join(root, 'data'), embedder: new HashingEmbedder(), usage, logger: silentLogger, ...recallSettings(config) });
  const store = new FileProjectStore({ projectsDir, clock: systemClock, logger: silentLogger });
  const saved: Saved = { convs: {}, questions: [] };
  try {
    for (const sample of loadSamples(data)) {
      const { project, validIds, lines } = await loadConversation(store, projectsDir, (p) => service.sync(p), sample);
      const chunks: Saved['convs'][string]['chunks'] = {};
      saved.convs[sample.sample_id] = { chunks, lines: Object.fromEntries(lines) };
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

/**
 * Step 2: every combination of the grid, scored on all conversations and left out one at a time.
 * With `byKind`, each kind of question (query-kind.ts) gets its own best combination, with the
 * grid's values in place of KIND_WEIGHTS' factors; the factors to put there are printed.
 */
function tune(saved: Saved, grid: Record<string, number[]>, byKind: boolean): void {
  const unknown = Object.keys(grid).filter((key) => !(key in DEFAULT_WEIGHTS));
  if (unknown.length > 0) throw new Error(`not a RecallWeights field: ${unknown.join(', ')}`);
  let combos: Partial<RecallWeights>[] = [{}];
  for (const [key, values] of Object.entries(grid)) combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  const base = recallSettings(config).weights;
  const now = systemClock.now();
  const shapes = new Map(saved.questions.map((q) => [q, classifyQuery(q.question, now)]));
  const noFactors = { temporal: {}, person: {}, preference: {}, general: {} };
  const rank = (weights: RecallWeights): Record<string, string[]> => {
    const out: Record<string, string[]> = {};
    for (const q of saved.questions) {
      const conv = saved.convs[q.conv]!;
      const chunks = (list: Ranked): ScoredChunk[] => list.map(([key, score]) => ({ ...conv.chunks[key]!, score }));
      const found: Candidates = { vector: chunks(q.vector), keyword: chunks(q.keyword), temporal: chunks(q.temporal) };
      const ids: string[] = [];
      for (const h of fuse(found, q.question, shapes.get(q)!, weights, byKind ? noFactors : undefined).rank(() => 0, now, K)) {
        const id = conv.lines[`${h.page}#${h.lineStart}`];
        if (id && !ids.includes(id)) ids.push(id);
      }
      out[q.key] = ids;
    }
    return out;
  };
  const recall5 = (rankings: Record<string, string[]>, items: Question[]) =>
    items.reduce((sum, q) => sum + q.gold.filter((g) => (rankings[q.key] ?? []).slice(0, 5).includes(g)).length / q.gold.length, 0) / Math.max(1, items.length);
  const scored = saved.questions.filter((q) => q.category >= 1 && q.category <= 4);
  const runs = combos.map((combo) => ({ combo, rankings: rank(effectiveWeights({ ...base, ...combo }, false)) }));
  const pct = (x: number) => (100 * x).toFixed(1);
  const byCategory = (rankings: Record<string, string[]>) =>
    [1, 2, 3, 4]
      .map((c) =>
        pct(
          recall5(
            rankings,
            scored.filter((q) => q.category === c),
          ),
        ).padStart(6),
      )
      .join('');
  console.log(`${'weights (on top of the configured ones)'.padEnd(60)} overall    mh   tmp    od    sh`);
  for (const r of [...runs].sort((a, b) => recall5(b.rankings, scored) - recall5(a.rankings, scored))) {
    console.log(`${JSON.stringify(r.combo).padEnd(60)}${pct(recall5(r.rankings, scored)).padStart(7)}${byCategory(r.rankings)}`);
  }
  // the groups whose weights are chosen apart: each kind of question, or all questions together
  const groupOf = (q: Question) => (byKind ? shapes.get(q)!.kind : 'all');
  const groups = [...new Set(scored.map(groupOf))];
  const best = (items: Question[]) => runs.reduce((a, b) => (recall5(b.rankings, items) > recall5(a.rankings, items) ? b : a));
  if (byKind) {
    const chosen: Record<string, string[]> = {};
    console.log('\nbest per kind of question, on all conversations (n, recall@5, KIND_WEIGHTS factors):');
    for (const g of groups) {
      const items = scored.filter((q) => groupOf(q) === g);
      const b = best(items);
      for (const q of items) chosen[q.key] = b.rankings[q.key] ?? [];
      const factors = Object.fromEntries(Object.entries(b.combo).map(([f, v]) => [f, Number((v / base[f as keyof RecallWeights]).toFixed(3))]));
      console.log(`${g.padEnd(11)} ${String(items.length).padStart(4)} ${pct(recall5(b.rankings, items)).padStart(6)}  ${JSON.stringify(factors)}`);
    }
    console.log(`together:\n${scoreRuns(scored, chosen)}`);
  }
  const heldOut: Record<string, string[]> = {};
  console.log('\nleave one conversation out: best on the others → scored on the one left out');
  for (const conv of Object.keys(saved.convs)) {
    const test = scored.filter((q) => q.conv === conv);
    const picks: string[] = [];
    for (const g of groups) {
      const b = best(scored.filter((q) => q.conv !== conv && groupOf(q) === g));
      for (const q of test) if (groupOf(q) === g) heldOut[q.key] = b.rankings[q.key] ?? [];
      picks.push(`${byKind ? `${g} ` : ''}${JSON.stringify(b.combo)}`);
    }
    console.log(`${conv.padEnd(10)} ${pct(recall5(heldOut, test)).padStart(5)}  with ${picks.join(', ')}`);
  }
  console.log(`\nheld-out rankings together:\n${scoreRuns(scored, heldOut)}`);
}

if (args.dump && args.data) await dump(args.data, args.dump);
else if (args.candidates) tune(JSON.parse(readFileSync(resolve(args.candidates), 'utf8')) as Saved, JSON.parse(args.grid) as Record<string, number[]>, args['by-kind']);
else {
  console.error('usage: tune-locomo --data locomo.json --dump candidates.json | --candidates candidates.json --grid \'{"brevity":[2,4]}\' [--by-kind]');
  process.exit(2);
}
