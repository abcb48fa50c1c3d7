/**
 * The first view over the wire, for `npm run bench:web`: every byte Chromium received (headers
 * and compressed bodies, from the DevTools protocol) from signing in to the chat drawn, in a
 * fresh browser profile, once the network is quiet.
 *
 * "Quiet" is counted here rather than with Playwright's `networkidle`: the app keeps a streamed
 * request open while it runs (the reminder feed, `text/event-stream`), which never finishes, so
 * `networkidle` waits for it until its timeout. Here a request whose response is an event stream
 * is not waited for; every other request must have finished (or failed) for 500 ms.
 */
import { availableParallelism, loadavg } from 'node:os';
import { launchChromium } from '../test/support/browser.js';
import { TOKEN } from '../test/support/web-fixture.js';

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/**
 * How long a browser step may wait: `ms` when given, else 30 s times the machine's load per core
 * (1-minute load average / cores) when that is above 1 — on a loaded shared machine Chromium's
 * start and the first paint slow down with the load — at most 5 minutes.
 */
export function browserStepTimeout(ms?: number, load = loadavg()[0] ?? 0, cores = availableParallelism()): { ms: number; why: string } {
  if (ms !== undefined && Number.isFinite(ms) && ms > 0) return { ms, why: `timeout ${(ms / 1000).toFixed(0)} s, from --timeout` };
  const perCore = load / Math.max(1, cores);
  const scaled = Math.round(Math.min(300_000, 30_000 * Math.max(1, perCore)));
  return { ms: scaled, why: `timeout ${(scaled / 1000).toFixed(0)} s: 30 s × max(1, load ${load.toFixed(1)} / ${cores} cores)` };
}

export async function firstViewBytes(baseUrl: string, timeoutMs: number): Promise<void> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(timeoutMs);
    context.setDefaultNavigationTimeout(timeoutMs);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const byUrl = new Map<string, string>();
    const inFlight = new Set<string>();
    let lastChange = performance.now();
    let wire = 0;
    const parts = new Map<string, number>();
    const settle = (id: string) => {
      if (inFlight.delete(id)) lastChange = performance.now();
    };
    cdp.on('Network.requestWillBeSent', (e) => {
      byUrl.set(e.requestId, e.request.url);
      inFlight.add(e.requestId);
      lastChange = performance.now();
    });
    cdp.on('Network.responseReceived', (e) => {
      if (e.response.mimeType === 'text/event-stream') settle(e.requestId); // open for as long as the app runs
    });
    cdp.on('Network.loadingFailed', (e) => settle(e.requestId));
    cdp.on('Network.loadingFinished', (e) => {
      settle(e.requestId);
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
    await page.goto(`${baseUrl}/login?token=${TOKEN}`);
    await page.locator('#composer').waitFor();
    const started = performance.now();
    while (inFlight.size > 0 || performance.now() - lastChange < 500) {
      if (performance.now() - started > timeoutMs) {
        const open = [...inFlight].map((id) => new URL(byUrl.get(id) ?? 'http://x/').pathname).join(', ');
        throw new Error(`the network was not quiet within ${(timeoutMs / 1000).toFixed(0)} s after the chat was drawn (still open: ${open})`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    console.log(`\nFirst view over the wire (sign-in to the chat drawn, fresh profile): ${kb(wire)}`);
    for (const [k, v] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`  ${k.padEnd(28)} ${kb(v)}`);
    await context.close();
  } finally {
    await browser.close();
  }
}
