/** The turn's failure and bound paths: errors by kind, one deadline that reaches tools, capped replies. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONTEXT_RETRY_NOTICE, ModelHttpError, ModelTimeoutError, ModelUnavailableError } from '../../src/core/errors.js';
import { type ChatChunk, type ChatModel, type ChatRequest } from '../../src/core/ports/index.js';
import { REPLY_CUT } from '../../src/core/turn/tool-loop.js';
import { EmbeddedModelError } from '../../src/llm/embedded/errors.js';
import { defineTool } from '../../src/core/tools/tool.js';
import { collect, makeAssistant, msg, testSettings } from '../support/assistant-fixture.js';
import { InMemoryProjectStore, ScriptedChatModel } from '../support/fakes.js';

const URL = 'http://127.0.0.1:1234/v1/chat/completions';
const overflow = () => new ModelHttpError(400, URL, '{"error":{"message":"the request exceeds the available context size, try increasing it"}}');

describe('model errors by kind', () => {
  it('a 400 context overflow is explained, then the turn is retried once with less history', async () => {
    let calls = 0;
    const model = new ScriptedChatModel((req) => {
      calls++;
      const withHistory = req.messages.length > 2;
      return withHistory ? { error: overflow() } : { text: 'Answered without the old messages.' };
    });
    const { assistant } = makeAssistant({ model, memoryModel: null });
    for (let i = 0; i < 3; i++) await assistant.conversation.handle(msg(`earlier ${i}`, undefined, { reply: false }));
    const { events, onEvent } = collect();
    const out = await assistant.conversation.handle(msg('and now?'), { onEvent });
    expect(out.reason).toBe('done');
    expect(out.reply).toBe('Answered without the old messages.');
    expect(out.notices).toContain(CONTEXT_RETRY_NOTICE);
    expect(events.some((e) => e.type === 'notice' && e.text === CONTEXT_RETRY_NOTICE)).toBe(true);
    expect(calls).toBe(2);
    expect(model.requests[1]!.messages).toHaveLength(2); // system + the message, no history
  });

  it('a context overflow even without history gets its own explanation, never "can\'t reach"', async () => {
    const model = new ScriptedChatModel(() => ({ error: overflow() }));
    const { assistant } = makeAssistant({ model, memoryModel: null });
    await assistant.conversation.handle(msg('earlier', undefined, { reply: false }));
    const out = await assistant.conversation.handle(msg('too much'));
    expect(out.reason).toBe('error');
    expect(out.reply).toMatch(/too long for the model's context/);
    expect(out.reply).not.toMatch(/can't reach/);
    expect(model.requests).toHaveLength(2); // one retry, not more
  });

  it('each kind has its own reply: a 401 names the key, a 429 says wait, a stall says it stopped, none says "can\'t reach"', async () => {
    const cases: [Error, RegExp][] = [
      [new ModelHttpError(401, URL, '{"error":"invalid api key"}'), /refused my key.*LLM_API_KEY/],
      [new ModelHttpError(429, URL, 'slow down'), /rate-limiting/],
      [new ModelHttpError(500, URL, 'boom'), /failed while answering/],
      [new ModelHttpError(404, URL, 'model not found'), /refused the request.*LLM_MODEL/],
      [new ModelTimeoutError(URL, 100), /stopped answering/],
    ];
    for (const [error, expected] of cases) {
      const { assistant } = makeAssistant({ model: new ScriptedChatModel([{ error }]), memoryModel: null });
      const out = await assistant.conversation.handle(msg('hi'));
      expect(out.reply, error.message).toMatch(expected);
      expect(out.reply, error.message).not.toMatch(/can't reach/);
    }
    const { assistant } = makeAssistant({ model: new ScriptedChatModel([{ error: new ModelUnavailableError('http://127.0.0.1:9/v1') }]), memoryModel: null });
    expect((await assistant.conversation.handle(msg('hi'))).reply).toMatch(/can't reach my model server/);
  });

  it('the embedded model: a context overflow is retried with less history; a missing file points to the doctor, not to a server', async () => {
    const overflowing = new ScriptedChatModel((req) => (req.messages.length > 2 ? { error: new EmbeddedModelError('context_overflow', 'does not fit') } : { text: 'short answer' }));
    const { assistant } = makeAssistant({ model: overflowing, memoryModel: null });
    await assistant.conversation.handle(msg('earlier', undefined, { reply: false }));
    expect((await assistant.conversation.handle(msg('now'))).reply).toBe('short answer');

    const missing = new ScriptedChatModel([{ error: new EmbeddedModelError('missing_file', 'the embedded model file /home/x/model.gguf is missing') }]);
    const { assistant: a2 } = makeAssistant({ model: missing, memoryModel: null });
    const out = await a2.conversation.handle(msg('hi'));
    expect(out.reply).toMatch(/npm run doctor/);
    expect(out.reply).not.toMatch(/LLM_BASE_URL|model server|\/home\/x/);
  });
});

describe('one turn deadline', () => {
  it('reaches tools: a tool waiting on its signal is stopped by the turn deadline', async () => {
    let toolSignal: AbortSignal | undefined;
    const slow = defineTool({
      name: 'slow_lookup',
      category: 'memory',
      description: 'waits until aborted',
      params: z.object({}),
      async execute(_args, ctx) {
        toolSignal = ctx.signal;
        await new Promise<void>((resolve) => ctx.signal?.addEventListener('abort', () => resolve(), { once: true }));
        return { content: 'aborted', summary: 'aborted' };
      },
    });
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'slow_lookup', arguments: '{}' }] }, { text: 'after' }]);
    const { assistant } = makeAssistant({ model, memoryModel: null, settings: { limits: { ...testSettings.limits, deadlineMs: 1500 } }, tools: [slow] });
    const started = Date.now();
    const out = await assistant.conversation.handle(msg('look it up'));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(toolSignal?.aborted).toBe(true);
    expect(out.reason).toBe('deadline');
    expect(out.deadline).toBeInstanceOf(AbortSignal);
  });

  it('a turn whose storage never answers still ends by the deadline', async () => {
    const store = new InMemoryProjectStore();
    store.recentLog = () => new Promise(() => {});
    const { assistant } = makeAssistant({ model: new ScriptedChatModel([{ text: 'never' }]), store, settings: { limits: { ...testSettings.limits, deadlineMs: 1000 } } });
    const started = Date.now();
    const out = await assistant.conversation.handle(msg('hello'));
    expect(Date.now() - started).toBeLessThan(4000);
    expect(out.reason).toBe('deadline');
    expect(out.reply).toMatch(/ran out of time/);
  });
});

/** A model that streams text without end and counts what was read of it. */
class EndlessModel implements ChatModel<'local'> {
  readonly id = 'endless';
  readonly locality = 'local' as const;
  readonly acceptsImages = false;
  pulled = 0;
  closed = 0;
  async *stream(_request: ChatRequest): AsyncGenerator<ChatChunk> {
    try {
      for (;;) {
        this.pulled++;
        yield { type: 'text', text: 'more and more text ' };
      }
    } finally {
      this.closed++;
    }
  }
}

describe('bounded replies', () => {
  it('a model that streams without end yields one capped reply ending with the visible cut note, and the stream is closed', async () => {
    const model = new EndlessModel();
    const { assistant } = makeAssistant({ model, memoryModel: null, settings: { limits: { ...testSettings.limits, maxReplyChars: 500 } } });
    const { events, onEvent } = collect();
    const out = await assistant.conversation.handle(msg('talk'), { onEvent });
    expect(out.reply.endsWith(REPLY_CUT)).toBe(true);
    expect(out.reply.length).toBeLessThanOrEqual(500 + REPLY_CUT.length + 2);
    expect(model.closed).toBe(1);
    expect(model.pulled).toBeLessThan(100);
    const streamed = events.flatMap((e) => (e.type === 'text_delta' ? [e.text] : [])).join('');
    expect(streamed).toBe(out.reply);
  });

  it('a step that asks for hundreds of tool calls runs at most the per-turn limit', async () => {
    const many = Array.from({ length: 500 }, () => ({ name: 'current_time', arguments: '{}' }));
    const model = new ScriptedChatModel((req) => (req.tools ? { toolCalls: many } : { text: 'done' }));
    const { assistant } = makeAssistant({ model, memoryModel: null });
    const { events, onEvent } = collect();
    const out = await assistant.conversation.handle(msg('what time is it'), { onEvent });
    expect(out.reply).toBe('done');
    expect(events.filter((e) => e.type === 'tool_call').length).toBeLessThanOrEqual(testSettings.limits.maxToolCalls);
  });
});
