/**
 * LoCoMo-format retrieval through Charlie's real recall path, with the BM25 baseline of
 * bench-data/bm25-baseline.mjs run beside it over the same turns, in the same process.
 *
 *   npm run bench:locomo -- --data ../shared/bench-data/locomo-dev.json --data /tmp/beam-dev.json
 *     [--abilities /tmp/beam-dev-abilities.json] [--out ranked.json]
 *     [--embedder builtin|transformers|openai] [--k 10] [--keep DIR]
 *     [--only conv-42,conv-43] [--exclude conv-26]   (run on a subset; per-conversation scores are printed)
 *     [--weights '{"thread":0}']   (RecallWeights fields over the configured ones, to measure one signal)
 *
 * For each `--data` file (LoCoMo, or BEAM converted by bench-data/beam-to-locomo.mjs) prints, per
 * category, per BEAM ability (`--abilities`, the converter's question → ability file) and overall,
 * Charlie's recall@5/@10 next to BM25's and their ratio, then query latency p50/p95 of both.
 *
 * Each conversation becomes a project (FileProjectStore.ensureProject) whose conversation archive
 * (`log/`, through appendLog) receives every turn, session by session, at the session's date,
 * with `locomo:<dia_id>` as its source link.
 * Every question goes through `recall()`; hits map back to dia_ids through the archive lines.
 * Rankings (of every dataset, in one file) are written in the run format of bm25-baseline.mjs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { applyIndexRuntime, loadConfig } from '../src/config.js';
import { silentLogger, systemClock } from '../src/core/ports/index.js';
import { createRecall, recallSettings } from '../src/memory/recall.js';
import type { RecallWeights } from '../src/memory/index/fusion.js';
import { FileProjectStore } from '../src/memory/store/project-store.js';
import { selectEmbedder } from '../src/llm/embeddings.js';
import { SqliteUsageStore } from '../src/storage/usage-store.js';
import { buildBm25, searchBm25, turnText } from './bm25.js';
import { consoleLogger, percentile, phaseLine } from './bench-util.js';
import { loadConversation, loadSamples, turnsOf } from './locomo-corpus.js';
import { compareRuns, normaliseEvidence, scoreByConversation, type ScoredItem } from './locomo-util.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string', multiple: true },
    abilities: { type: 'string', multiple: true },
    out: { type: 'string' },
    embedder: { type: 'string' },
    k: { type: 'string', default: '10' },
    keep: { type: 'string' },
    only: { type: 'string' },
    exclude: { type: 'string' },
    weights: { type: 'string' },
  },
});
if (!args.data || args.data.length === 0) {
  console.error('usage: npm run bench:locomo -- --data locomo.json [--data beam.json --abilities beam-abilities.json] [--out ranked.json] [--embedder builtin|transformers|openai]');
  process.exit(2);
}
const abilities: Record<string, string> = {};
for (const p of args.abilities ?? []) Object.assign(abilities, JSON.parse(readFileSync(resolve(p), 'utf8')) as Record<string, string>);

const config = loadConfig();
applyIndexRuntime(config);
const logger = consoleLogger('warn');
const overrides = args.embedder ? { EMBEDDER: args.embedder as typeof config.EMBEDDER } : { EMBEDDER: 'builtin' as const };
const { embedder, notice } = await selectEmbedder({ ...config, ...overrides }, logger);
if (notice && args.embedder) {
  // a benchmark of one embedder must not quietly measure another
  console.error(`--embedder ${args.embedder} is not usable here; not benchmarking the fallback under its name.`);
  process.exit(1);
}
const root = args.keep ? resolve(args.keep) : mkdtempSync(join(tmpdir(), 'charlie-locomo-'));
const projectsDir = join(root, 'projects');
const dataDir = join(root, 'data');
const usage = new SqliteUsageStore(join(dataDir, 'usage.sqlite'));
const settings = recallSettings(config);
const weights = { ...settings.weights, ...(JSON.parse(args.weights ?? '{}') as Partial<RecallWeights>) };
/** How long each phase of the current dataset's searches took (embed, sync, vector, keyword, temporal, fuse). */
const phases = new Map<string, number[]>();
const phase = (name: string, ms: number) => {
  const list = phases.get(name);
  if (list) list.push(ms);
  else phases.set(name, [ms]);
};
const service = createRecall({ projectsDir, dataDir, embedder, usage, logger: silentLogger, ...settings, weights, phase });

const store = new FileProjectStore({ projectsDir, clock: systemClock, logger: silentLogger });
const k = Number(args.k);
console.log(`recall() beside BM25: embedder ${embedder.id}, work dir ${root}`);

const rankings: Record<string, string[]> = {};
try {
  for (const path of args.data) {
    const data = loadSamples(path, args.only, args.exclude);
    if (data.length === 0) {
      console.log(`\n== ${basename(path)}: no conversation left after --only/--exclude`);
      continue;
    }
    const bm25: Record<string, string[]> = {};
    const items: ScoredItem[] = [];
    const queryMs: number[] = [];
    /** CPU time of the process (every thread) during each question: the work, whatever the machine's load. */
    const cpuMs: number[] = [];
    const bm25Ms: number[] = [];
    let ingestMs = 0;
    let indexMs = 0;
    let bm25IndexMs = 0;
    let turns = 0;
    phases.clear();
    for (const sample of data) {
      const { project, validIds, lines, ...loaded } = await loadConversation(store, projectsDir, (p) => service.sync(p), sample);
      turns += loaded.turns;
      ingestMs += loaded.ingestMs;
      indexMs += loaded.indexMs;
      const units = turnsOf(sample);
      let t = performance.now();
      const lexical = buildBm25(units.map(turnText));
      bm25IndexMs += performance.now() - t;
      for (const [i, qa] of sample.qa.entries()) {
        const key = `${sample.sample_id}#${i}`;
        const gold = normaliseEvidence(qa.evidence ?? [], validIds);
        const cpu = process.cpuUsage();
        t = performance.now();
        const hits = await service.recall.recall(qa.question, { project, limit: k });
        queryMs.push(performance.now() - t);
        const used = process.cpuUsage(cpu);
        cpuMs.push((used.user + used.system) / 1000);
        const ids: string[] = [];
        for (const h of hits) {
          const id = lines.get(`${h.page}#${h.message ?? h.lineStart}`);
          if (id && !ids.includes(id)) ids.push(id);
        }
        rankings[key] = ids;
        // the baseline scores only questions with evidence, so it is timed on those
        if (gold.length === 0) continue;
        t = performance.now();
        const found = searchBm25(lexical, qa.question, k);
        bm25Ms.push(performance.now() - t);
        bm25[key] = found.map((d) => units[d]!.dia_id);
        items.push({ key, category: qa.category, gold });
      }
    }
    console.log(`\n== ${basename(path)}: ${data.length} conversations, ${turns} turns, ${items.filter((it) => it.category <= 4).length} scored questions`);
    console.log(compareRuns(items, rankings, bm25, abilities));
    console.log('');
    console.log(scoreByConversation(items, rankings));
    console.log(`index: Charlie ${indexMs.toFixed(0)} ms (${((turns / indexMs) * 1000).toFixed(0)} turns/s, after ${ingestMs.toFixed(0)} ms of archive writes), BM25 ${bm25IndexMs.toFixed(0)} ms`);
    console.log(
      `query latency: Charlie p50 ${percentile(queryMs, 50).toFixed(2)} ms p95 ${percentile(queryMs, 95).toFixed(2)} ms (${queryMs.length} queries);` +
        ` BM25 p50 ${percentile(bm25Ms, 50).toFixed(3)} ms p95 ${percentile(bm25Ms, 95).toFixed(3)} ms (${bm25Ms.length})`,
    );
    console.log(
      `  CPU per question p50 ${percentile(cpuMs, 50).toFixed(2)} ms p95 ${percentile(cpuMs, 95).toFixed(2)} ms; phases (p50 / p95 ms; vector, keyword and temporal run at once): ${phaseLine(phases)}`,
    );
    console.log(
      `  load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')}`,
    );
  }
} finally {
  await service.close();
  usage.close();
  if (!args.keep) rmSync(root, { recursive: true, force: true });
}

if (args.out) {
  writeFileSync(resolve(args.out), JSON.stringify(rankings));
  console.log(`\nrankings written to ${args.out} (score with: node bm25-baseline.mjs --data <file> --run ${args.out})`);
}
