/**
 * Server memory over many turns, for `npm run bench:web`: the resident set size (RSS) and the
 * V8 heap of this process — which is the whole Charlie with its web app, the fixture's — after a
 * full garbage collection, at 0, 50, 100 and 200 chat turns through POST /api/projects/:project/messages
 * (SSE, read to the end). Run with --expose-gc (the npm script does), else the figures include
 * garbage not yet collected.
 */
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { TOKEN, type WebFixture } from '../test/support/web-fixture.js';
import { anonByKind, formatAnonByKind, formatHeapSpaces, reducingGc, formatProcMemory, procMemory, type ProcMemory } from './proc-memory.js';

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/**
 * The scripted model server runs in this process too and keeps every request it got (for tests'
 * assertions): a heap snapshot diff over 100 turns showed those bodies (system prompt, tools,
 * history, ~16 KB a turn) as most of the growth. They are dropped before each measure, so the
 * figures are Charlie's.
 */
function forgetModelLog(fixture: WebFixture): void {
  fixture.model.requests.length = 0;
  fixture.model.requestHeaders.length = 0;
  fixture.model.embedInputs.length = 0;
}

async function settle(): Promise<ProcMemory> {
  for (let i = 0; i < 3; i++) {
    reducingGc();
    await new Promise((r) => setTimeout(r, 50));
  }
  return procMemory();
}

async function turn(fixture: WebFixture, project: string, i: number): Promise<void> {
  const res = await fetch(`${fixture.web.url}/api/projects/${project}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: `what about the flight, question ${i}?` }),
  });
  await res.text();
}

/** `heapSnapshots`: a folder to write a V8 heap snapshot to at 50 turns and at the last mark (to compare in DevTools' Memory tab). */
export async function benchMemory(fixture: WebFixture, project: string, marks: readonly number[] = [0, 50, 100, 200], verbose = false, heapSnapshots?: string): Promise<void> {
  const gcOn = typeof (globalThis as { gc?: unknown }).gc === 'function';
  console.log(`\nServer memory over chat turns (this process: Charlie + its web app${gcOn ? ', after a full GC that gives memory back' : '; run with --expose-gc for figures after a GC'}):`);
  // LanceDB loads on the first search or index update, once: its library (~50 MB of code, file-backed)
  // and its thread pools. One search first, so that this one-time step does not read as growth.
  const before = await settle();
  await fetch(`${fixture.web.url}/api/projects/${project}/search?q=flight`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.text());
  const loaded = await settle();
  console.log(`  before the first search: RSS ${mb(before.rss)} (${before.threads} threads); after it (LanceDB loaded): RSS ${mb(loaded.rss)} (${loaded.threads} threads)`);
  let done = 0;
  const rows: { turns: number; rss: number; heap: number }[] = [];
  for (const mark of marks) {
    while (done < mark) await turn(fixture, project, done++);
    forgetModelLog(fixture);
    const m = await settle();
    rows.push({ turns: mark, rss: m.rss, heap: m.heapUsed });
    console.log(
      `  ${String(mark).padStart(4)} turns:  RSS ${mb(m.rss).padStart(9)} (anonymous ${mb(m.rssAnon).padStart(9)}, code and files ${mb(m.rssFile).padStart(9)}) · heap used ${mb(m.heapUsed).padStart(8)} · ${m.threads} threads`,
    );
    if (verbose) console.log(`              ${formatProcMemory(m)}\n              ${formatAnonByKind(anonByKind())}\n              ${formatHeapSpaces()}`);
    if (heapSnapshots && (mark === 50 || mark === marks.at(-1))) console.log(`              heap snapshot: ${writeHeapSnapshot(join(heapSnapshots, `web-${mark}.heapsnapshot`))}`);
  }
  if (verbose) {
    // V8 gives back pages it keeps pooled, and tokio its idle threads (after 10 s), only when the process is idle for a while
    await new Promise((r) => setTimeout(r, 20_000));
    const idle = await settle();
    console.log(`  20 s idle after the last turn: RSS ${mb(idle.rss)} · ${formatProcMemory(idle)}\n              ${formatAnonByKind(anonByKind())}`);
  }
  const first = rows[1] ?? rows[0];
  const last = rows[rows.length - 1];
  if (first && last && last.turns > first.turns) {
    const per = (last.heap - first.heap) / (last.turns - first.turns);
    console.log(`  heap from ${first.turns} to ${last.turns} turns: ${per >= 0 ? '+' : ''}${(per / 1024).toFixed(1)} KB a turn; RSS ${last.rss >= first.rss ? '+' : ''}${mb(last.rss - first.rss)}`);
  }
}
