/**
 * `npm run bench:model [-- --model FILE.gguf] [--runs N] [--tokens N]`
 *
 * Load time, time to first token and tokens per second of the embedded model, through the
 * same ChatModel port Charlie uses — for the configured model when its file is present,
 * otherwise for the tiny random test model (what CI has). Next to it, the same figures
 * through the OpenAI-compatible server when one answers at LLM_BASE_URL.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { silentLogger, type ChatModel, type ChatRequest } from '../src/core/ports/index.js';
import { serverChatModel } from '../src/llm/provider.js';
import { EmbeddedChatModel } from '../src/llm/embedded/embedded-chat.js';
import { embeddedModelFile } from '../src/llm/embedded/model-file.js';
import { EmbeddedRuntime } from '../src/llm/embedded/runtime.js';
import { probeModelServer } from '../src/llm/probe.js';
import { writeTinyGguf } from '../test/support/tiny-gguf.js';

const { values } = parseArgs({ options: { model: { type: 'string' }, runs: { type: 'string' }, tokens: { type: 'string' } } });
const runs = Number(values.runs ?? 3);
const maxTokens = Number(values.tokens ?? 64);
const config = loadConfig();

// A different question each run: the system prompt stays cached (as in a conversation), the
// question is processed anew, so the time to first token is not a cache hit.
const QUESTIONS = [
  'Explain in a few sentences why keeping notes as plain Markdown files is useful.',
  'What should a good weekly project summary contain? Answer briefly.',
  'Give three tips for writing clear meeting notes.',
  'Why is it useful to record the date and source of a decision?',
  'Describe in two sentences what a personal assistant with memory can do.',
];
const requestFor = (i: number): ChatRequest => ({
  messages: [
    { role: 'system', content: 'You are Charlie, a helpful assistant. Answer in plain prose.' },
    { role: 'user', content: QUESTIONS[i % QUESTIONS.length] ?? '' },
  ],
  maxTokens,
  temperature: 0,
});

interface Figures {
  ttftMs: number[];
  tokensPerSecond: number[];
}

async function measure(model: ChatModel, countTokens: (text: string) => number): Promise<Figures> {
  const out: Figures = { ttftMs: [], tokensPerSecond: [] };
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    let first = 0;
    let text = '';
    for await (const chunk of model.stream(requestFor(i))) {
      if (chunk.type !== 'text') continue;
      if (!first) first = performance.now();
      text += chunk.text;
    }
    const end = performance.now();
    const tokens = countTokens(text);
    out.ttftMs.push(first ? first - started : NaN);
    // Generation speed after the first token (prompt processing is in the time to first token).
    out.tokensPerSecond.push(first && end > first ? ((tokens - 1) / (end - first)) * 1000 : NaN);
  }
  return out;
}

const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? (s[Math.floor(s.length / 2)] ?? NaN) : NaN;
};
const fmt = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

const configured = values.model ? { path: values.model, ref: values.model } : embeddedModelFile(config);
let path = configured.path;
let tmp: string | null = null;
let label = configured.ref;
if (!existsSync(path)) {
  tmp = mkdtempSync(join(tmpdir(), 'charlie-bench-'));
  path = writeTinyGguf(join(tmp, 'tiny.gguf'));
  label = 'tiny random test model (no embedded model present)';
}
const tiny = tmp !== null;
// The tiny model is too small for threads to help; on a busy machine they only spin.
const runtime = new EmbeddedRuntime({
  modelPath: path,
  contextSize: config.EMBEDDED_CONTEXT_SIZE,
  gpu: config.EMBEDDED_GPU,
  gpuLayers: config.EMBEDDED_GPU_LAYERS,
  threads: tiny && !config.EMBEDDED_THREADS ? 1 : config.EMBEDDED_THREADS,
});
const loadStarted = performance.now();
const loaded = await runtime.load();
const loadMs = performance.now() - loadStarted;
const embedded = await measure(new EmbeddedChatModel(runtime, { temperature: 0 }), (t) => loaded.model.tokenize(t).length);

process.stdout.write(`prompt: system + a different question per run, up to ${maxTokens} tokens, temperature 0, ${runs} runs (medians)\n\n`);
process.stdout.write(`${'model'.padEnd(14)} ${'load'.padStart(9)} ${'first token'.padStart(12)} ${'tokens/s'.padStart(9)}  where\n`);
process.stdout.write(
  `${'embedded'.padEnd(14)} ${`${fmt(loadMs)} ms`.padStart(9)} ${`${fmt(median(embedded.ttftMs))} ms`.padStart(12)} ${fmt(median(embedded.tokensPerSecond), 1).padStart(9)}  ${label} (${loaded.gpu || 'cpu'}; load = import node-llama-cpp + its binary + the model + a context)\n`,
);
await runtime.close();
if (tmp) rmSync(tmp, { recursive: true, force: true });

const probe = await probeModelServer(config.LLM_BASE_URL, config.LLM_API_KEY, 3000);
if (probe.ok) {
  const server = serverChatModel(config, silentLogger);
  // The server's tokenizer is not known here: tokens are estimated at 4 characters each.
  const figures = await measure(server.model, (t) => Math.max(1, Math.round(t.length / 4)));
  process.stdout.write(
    `${'server'.padEnd(14)} ${'—'.padStart(9)} ${`${fmt(median(figures.ttftMs))} ms`.padStart(12)} ${fmt(median(figures.tokensPerSecond), 1).padStart(9)}  ${server.model.id} (tokens estimated as characters / 4)\n`,
  );
} else {
  process.stdout.write(`${'server'.padEnd(14)} not measured: ${probe.message}\n`);
}
