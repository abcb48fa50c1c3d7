/**
 * Chaos: a hostile model server behind the whole stack — the real discord.js client against
 * the fake Discord, the real Assistant and OpenAI-compatible client against the scripted model
 * server. Every behaviour must end with one clear reply, and the channel must answer the next
 * message as usual.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantSettings } from '../../src/core/assistant.js';
import { REPLY_CUT } from '../../src/core/turn/events.js';
import { silentLogger, systemClock } from '../../src/core/ports/index.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { makeAssistant, testSettings } from '../support/assistant-fixture.js';
import { testChatModel } from '../support/model-servers.js';
import { startBotHarness, type BotHarness } from '../support/fake-discord/bot-harness.js';
import type { Json } from '../support/fake-discord/server.js';
import { startFakeModelServer, type FakeModelServer, type ScriptedReply } from '../support/fake-model-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const NEXT = 'Back to normal.';

/** The first chat request gets `hostile`; every later one an ordinary answer. */
async function setup(hostile: ScriptedReply | ((index: number) => ScriptedReply), opts: { settings?: Partial<AssistantSettings>; replyMaxMessages?: number; timeoutMs?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-chaos-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  let hostileTurn = true;
  const server: FakeModelServer = await startFakeModelServer((_req, index) => {
    if (!hostileTurn) return { text: NEXT };
    return typeof hostile === 'function' ? hostile(index) : hostile;
  });
  cleanups.push(() => server.close());
  const model = testChatModel(server.url, { model: 'hostile', timeoutMs: opts.timeoutMs ?? 3000, maxResponseChars: 500_000 });
  const store = new FileProjectStore({ projectsDir: join(dir, 'projects'), clock: systemClock, logger: silentLogger });
  const settings: AssistantSettings = { ...testSettings, ...opts.settings, limits: { ...testSettings.limits, deadlineMs: 8000, maxReplyChars: 6000, ...opts.settings?.limits } };
  const { assistant } = makeAssistant({ model, memoryModel: null, store, clock: systemClock, settings });
  const h = await startBotHarness({ assistant, config: { DISCORD_REPLY_MAX_MESSAGES: opts.replyMaxMessages ?? 5 } });
  cleanups.push(async () => {
    await h.close();
    await assistant.idle();
  });
  return { h, server, calm: () => (hostileTurn = false) };
}

const content = (m: Json) => String(m.content);
const ask = (h: BotHarness, text: string) => h.fake.postMessage(h.general, h.alice, `<@${h.fake.bot.id}> ${text}`, { mentions: [h.fake.bot] });

/** Posts a message, waits until the bot is idle again, returns the bot messages it caused. */
async function turn(h: BotHarness, text: string): Promise<string[]> {
  const before = h.fake.botMessagesIn(h.general.id).length;
  ask(h, text);
  await h.fake.waitFor(() => (h.fake.botMessagesIn(h.general.id).length > before ? true : null), 15_000, 'a reply');
  await h.bot.idle();
  return h.fake.botMessagesIn(h.general.id).slice(before).map(content);
}

/** After the hostile turn: the next message gets an ordinary answer. */
async function stillAnswers(h: BotHarness, calm: () => void): Promise<void> {
  calm();
  expect(await turn(h, 'are you still there?')).toEqual([NEXT]);
}

describe('chaos: a hostile model', () => {
  it('a stream without end yields one capped reply in at most DISCORD_REPLY_MAX_MESSAGES messages, the stream is dropped, and the channel keeps answering', async () => {
    const { h, server, calm } = await setup({ endless: 'text' }, { replyMaxMessages: 2 });
    const rss = process.memoryUsage().rss;
    const messages = await turn(h, 'tell me everything');
    expect(messages.length).toBeLessThanOrEqual(2);
    expect(messages.at(-1)).toContain(REPLY_CUT);
    expect(messages.join('').length).toBeLessThan(2 * 2000 + 1);
    expect(messages.some((m) => m.includes('⏳'))).toBe(false);
    await h.fake.waitFor(() => (server.endlessBytes.length ? true : null), 5000, 'the endless stream to be dropped');
    expect(server.endlessBytes[0]).toBeLessThan(2_000_000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(200_000_000);
    await stillAnswers(h, calm);
  });

  it('endless tool calls end at the step limit with an answer', async () => {
    const { h, server, calm } = await setup(() => ({ toolCalls: [{ name: 'current_time', arguments: '{}' }] }), {
      settings: { limits: { maxSteps: 3, maxToolCalls: 50, deadlineMs: 8000, maxReplyChars: 6000 } },
    });
    const messages = await turn(h, 'what time is it?');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/could not put an answer together|current_time/);
    expect(server.requests.length).toBe(4); // 3 tool steps + the last call without tools
    await stillAnswers(h, calm);
  });

  it('tool-call fragments streamed without end are cut at the response limit and the turn still ends', async () => {
    const { h, server, calm } = await setup((index) => (index === 0 ? { endless: 'tool_call' } : { text: 'The tool call was broken.' }));
    const messages = await turn(h, 'what time is it?');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('The tool call was broken.');
    expect(server.endlessBytes[0]).toBeLessThan(2_000_000);
    await stillAnswers(h, calm);
  });

  it('a <tool_call> in the text that never closes ends as a capped reply', async () => {
    const { h, calm } = await setup({ endless: 'text_tool_call' });
    const messages = await turn(h, 'what time is it?');
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.length).toBeLessThanOrEqual(5);
    expect(messages[0]).toMatch(/only tool-call markup/);
    expect(messages.join('\n')).toContain(REPLY_CUT);
    expect(messages.at(-1)).toMatch(/reply was cut at 6000 characters/);
    await stillAnswers(h, calm);
  });

  it('an HTML page with status 200 is explained as not a model reply', async () => {
    const { h, calm } = await setup({ raw: { contentType: 'text/html', body: '<html><head><title>Router login</title></head><body>log in</body></html>' } });
    const [message] = await turn(h, 'hello?');
    expect(message).toMatch(/not a model reply/);
    expect(message).toMatch(/LLM_BASE_URL/);
    expect(message).not.toMatch(/can't reach/);
    await stillAnswers(h, calm);
  });

  it('a stream that stalls is explained as stopped answering', async () => {
    const { h, calm } = await setup({ text: 'I was about to say', hangAfterFirstChunk: true }, { timeoutMs: 400 });
    const [message] = await turn(h, 'hello?');
    expect(message).toMatch(/stopped answering/);
    await stillAnswers(h, calm);
  });

  it('a model that trickles for longer than the turn deadline: one reply, ended by the deadline', async () => {
    const slow: ScriptedReply = { endless: 'text', chunkDelayMs: 100 };
    const { h, calm } = await setup(slow, { settings: { limits: { maxSteps: 4, maxToolCalls: 6, deadlineMs: 4000, maxReplyChars: 6000 } } });
    const started = Date.now();
    const messages = await turn(h, 'slowly please');
    expect(Date.now() - started).toBeLessThan(8000);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/ran out of time/);
    await stillAnswers(h, calm);
  });

  it('a 401 and a 400 context overflow each get their own explanation, never "can\'t reach"', async () => {
    const auth = await setup({ status: 401, errorBody: '{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}' });
    const [denied] = await turn(auth.h, 'hello?');
    expect(denied).toMatch(/refused my key/);
    expect(denied).toMatch(/LLM_API_KEY/);
    expect(denied).not.toMatch(/can't reach/);
    await stillAnswers(auth.h, auth.calm);

    const overflow = await setup({ status: 400, errorBody: '{"error":{"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}' });
    const [tooLong] = await turn(overflow.h, 'hello?');
    expect(tooLong).toMatch(/too long for the model's context/);
    expect(tooLong).not.toMatch(/can't reach/);
    await stillAnswers(overflow.h, overflow.calm);
  });
});
