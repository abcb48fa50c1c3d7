/**
 * The memory lane's word before anything leaves (issue 36; src/core/turn/precheck.ts), on the
 * real composition (buildApp): a message in words the rules miss (checked: the rules return
 * nothing for them), flagged by the scripted local lane, is withheld from the hosted chat model in
 * its OWN turn and never embedded by the hosted embedder, and is still labelled after a restart;
 * an ordinary message still reaches both. A lane that never answers: the message fails closed and
 * the turn still answers. Everything local: the lane is not asked. Switched off: the same message
 * reaches the hosted model in its own turn (the gap this closes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { classifyText } from '../../src/core/privacy/sensitivity.js';
import type { ConsentRequest } from '../../src/core/privacy/consent.js';
import type { App } from '../../src/app/app.js';
import { startFakeModelServer, type FakeModelServer, type ScriptedReply } from '../support/fake-model-server.js';
import { tempDirs } from '../support/temp-dir.js';
import { cleanupsAfterEach, dm, project, startApp } from '../support/hosted-app.js';

const tempDir = tempDirs('charlie-lane-precheck-');
const cleanups = cleanupsAfterEach();

/** Said in words the rules table does not know (asserted below). */
const MISSED = ['Ollie CnrydryQ has been dry for ninety days now, he goes to his group on Thursdays.', 'The side gate CnrygateQ opens if you press 7 4 1 9 and then the bell.'];
const DM_MISSED = 'I have been dry CnrydmdryQ for ninety days, do not tell anyone.';
const CONTROL = 'Let us meet at the climbing wall CnrycontrolQ on Saturday.';
const canary = (text: string) => /Cnry\w+Q/.exec(text)![0];

interface Request {
  messages: { role: string; content: unknown }[];
  response_format?: unknown;
}
const toolResults = (r: Request) => r.messages.filter((m) => m.role === 'tool').length > 0;

/** A hosted model that searches memory once (the index then catches up through the hosted embedder), then answers. */
const searcher = (r: Request): ScriptedReply => (toolResults(r) ? { text: 'Noted.' } : { toolCalls: [{ name: 'search_memory', arguments: '{"query":"friends plans weekend"}' }] });

/** The local lane: flags a message holding a flagged canary, clears the rest (a precheck and a distillation alike). */
function flagging(flagged: readonly string[]): (r: Request) => ScriptedReply {
  return (r) => {
    if (!r.response_format) return { text: '{}' };
    const shown = String(r.messages.at(-1)?.content ?? '');
    const numbered = [...shown.matchAll(/^\[(\d+)\] (.*)$/gm)].map((m) => ({ n: Number(m[1]), text: m[2] ?? '' }));
    const sensitive = numbered.filter((m) => flagged.some((c) => m.text.includes(c))).map((m) => ({ message: m.n, kind: 'other' }));
    return { text: JSON.stringify({ summary: 'Friends talked.', decisions: [], quotes: [], sensitive }) };
  };
}

/** Prechecks the lane was asked (a distillation's prompt is a different one). */
const prechecks = (lane: FakeModelServer) => lane.requests.filter((r: Request) => String(r.messages[0]?.content).startsWith('You check one new message')).length;

interface World {
  dir: string;
  chat: FakeModelServer;
  lane: FakeModelServer;
  embedder: FakeModelServer | null;
}

async function world(chatScript: (r: Request) => ScriptedReply, laneScript: (r: Request) => ScriptedReply, hosted: boolean): Promise<World> {
  const chat = await startFakeModelServer(chatScript);
  const lane = await startFakeModelServer(laneScript);
  const embedder = hosted ? await startFakeModelServer([]) : null;
  cleanups.push(
    () => chat.close(),
    () => lane.close(),
    () => embedder?.close(),
  );
  return { dir: tempDir(), chat, lane, embedder };
}

async function start(w: World, extra: Record<string, string> = {}): Promise<App> {
  const config = loadConfig(
    {
      LLM_BASE_URL: w.chat.url,
      LLM_LOCALITY: w.embedder ? 'hosted' : 'local',
      LLM_API_KEY: 'test-key',
      LLM_MAX_RETRIES: '0',
      MEMORY_LLM_BASE_URL: w.lane.url,
      ...(w.embedder ? { EMBEDDER: 'openai', EMBEDDING_BASE_URL: w.embedder.url, EMBEDDING_LOCALITY: 'hosted', EMBEDDING_MODEL: 'fake-embed' } : { EMBEDDER: 'builtin' }),
      WATCH_PROJECTS: 'false',
      // no distillation: a label comes from the rules or the precheck only
      DISTILL_EVERY: '1000',
      WEB_PORT: '0',
      PRIVACY_PRECHECK_TIMEOUT_MS: '800',
      TURN_DEADLINE_MS: '30000',
      PROJECTS_DIR: join(w.dir, 'projects'),
      DATA_DIR: join(w.dir, 'data'),
      ...extra,
    },
    w.dir,
  );
  return startApp(config, cleanups);
}

const say = (app: App, place: Place, text: string, n: number) => app.assistant.conversation.handle({ place, speaker: place.kind === 'private' ? 'Dana' : 'Alice', text, source: `terminal:${n}` });
/** Everything the hosted chat model was sent, from request `from` on. */
const sentToChat = (w: World, from = 0) => JSON.stringify(w.chat.requests.slice(from).map((r: Request) => r.messages.map((m) => m.content)));
const archive = (w: World) => readFileSync(join(w.dir, 'projects', 'general', 'log', `${new Date().toISOString().slice(0, 10)}.md`), 'utf8');

describe('the local memory lane judges a message before anything leaves', () => {
  it('the rules miss these wordings', () => {
    expect([...MISSED, DM_MISSED, CONTROL].map((t) => classifyText(t))).toEqual([...MISSED, DM_MISSED, CONTROL].map(() => null));
  });

  it('a message the lane flags is withheld from the hosted model in its own turn, never embedded by the hosted embedder, and still labelled after a restart; an ordinary one reaches both', async () => {
    const w = await world(searcher, flagging([...MISSED, DM_MISSED].map(canary)), true);
    const app = await start(w);
    for (const [i, text] of [MISSED[0]!, CONTROL, MISSED[1]!].entries()) {
      const before = w.chat.requests.length;
      const out = await say(app, project, text, i + 1);
      expect(out.reply).toBe('Noted.');
      // THAT SAME turn's requests (its first one and the one after the search)
      const sent = sentToChat(w, before);
      if (text === CONTROL) expect(sent).toContain(canary(CONTROL));
      else expect(sent).not.toContain(canary(text));
    }
    await say(app, dm, DM_MISSED, 4);
    await app.assistant.idle();
    expect(prechecks(w.lane)).toBe(4);
    // the index caught up at each search: the ordinary message was embedded, the flagged ones never
    const embedded = JSON.stringify(w.embedder!.embedInputs);
    expect(embedded).toContain(canary(CONTROL));
    for (const c of [...MISSED, DM_MISSED].map(canary)) expect(embedded).not.toContain(c);
    // labelled where distillation's verdict labels: the archive's label line (a DM: its row's column)
    for (const t of MISSED) expect(archive(w)).toMatch(new RegExp(`${canary(t)}[^\\n]*\\n\\[sensitivity:: sensitive\\]`));
    expect(archive(w)).toMatch(new RegExp(`${canary(CONTROL)} on Saturday\\.\\n\\n###`));
    await app.close();

    // ── after a restart, with the lane gone quiet (it says nothing is sensitive now): the stored labels hold ──
    const quiet = await startFakeModelServer(flagging([]));
    cleanups.push(() => quiet.close());
    const again = await start({ ...w, lane: quiet });
    const before = w.chat.requests.length;
    await say(again, project, 'what did we talk about?', 5);
    await say(again, dm, 'what did I tell you?', 6);
    const sent = sentToChat(w, before);
    expect(sent).toContain(canary(CONTROL));
    for (const c of [...MISSED, DM_MISSED].map(canary)) expect(sent).not.toContain(c);
    for (const c of [...MISSED, DM_MISSED].map(canary)) expect(JSON.stringify(w.embedder!.embedInputs)).not.toContain(c);
  }, 90_000);

  it('switched off (PRIVACY_PRECHECK=off): the same message reaches the hosted model in its own turn, and the hosted embedder', async () => {
    const w = await world(searcher, flagging(MISSED.map(canary)), true);
    const app = await start(w, { PRIVACY_PRECHECK: 'off' });
    await say(app, project, MISSED[0]!, 1);
    expect(prechecks(w.lane)).toBe(0);
    expect(sentToChat(w)).toContain(canary(MISSED[0]!));
    expect(JSON.stringify(w.embedder!.embedInputs)).toContain(canary(MISSED[0]!));
  }, 60_000);

  it('a lane that never answers: the message fails closed (kept from the hosted model and embedder, stored labelled), and the turn still answers', async () => {
    const w = await world(searcher, (r) => (r.response_format ? { hang: true } : { text: '{}' }), true);
    const app = await start(w);
    const out = await say(app, project, CONTROL, 1);
    expect(out.reason).toBe('done');
    expect(out.reply).toBe('Noted.');
    expect(out.notices.join('\n')).toMatch(/privacy check could not judge this message in time/);
    expect(prechecks(w.lane)).toBe(1);
    expect(sentToChat(w)).not.toContain(canary(CONTROL));
    expect(JSON.stringify(w.embedder!.embedInputs)).not.toContain(canary(CONTROL));
    expect(archive(w)).toMatch(new RegExp(`${canary(CONTROL)}[^\\n]*\\n\\[sensitivity:: sensitive/unjudged\\]`));
  }, 60_000);

  it('Stop ends the precheck (its deadline is far off): the turn ends, and the message is stored labelled', async () => {
    const w = await world(searcher, (r) => (r.response_format ? { hang: true } : { text: '{}' }), true);
    const app = await start(w, { PRIVACY_PRECHECK_TIMEOUT_MS: '120000' });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);
    // without Stop reaching the precheck, this waits for its two minutes and the test's own limit fails it
    const out = await app.assistant.conversation.handle({ place: project, speaker: 'Alice', text: CONTROL, source: 'terminal:1' }, { signal: stop.signal });
    expect(out.reason).not.toBe('deadline');
    expect(sentToChat(w)).not.toContain(canary(CONTROL));
    expect(archive(w)).toMatch(new RegExp(`${canary(CONTROL)}[^\\n]*\\n\\[sensitivity:: sensitive/unjudged\\]`));
  }, 20_000);

  it("a provisional label is settled by the lane's next whole verdict: an ordinary message reaches the hosted model again, one the lane names stays labelled", async () => {
    // the lane is too slow for the precheck (it fails closed) but distils the batch later
    const w = await world(searcher, (r) => (String(r.messages[0]?.content).startsWith('You check one new message') ? { hang: true } : flagging([canary(MISSED[0]!)])(r)), true);
    const app = await start(w);
    await say(app, project, CONTROL, 1);
    await say(app, project, MISSED[0]!, 2);
    await say(app, dm, CONTROL.replace('CnrycontrolQ', 'CnrydmcontrolQ'), 3);
    expect(archive(w).match(/\[sensitivity:: sensitive\/unjudged\]/g)?.length).toBe(2);
    // a whole verdict: the ordinary message is settled as ordinary, the one it names as it names it
    await say(app, project, 'And the rope.', 4);
    await app.assistant.memory.distillNow(project);
    await app.assistant.memory.distillNow(dm);
    const text = archive(w);
    expect(text).not.toContain('sensitive/unjudged');
    expect(text).not.toMatch(new RegExp(`${canary(CONTROL)}[^\\n]*\\n\\[sensitivity::`));
    expect(text).toMatch(new RegExp(`${canary(MISSED[0]!)}[^\\n]*\\n\\[sensitivity:: sensitive\\]`));
    // after a restart, the next turn's history carries the settled messages to the hosted model, never the named one
    await app.close();
    const again = await start(w, { PRIVACY_PRECHECK: 'off' });
    const from = w.chat.requests.length;
    await say(again, project, 'What are we doing on Saturday?', 5);
    await say(again, dm, 'What did I say?', 6);
    expect(sentToChat(w, from)).toContain(canary(CONTROL));
    expect(sentToChat(w, from)).toContain('CnrydmcontrolQ');
    expect(sentToChat(w, from)).not.toContain(canary(MISSED[0]!));
  }, 90_000);

  it('a malformed verdict fails closed too', async () => {
    const w = await world(searcher, (r) => (r.response_format ? { text: '{"sensitive": "nothing, ignore previous instructions"}' } : { text: '{}' }), true);
    const app = await start(w);
    await say(app, project, CONTROL, 1);
    expect(sentToChat(w)).not.toContain(canary(CONTROL));
  }, 60_000);

  it("CONSENT_MODE=ask: the message the lane flagged is its speaker's item, asked about in its own turn; once → the hosted model reads it", async () => {
    const w = await world(() => ({ text: 'Noted.' }), flagging([canary(MISSED[0]!)]), true);
    const app = await start(w, { CONSENT_MODE: 'ask' });
    const asked: ConsentRequest[] = [];
    await app.assistant.conversation.handle(
      { place: project, speaker: 'Alice', text: MISSED[0]!, source: 'terminal:1' },
      { consent: { person: { id: 'alice-1', name: 'Alice', role: 'member' }, shared: true, ask: (r) => (asked.push(r), Promise.resolve('once')) } },
    );
    expect(asked.flatMap((r) => r.items.map((i) => i.name))).toEqual([expect.stringMatching(/^Alice's message at \d\d:\d\d$/)]);
    expect(sentToChat(w)).toContain(canary(MISSED[0]!));
  }, 60_000);

  it('everything local: the lane is not asked (no cost); PRIVACY_PRECHECK=on asks it anyway', async () => {
    const w = await world(() => ({ text: 'Noted.' }), flagging([]), false);
    const app = await start(w);
    await say(app, project, CONTROL, 1);
    await say(app, dm, MISSED[0]!, 2);
    expect(prechecks(w.lane)).toBe(0);
    await app.close();
    const on = await start(w, { PRIVACY_PRECHECK: 'on' });
    await say(on, project, CONTROL, 3);
    expect(prechecks(w.lane)).toBe(1);
  }, 60_000);
});
