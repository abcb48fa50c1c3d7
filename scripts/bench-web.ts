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
 * Usage: npm run bench:web [-- --runs 30 --model-delay 50 --graph-nodes 3000]
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
import { launchChromium } from '../test/support/browser.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '30' }, 'model-delay': { type: 'string', default: '50' }, 'graph-nodes': { type: 'string', default: '3000' } } });
const runs = Number(values.runs);
const modelDelay = Number(values['model-delay']);

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
  // 1. JavaScript shipped
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

  // 4 (first, in a fresh server): the first view over the wire
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const byUrl = new Map<string, string>();
    let wire = 0;
    const parts = new Map<string, number>();
    cdp.on('Network.requestWillBeSent', (e) => byUrl.set(e.requestId, e.request.url));
    cdp.on('Network.loadingFinished', (e) => {
      wire += e.encodedDataLength;
      const path = new URL(byUrl.get(e.requestId) ?? 'http://x/').pathname;
      const kind = path.startsWith('/api/')
        ? 'API'
        : path.startsWith('/assets/')
          ? `assets (${path.endsWith('.css') ? 'css' : 'js'})`
          : path === '/' || path === '/login'
            ? 'pages'
            : 'other (sw, manifest, icon)';
      parts.set(kind, (parts.get(kind) ?? 0) + e.encodedDataLength);
    });
    await page.goto(`${fixture.web.url}/login?token=${TOKEN}`);
    await page.locator('#composer').waitFor();
    await page.waitForLoadState('networkidle');
    console.log(`\nFirst view over the wire (sign-in to the chat drawn, fresh profile): ${kb(wire)}`);
    for (const [k, v] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`  ${k.padEnd(28)} ${kb(v)}`);
    await context.close();
  } finally {
    await browser.close();
  }

  // 5. Server memory at 0, 50, 100 and 200 turns (first: no turn has run yet; the graph comes later)
  await benchMemory(fixture, 'home');

  // 2. Time to first token
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

  // 3. The graph at a few thousand pages
  await benchGraph(fixture, Number(values['graph-nodes']));
} finally {
  await fixture.close();
}
