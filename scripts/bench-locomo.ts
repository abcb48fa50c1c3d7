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
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { applyIndexRuntime, loadConfig } from '../src/config.js';
import { silentLogger, systemClock, type LogEntry } from '../src/core/ports.js';
import { LOG_FILE, parseLog } from '../src/memory/archive-format.js';
import { createRecall, recallSettings } from '../src/memory/recall.js';
import { FileProjectStore } from '../src/memory/store/project-store.js';
import { selectEmbedder } from '../src/llm/embeddings.js';
import { SqliteUsageStore } from '../src/storage/usage-store.js';
import { consoleLogger, percentile } from './bench-util.js';
import { parseLocomoDate, normaliseEvidence, scoreByConversation, scoreRuns, type ScoredItem } from './locomo-util.js';

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
interface Sample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; category: number; evidence?: unknown[] }[];
}

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
const listArg = (v: string | undefined) =>
  new Set(
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
const only = listArg(args.only);
const exclude = listArg(args.exclude);
const data = (JSON.parse(readFileSync(resolve(args.data), 'utf8')) as Sample[]).filter((s) => (only.size === 0 || only.has(s.sample_id)) && !exclude.has(s.sample_id));
if (data.length === 0) {
  console.error('no conversation left after --only/--exclude');
  process.exit(2);
}
const k = Number(args.k);
console.log(`LoCoMo via recall(): ${data.length} conversations, embedder ${embedder.id}, work dir ${root}`);

function sessionsOf(conv: Record<string, unknown>): { num: number; date: string; turns: Turn[] }[] {
  return Object.keys(conv)
    .filter((key) => /^session_\d+$/.test(key))
    .map((key) => ({ num: Number(key.slice(8)), date: (conv[`${key}_date_time`] as string | undefined) ?? '', turns: conv[key] as Turn[] }))
    .sort((a, b) => a.num - b.num);
}

/** (page, header line) → dia_id, read back from the archive Charlie wrote. */
async function diaIdsByLine(projectDir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const logDir = join(projectDir, 'log');
  for (const file of (await readdir(logDir)).filter((f) => LOG_FILE.test(f))) {
    const content = await readFile(join(logDir, file), 'utf8');
    for (const e of parseLog(content, file.slice(0, 10))) {
      const m = /^locomo:(.+)$/.exec(e.source);
      if (m) out.set(`log/${file}#${e.line}`, m[1]!);
    }
  }
  return out;
}

const rankings: Record<string, string[]> = {};
const items: ScoredItem[] = [];
const queryMs: number[] = [];
let ingestMs = 0;
let indexMs = 0;
let turns = 0;
try {
  for (const sample of data) {
    const { slug: project } = await store.ensureProject({ name: sample.sample_id, key: `locomo:${sample.sample_id}` });
    const validIds = new Set<string>();
    let t0 = performance.now();
    let previous = 0;
    for (const session of sessionsOf(sample.conversation)) {
      // sessions without a readable date continue one hour after the previous one
      let start = parseLocomoDate(session.date)?.getTime() ?? previous + 3_600_000;
      if (start <= previous) start = previous + 60_000;
      for (const turn of session.turns) validIds.add(turn.dia_id);
      for (const [i, turn] of session.turns.entries()) {
        const image = turn.blip_caption ? ` [shared an image: ${turn.blip_caption}]` : '';
        const entry: LogEntry = { time: new Date(start + i * 10_000).toISOString(), speaker: turn.speaker, source: `locomo:${turn.dia_id}`, text: `${turn.text}${image}`, role: 'user' };
        await store.appendLog(project, entry);
        turns++;
      }
      previous = start + session.turns.length * 10_000;
    }
    ingestMs += performance.now() - t0;
    t0 = performance.now();
    await service.sync(project);
    indexMs += performance.now() - t0;
    const lines = await diaIdsByLine(join(projectsDir, project));
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
