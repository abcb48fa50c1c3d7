/**
 * `npm run bench:web`: what the web app costs.
 *   1. JavaScript shipped to the browser, gzipped: the first load (app + the chunks it imports),
 *      the graph view's chunk (loaded when opened), and the service worker.
 *   2. Time from the request to the first streamed token, against a scripted model server that
 *      answers with a fixed delay: measured straight at the model (its own time) and through
 *      POST /api/projects/:project/messages (SSE), so the difference is what Charlie adds
 *      (archive, context, prompt, SSE).
 *   3. The graph view at a few thousand pages (bench-web-graph.ts): the graph API, opening the
 *      view to its first frame, and frame times while zooming, in headless Chromium.
 *   4. The first view over the wire: every byte Chromium received (headers and compressed bodies,
 *      from the DevTools protocol) from signing in to the chat drawn, in a fresh browser profile.
 *   5. Server memory (RSS and V8 heap after a GC) at 0, 50, 100 and 200 chat turns (bench-web-memory.ts).
 * Usage: npm run bench:web [-- --runs 30 --model-delay 50 --graph-nodes 3000 --memory-turns 200]
 *   --only memory,wire   run only these steps (js, wire, memory, first-token, graph)
 *   --timeout MS         how long a browser step may wait for the page (default 30 s, times the
 *                        machine's load per core when that is above 1)
 *   --verbose            the memory step also prints RSS by kind and the threads by name
 *   --heap-snapshots DIR the memory step writes a V8 heap snapshot there at 50 turns and at its last
 * A browser step that times out is reported as not measured, with the reason; the other steps
 * still run, and the exit code is 1.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { ensureClient } from '../src/web/client-build.js';
import { startWebFixture, TOKEN } from '../test/support/web-fixture.js';
import { demoFiles } from '../test/support/web-demo-data.js';
import { benchGraph } from './bench-web-graph.js';
import { benchMemory } from './bench-web-memory.js';
import { browserStepTimeout, firstViewBytes } from './bench-web-wire.js';

const STEPS = ['js', 'wire', 'memory', 'first-token', 'graph'] as const;
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    'model-delay': { type: 'string', default: '50' },
    'graph-nodes': { type: 'string', default: '3000' },
    'memory-turns': { type: 'string', default: '200' },
    only: { type: 'string', default: STEPS.join(',') },
    timeout: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    'heap-snapshots': { type: 'string' },
  },
});
const runs = Number(values.runs);
const modelDelay = Number(values['model-delay']);
const only = new Set(values.only.split(',').map((s) => s.trim()));
const unknown = [...only].filter((s) => !(STEPS as readonly string[]).includes(s));
if (unknown.length > 0) throw new Error(`--only: no step ${unknown.join(', ')} (steps: ${STEPS.join(', ')})`);
const want = (step: (typeof STEPS)[number]) => only.has(step);
const memoryTurns = Number(values['memory-turns']);
const memoryMarks = [...new Set([0, 50, 100, 200, memoryTurns])].filter((n) => n <= memoryTurns).sort((a, b) => a - b);
const timeout = browserStepTimeout(values.timeout === undefined ? undefined : Number(values.timeout));
const failed: string[] = [];

/** A browser step that may time out on a loaded machine: say so, with the reason, and go on. */
async function browserStep(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
    console.log(`  not measured: ${name}: ${why}`);
    console.log(`  (${timeout.why}; rerun with --timeout ${timeout.ms * 2} --only ${name === 'the graph' ? 'graph' : 'wire'})`);
    failed.push(`${name} (${why})`);
  }
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const gz = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

async function firstToken(url: string, init: RequestInit, isToken: (line: string) => boolean): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, init);
  const reader = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
  let at = NaN;
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    if (Number.isNaN(at) && buffer.split('\n').some(isToken)) at = performance.now() - started;
  }
  return at;
}

const fixture = await startWebFixture({ files: demoFiles(), script: () => ({ text: 'The flight is on 14 March, in the morning, from Lisbon.', delayMs: modelDelay }) });
try {
  if (want('js')) await benchShipped();
  // 4 (first, in a fresh server): the first view over the wire
  if (want('wire')) await browserStep('the first view over the wire', () => firstViewBytes(fixture.web.url, timeout.ms));
  // 5. Server memory over turns (before the other steps' turns; the graph's pages come later)
  if (want('memory')) await benchMemory(fixture, 'home', memoryMarks, values.verbose, values['heap-snapshots']);
  // 2. Time to first token
  if (want('first-token')) await benchFirstToken();
  // 3. The graph at a few thousand pages
  if (want('graph')) await browserStep('the graph', () => benchGraph(fixture, Number(values['graph-nodes']), timeout.ms));
} finally {
  await fixture.close();
}
if (failed.length > 0) {
  console.log(`\nNot measured: ${failed.join('; ')}.`);
  process.exitCode = 1;
}

async function benchShipped(): Promise<void> {
  const out = join(fixture.dataDir, 'web', 'client');
  await ensureClient(out);
  const js = files(out).filter((f) => f.endsWith('.js'));
  const index = readFileSync(join(out, 'index.html'), 'utf8');
  const named = [...index.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => join(out, m[1] ?? ''));
  const app = named[0] ?? join(out, 'app.js');
  const imported = named.slice(1);
  const lazy = js.filter((f) => f.includes('/assets/') && !named.includes(f));
  const sw = join(out, 'sw.js');
  const initial = [app, ...imported].reduce((n, f) => n + gz(f), 0);
  const initialRaw = [app, ...imported].reduce((n, f) => n + statSync(f).size, 0);
  const total = js.reduce((n, f) => n + gz(f), 0);
  console.log('JavaScript shipped to the browser (gzip -9):');
  console.log(`  first load (app + ${imported.length} shared chunk${imported.length === 1 ? '' : 's'}): ${kb(initial)} gzipped (${kb(initialRaw)} minified)`);
  for (const f of lazy) console.log(`  ${(f.split('/assets/')[1] ?? f).replace(/-[A-Z0-9]+\.js$/, '').padEnd(34)} ${kb(gz(f))} gzipped, loaded when needed`);
  console.log(`  service worker:                     ${kb(gz(sw))} gzipped`);
  console.log(`  all JavaScript:                     ${kb(total)} gzipped in ${js.length} files`);
  const cssFile = files(out).find((f) => /\/assets\/app-[^/]+\.css$/.test(f));
  if (cssFile) console.log(`  (CSS: ${kb(gz(cssFile))} gzipped)`);
}

async function benchFirstToken(): Promise<void> {
  const modelTimes: number[] = [];
  const webTimes: number[] = [];
  const modelBody = JSON.stringify({ model: 'fake-model', stream: true, messages: [{ role: 'user', content: 'when do we fly?' }] });
  for (let i = 0; i < runs + 3; i++) {
    const m = await firstToken(
      `${fixture.model.url}/chat/completions`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: modelBody },
      (l) => l.startsWith('data:') && l.includes('"content":"') && !l.includes('"content":""'),
    );
    const w = await firstToken(
      `${fixture.web.url}/api/projects/trip/messages`,
      { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ text: `when do we fly? (${i})` }) },
      (l) => l === 'event: text_delta',
    );
    if (i >= 3) {
      modelTimes.push(m);
      webTimes.push(w);
    }
  }
  const p50m = quantile(modelTimes, 0.5);
  const p50w = quantile(webTimes, 0.5);
  console.log(`\nTime from request to first streamed token, ${runs} runs (model answers after ${modelDelay} ms):`);
  console.log(`  model alone:           p50 ${p50m.toFixed(1)} ms · p95 ${quantile(modelTimes, 0.95).toFixed(1)} ms`);
  console.log(`  through the web app:   p50 ${p50w.toFixed(1)} ms · p95 ${quantile(webTimes, 0.95).toFixed(1)} ms`);
  console.log(`  added by Charlie:      p50 ${(p50w - p50m).toFixed(1)} ms (archive, history, memory layers, prompt, SSE)`);
}
