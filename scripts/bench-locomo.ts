/**
 * LoCoMo turn-level retrieval through Charlie's real recall path.
 *
 *   npm run bench:locomo -- --data ../shared/bench-data/locomo-dev.json --out ranked.json
 *     [--embedder builtin|transformers|openai] [--k 10] [--keep DIR]
 *     [--only conv-42,conv-43] [--exclude conv-26]   (run on a subset; per-conversation scores are printed)
 *
 * Each conversation becomes a project (FileProjectStore.ensureProject) whose conversation archive
 * (`log/`, through appendLog) receives every turn, session by session, at the session's date,
 * with `locomo:<dia_id>` as its source link.
 * Every question goes through `recall()`; hits map back to dia_ids through the archive lines.
 * Rankings are written in the run format of bench-data/bm25-baseline.mjs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { applyIndexRuntime, loadConfig } from '../src/config.js';
import { silentLogger, systemClock } from '../src/core/ports.js';
import { createRecall, recallSettings } from '../src/memory/recall.js';
import { FileProjectStore } from '../src/memory/store/project-store.js';
import { selectEmbedder } from '../src/llm/embeddings.js';
import { SqliteUsageStore } from '../src/storage/usage-store.js';
import { consoleLogger, percentile } from './bench-util.js';
import { loadConversation, loadSamples } from './locomo-corpus.js';
import { normaliseEvidence, scoreByConversation, scoreRuns, type ScoredItem } from './locomo-util.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    out: { type: 'string' },
    embedder: { type: 'string' },
    k: { type: 'string', default: '10' },
    keep: { type: 'string' },
    only: { type: 'string' },
    exclude: { type: 'string' },
  },
});
if (!args.data) {
  console.error('usage: npm run bench:locomo -- --data path/to/locomo.json [--out ranked.json] [--embedder builtin|transformers|openai]');
  process.exit(2);
}

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
const service = createRecall({
  projectsDir,
  dataDir,
  embedder,
  usage,
  logger: silentLogger,
  ...recallSettings(config),
});

const store = new FileProjectStore({ projectsDir, clock: systemClock, logger: silentLogger });
const data = loadSamples(args.data, args.only, args.exclude);
if (data.length === 0) {
  console.error('no conversation left after --only/--exclude');
  process.exit(2);
}
const k = Number(args.k);
console.log(`LoCoMo via recall(): ${data.length} conversations, embedder ${embedder.id}, work dir ${root}`);

const rankings: Record<string, string[]> = {};
const items: ScoredItem[] = [];
const queryMs: number[] = [];
let ingestMs = 0;
let indexMs = 0;
let turns = 0;
try {
  for (const sample of data) {
    const { project, validIds, lines, ...loaded } = await loadConversation(store, projectsDir, (p) => service.sync(p), sample);
    turns += loaded.turns;
    ingestMs += loaded.ingestMs;
    indexMs += loaded.indexMs;
    for (const [i, qa] of sample.qa.entries()) {
      const t = performance.now();
      const hits = await service.recall.recall(qa.question, { project, limit: k });
      queryMs.push(performance.now() - t);
      const ids: string[] = [];
      for (const h of hits) {
        const id = lines.get(`${h.page}#${h.lineStart}`);
        if (id && !ids.includes(id)) ids.push(id);
      }
      const key = `${sample.sample_id}#${i}`;
      rankings[key] = ids;
      const gold = normaliseEvidence(qa.evidence ?? [], validIds);
      if (gold.length > 0) items.push({ key, category: qa.category, gold });
    }
  }
} finally {
  await service.close();
  usage.close();
  if (!args.keep) rmSync(root, { recursive: true, force: true });
}

if (args.out) writeFileSync(resolve(args.out), JSON.stringify(rankings));
console.log(scoreRuns(items, rankings));
console.log('');
console.log(scoreByConversation(items, rankings));
console.log('');
console.log(`turns=${turns}  archive write ${ingestMs.toFixed(0)} ms, index build ${indexMs.toFixed(0)} ms (${((turns / indexMs) * 1000).toFixed(0)} turns/s)`);
console.log(`queries=${queryMs.length}  p50 ${percentile(queryMs, 50).toFixed(2)} ms  p95 ${percentile(queryMs, 95).toFixed(2)} ms`);
if (args.out) console.log(`rankings written to ${args.out} (score with: node bm25-baseline.mjs --run ${args.out})`);
