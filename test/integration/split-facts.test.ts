/**
 * A fact split over two messages (fourth outside sweep, run b3; src/core/turn/judge-message.ts):
 * "Tobin starts at Fernhill House on Monday" is ordinary alone and goes to the hosted services in
 * its own turn; "Fernhill House is the residential rehab…" later makes it sensitive. The precheck
 * reads the new message with the place's earlier ones, the scripted local lane names the earlier
 * one, and its stored label goes up (the day file's label line, the DM row), so from the second
 * half on the first never reaches the hosted chat model (history, search results) or the hosted
 * embedder — in that turn and after a restart. A restart between the two halves: the lane reads
 * the first from the archive. Ordinary pairs still go.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { classifyText } from '../../src/core/privacy/sensitivity.js';
import type { App } from '../../src/app/app.js';
import { startFakeModelServer, type FakeModelServer, type ScriptedReply } from '../support/fake-model-server.js';
import { tempDirs } from '../support/temp-dir.js';
import { cleanupsAfterEach, dm, project, startApp } from '../support/hosted-app.js';

const tempDir = tempDirs('charlie-split-facts-');
const cleanups = cleanupsAfterEach();

/** The first half is ordinary alone; the second names what the first one's place is (the project's: the rules catch it; the DM's: only the lane). */
const PAIRS = {
  project: { first: 'Tobin starts at Fernhill House CnryfirstQ on Monday, for six weeks.', second: 'Fernhill House is the residential rehab CnrysecondQ off the A38.', place: 'Fernhill House' },
  dm: { first: 'Noor has an appointment CnrydmfirstQ in room B4 at Westgate on Friday.', second: 'B4 at Westgate is where they do the bloods CnrydmsecondQ for the virus.', place: 'B4 at Westgate' },
};
/** An ordinary pair of the same shape: nothing is named, both go. */
const CONTROL = { first: 'Maya starts at Oakfield School CnryctlaQ on Monday.', second: 'Oakfield School is the new primary CnryctlbQ by the park.' };
const canary = (text: string) => /Cnry\w+Q/.exec(text)![0];

interface Request {
  messages: { role: string; content: unknown }[];
  response_format?: unknown;
}

/** A hosted model that searches memory for what the first halves say once a turn, then answers. */
const searcher = (r: Request): ScriptedReply =>
  r.messages.some((m) => m.role === 'tool') ? { text: 'Noted.' } : { toolCalls: [{ name: 'search_memory', arguments: '{"query":"Tobin Fernhill House Noor Westgate"}' }] };

/**
 * The local lane, judging as a person would: a second half is sensitive, and when it is the new
 * message, an earlier message naming the same place is too. A message alone, or an ordinary pair, is not.
 */
function lane(r: Request): ScriptedReply {
  if (!r.response_format) return { text: '{}' };
  const shown = String(r.messages.at(-1)?.content ?? '');
  const numbered = [...shown.matchAll(/^\[(\d+)\] (.*)$/gm)].map((m) => ({ n: Number(m[1]), text: m[2] ?? '' }));
  const newest = numbered.at(-1);
  const sensitive: { message: number; kind: string }[] = [];
  for (const pair of Object.values(PAIRS)) {
    for (const m of numbered) if (m.text.includes(canary(pair.second))) sensitive.push({ message: m.n, kind: 'phi' });
    if (newest?.text.includes(canary(pair.second))) for (const m of numbered) if (m !== newest && m.text.includes(pair.place)) sensitive.push({ message: m.n, kind: 'phi' });
  }
  return { text: JSON.stringify({ summary: 'Talked.', decisions: [], quotes: [], sensitive }) };
}

interface World {
  dir: string;
  chat: FakeModelServer;
  lane: FakeModelServer;
  embedder: FakeModelServer;
}

async function world(): Promise<World> {
  const w = { dir: tempDir(), chat: await startFakeModelServer(searcher), lane: await startFakeModelServer(lane), embedder: await startFakeModelServer([]) };
  cleanups.push(
    () => w.chat.close(),
    () => w.lane.close(),
    () => w.embedder.close(),
  );
  return w;
}

async function start(w: World, extra: Record<string, string> = {}): Promise<App> {
  const config = loadConfig(
    {
      LLM_BASE_URL: w.chat.url,
      LLM_LOCALITY: 'hosted',
      LLM_API_KEY: 'test-key',
      LLM_MAX_RETRIES: '0',
      MEMORY_LLM_BASE_URL: w.lane.url,
      EMBEDDER: 'openai',
      EMBEDDING_BASE_URL: w.embedder.url,
      EMBEDDING_LOCALITY: 'hosted',
      EMBEDDING_MODEL: 'fake-embed',
      // no distillation: a label comes from the rules or the precheck only
      DISTILL_EVERY: '1000',
      WEB_PORT: '0',
      PRIVACY_PRECHECK_TIMEOUT_MS: '2000',
      TURN_DEADLINE_MS: '30000',
      PROJECTS_DIR: join(w.dir, 'projects'),
      DATA_DIR: join(w.dir, 'data'),
      WATCH_PROJECTS: 'false',
      ...extra,
    },
    w.dir,
  );
  return startApp(config, cleanups);
}

let n = 0;
const say = (app: App, place: Place, text: string) => app.assistant.conversation.handle({ place, speaker: place.kind === 'private' ? 'Dana' : 'Alice', text, source: `terminal:${++n}` });
const sentToChat = (w: World, from: number) => JSON.stringify(w.chat.requests.slice(from).map((r: Request) => r.messages.map((m) => m.content)));
const embedded = (w: World, from: number) => JSON.stringify(w.embedder.embedInputs.slice(from));
/** The project's index rows holding `text` (or whose context does), read straight from LanceDB: their label, and whether their vector is a hosted one (not all zeros). */
async function indexRows(w: World, text: string): Promise<{ sensitivity: string; hostedVector: boolean; inContext: boolean }[]> {
  const db = await lancedb.connect(join(w.dir, 'data', 'index'));
  try {
    const out: { sensitivity: string; hostedVector: boolean; inContext: boolean }[] = [];
    for (const name of (await db.tableNames()).filter((t) => t.startsWith('general__'))) {
      const table = await db.openTable(name);
      for (const r of (await table.query().select(['text', 'context', 'sensitivity', 'vector']).toArray()) as { text: string; context: string; sensitivity: string; vector: ArrayLike<number> }[]) {
        if (!r.text.includes(text) && !r.context.includes(text)) continue;
        out.push({ sensitivity: r.sensitivity, hostedVector: Array.from(r.vector).some((v) => v !== 0), inContext: !r.text.includes(text) });
      }
      table.close();
    }
    return out;
  } finally {
    db.close();
  }
}
const archive = (w: World) => readFileSync(join(w.dir, 'projects', 'general', 'log', `${new Date().toISOString().slice(0, 10)}.md`), 'utf8');

describe('a fact split over two messages', () => {
  it('the first halves and the controls are ordinary alone (the rules let them pass)', () => {
    expect([PAIRS.project.first, PAIRS.dm.first, PAIRS.dm.second, CONTROL.first, CONTROL.second].map((t) => classifyText(t))).toEqual([null, null, null, null, null]);
  });

  it.each([
    ['read at each search', 'false'],
    ['watched (the default)', 'true'],
  ])(
    'the second half raises the first: from then on it reaches neither the hosted chat model nor the hosted embedder, in that turn and after a restart; an ordinary pair still goes (index %s)',
    async (_, watch) => {
      const w = await world();
      const settings = { WATCH_PROJECTS: watch };
      let app = await start(w, settings);
      // the first halves, ordinary alone: they go, in their own turns (what was sent then can't be taken back)
      for (const place of [project, dm]) {
        const pair = place === project ? PAIRS.project : PAIRS.dm;
        const from = w.chat.requests.length;
        await say(app, place, pair.first);
        expect(sentToChat(w, from)).toContain(canary(pair.first));
      }
      await say(app, project, CONTROL.first);
      expect(embedded(w, 0)).toContain(canary(PAIRS.project.first));
      expect(await indexRows(w, canary(PAIRS.project.first))).toContainEqual({ sensitivity: 'personal', hostedVector: true, inContext: false });
      // a restart between the halves: the lane reads the first from the archive (the day file, the DM rows)
      await app.close();
      app = await start(w, settings);

      const chatFrom = w.chat.requests.length;
      const embedFrom = w.embedder.embedInputs.length;
      for (const place of [project, dm]) {
        const pair = place === project ? PAIRS.project : PAIRS.dm;
        const from = w.chat.requests.length;
        const out = await say(app, place, pair.second);
        expect(out.reply).toBe('Noted.');
        // THAT turn: its history and its search results carry neither half
        const sent = sentToChat(w, from);
        expect(sent).not.toContain(canary(pair.first));
        expect(sent).not.toContain(canary(pair.second));
      }
      await say(app, project, CONTROL.second);
      // the control pair went, both halves, to the chat model (history, search) and the embedder
      expect(sentToChat(w, chatFrom)).toContain(canary(CONTROL.first));
      expect(sentToChat(w, chatFrom)).toContain(canary(CONTROL.second));
      await vi.waitFor(() => expect(embedded(w, embedFrom)).toContain(canary(CONTROL.second)), { timeout: 5000 });
      // the hosted vector the first half got in its own turn is gone: its row is labelled and has none, and no other row's context holds its words
      expect(await indexRows(w, canary(PAIRS.project.first))).toEqual([{ sensitivity: 'sensitive', hostedVector: false, inContext: false }]);
      // stored where labels live: the first half's label line (and its reply's)
      expect(archive(w)).toMatch(new RegExp(`${canary(PAIRS.project.first)}[^\\n]*\\n\\[sensitivity:: sensitive/phi\\]`));
      expect(archive(w)).toMatch(new RegExp(`${canary(CONTROL.first)} on Monday\\.\\n\\n###`));

      // ── after a restart, with the lane gone quiet: the stored labels hold ──
      await app.close();
      const quiet = await startFakeModelServer((r: Request) => (r.response_format ? { text: '{"summary":"x","decisions":[],"quotes":[],"sensitive":[]}' } : { text: '{}' }));
      cleanups.push(() => quiet.close());
      app = await start({ ...w, lane: quiet }, settings);
      await say(app, project, 'what did we talk about?');
      await say(app, dm, 'what did I tell you?');
      const after = sentToChat(w, chatFrom);
      for (const c of [PAIRS.project.first, PAIRS.project.second, PAIRS.dm.first, PAIRS.dm.second].map(canary)) expect(after).not.toContain(c);
      for (const c of [PAIRS.project.first, PAIRS.project.second].map(canary)) expect(embedded(w, embedFrom)).not.toContain(c);
      expect(after).toContain(canary(CONTROL.first));
      await app.close();
    },
    120_000,
  );

  it('PRIVACY_PRECHECK_CONTEXT=0 judges each message alone: the first half is never raised (the gap this closes)', async () => {
    const w = await world();
    const app = await start(w, { PRIVACY_PRECHECK_CONTEXT: '0' });
    await say(app, project, PAIRS.project.first);
    const from = w.chat.requests.length;
    await say(app, project, PAIRS.project.second);
    expect(sentToChat(w, from)).toContain(canary(PAIRS.project.first));
    expect(archive(w)).not.toMatch(new RegExp(`${canary(PAIRS.project.first)}[^\\n]*\\n\\[sensitivity::`));
  }, 60_000);
});
