import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ModelError, ModelHttpError, ModelTimeoutError, ModelUnavailableError } from '../../src/core/errors.js';
import { asLocalModel, type ChatChunk, type ChatRequest, type LocalChatModel, type ToolCall } from '../../src/core/ports/index.js';
import { chatModelOptions } from '../../src/llm/chat-model-config.js';
import { OpenAIChatModel, type OpenAIChatModelOptions } from '../../src/llm/openai-chat.js';
import { fakeModelServers } from '../support/model-servers.js';

const start = fakeModelServers();

function model(url: string, extra: Partial<OpenAIChatModelOptions> = {}) {
  return new OpenAIChatModel({
    baseUrl: url,
    model: 'test-model',
    locality: 'local',
    acceptsImages: false,
    timeoutMs: 5000,
    connectTimeoutMs: 5000,
    maxRetries: 2,
    temperature: 0.2,
    maxTokens: 1024,
    retryBaseMs: 10,
    ...extra,
  });
}

const ask = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({ messages: [{ role: 'user', content: text }], ...extra });
const tools = [
  { name: 'recall', description: 'search memory', parameters: { type: 'object', properties: { query: { type: 'string' } } } },
  { name: 'open_note', description: 'open a note', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
];

async function collect(iterable: AsyncIterable<ChatChunk>): Promise<{ chunks: ChatChunk[]; text: string; calls: ToolCall[]; done: ChatChunk[] }> {
  const chunks: ChatChunk[] = [];
  for await (const c of iterable) chunks.push(c);
  return {
    chunks,
    text: chunks.map((c) => (c.type === 'text' ? c.text : '')).join(''),
    calls: chunks.flatMap((c) => (c.type === 'tool_call' ? [c.call] : [])),
    done: chunks.filter((c) => c.type === 'done'),
  };
}

async function failure(iterable: AsyncIterable<ChatChunk>): Promise<unknown> {
  try {
    for await (const _ of iterable);
  } catch (err) {
    return err;
  }
  throw new Error('expected the stream to fail');
}

/** A port that refuses connections: listen on port 0, note it, close. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('OpenAIChatModel against the fake model server', () => {
  it('streams text deltas as they arrive and sends the request in the OpenAI wire format', async () => {
    const s = await start([{ text: 'Hello from the fake model!', chunkDelayMs: 5 }]);
    const m = model(s.url, { apiKey: 'sk-secret' });
    const r = await collect(
      m.stream({
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
        tools,
        maxTokens: 50,
      }),
    );
    expect(r.text).toBe('Hello from the fake model!');
    expect(r.chunks.filter((c) => c.type === 'text').length).toBeGreaterThan(1);
    expect(r.chunks.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
    const body = s.requests[0];
    expect(body).toMatchObject({ model: 'test-model', stream: true, temperature: 0.2, max_tokens: 50 });
    expect(body.tools[0]).toEqual({ type: 'function', function: tools[0] });
    expect(body.response_format).toBeUndefined();
    expect(body.tool_choice).toBeUndefined();
    expect(s.requestHeaders[0]!.authorization).toBe('Bearer sk-secret');
    expect(m.id).toBe(`test-model@${s.url}`);
    expect(m.id).not.toContain('sk-secret');
  });

  it('sends no Authorization header without a key, and maps tool history to tool_calls / tool_call_id', async () => {
    const s = await start([{ text: 'ok' }]);
    await collect(
      model(s.url).stream({
        messages: [
          { role: 'user', content: 'find jwt', name: 'Sarah Chen' },
          {
            role: 'assistant',
            content: null,
            toolCalls: [
              { id: 'c1', name: 'recall', arguments: '{"query":"jwt"}' },
              { id: 'c2', name: 'recall', arguments: '{broken' },
            ],
          },
          { role: 'tool', toolCallId: 'c1', name: 'recall', content: '3 hits' },
        ],
      }),
    );
    expect(s.requestHeaders[0]!.authorization).toBeUndefined();
    const [user, assistant, tool] = s.requests[0].messages;
    expect(user).toEqual({ role: 'user', content: 'find jwt', name: 'Sarah_Chen' });
    expect(assistant).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'recall', arguments: '{"query":"jwt"}' } },
        { id: 'c2', type: 'function', function: { name: 'recall', arguments: '{}' } },
      ],
    });
    expect(tool).toEqual({ role: 'tool', tool_call_id: 'c1', content: '3 hits' });
  });

  it('assembles a tool call split across chunks and yields it whole before done', async () => {
    const s = await start([{ toolCalls: [{ id: 'call_1', name: 'recall', arguments: '{"query": "JWT refresh tokens", "limit": 5}' }] }]);
    const r = await collect(model(s.url).stream(ask('what did we decide?', { tools })));
    expect(r.calls).toEqual([{ id: 'call_1', name: 'recall', arguments: '{"query": "JWT refresh tokens", "limit": 5}' }]);
    expect(r.chunks.at(-1)).toEqual({ type: 'done', finishReason: 'tool_calls' });
    expect(r.text).toBe('');
  });

  it('yields two parallel tool calls in order, generating ids when missing', async () => {
    const s = await start((req, i) => ({
      text: 'Let me look.',
      toolCalls: [
        { name: 'recall', arguments: '{"query":"a"}', ...(i === 0 ? { id: 'x1' } : {}) },
        { name: 'open_note', arguments: '{"path":"People/Sarah-Chen.md"}', ...(i === 0 ? { id: 'x2' } : {}) },
      ],
    }));
    const r = await collect(model(s.url).stream(ask('go', { tools })));
    expect(r.text).toBe('Let me look.');
    expect(r.calls.map((c) => [c.id, c.name, JSON.parse(c.arguments)])).toEqual([
      ['x1', 'recall', { query: 'a' }],
      ['x2', 'open_note', { path: 'People/Sarah-Chen.md' }],
    ]);
    // a server that sends no ids at all: the fake then invents call_fake_N; here we strip them
    const noIds = await collect(
      model(s.url, {
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          const text = (await res.text()).replace(/"id":"call_fake_\d+",?/g, '');
          return new Response(text, { status: res.status, headers: res.headers });
        },
      }).stream(ask('again', { tools })),
    );
    expect(noIds.calls).toHaveLength(2);
    expect(noIds.calls[0]!.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(noIds.calls[0]!.id).not.toBe(noIds.calls[1]!.id);
  });

  it('passes malformed tool-call arguments through raw', async () => {
    const s = await start([{ toolCalls: [{ id: 'b1', name: 'recall', arguments: '{"query": "unterminated' }] }]);
    const r = await collect(model(s.url).stream(ask('x', { tools })));
    expect(r.calls).toEqual([{ id: 'b1', name: 'recall', arguments: '{"query": "unterminated' }]);
  });

  it('recovers a <tool_call> written in the text and strips it from the visible text', async () => {
    const s = await start([{ text: 'Checking my notes.', toolCalls: [{ name: 'recall', arguments: '{"query":"Sarah"}' }], toolCallsInText: true }]);
    const r = await collect(model(s.url).stream(ask('who is Sarah?', { tools })));
    expect(r.text).toBe('Checking my notes.\n');
    expect(r.text).not.toContain('tool_call');
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ name: 'recall' });
    expect(JSON.parse(r.calls[0]!.arguments)).toEqual({ query: 'Sarah' });
    expect(r.calls[0]!.id).toBeTruthy();
    expect(r.chunks.at(-1)).toEqual({ type: 'done', finishReason: 'tool_calls' });
  });

  it('leaves tool-call markers alone when no tools were offered', async () => {
    const s = await start([{ toolCalls: [{ name: 'recall', arguments: '{}' }], toolCallsInText: true }]);
    const r = await collect(model(s.url).stream(ask('x')));
    expect(r.calls).toEqual([]);
    expect(r.text).toContain('<tool_call>');
  });

  it('treats the end of the stream as done when finish_reason and [DONE] are missing', async () => {
    const s = await start([{ text: 'no finish here', finishReason: null, omitDone: true, keepalive: true }]);
    const r = await collect(model(s.url).stream(ask('x')));
    expect(r.text).toBe('no finish here');
    expect(r.done).toEqual([{ type: 'done', finishReason: null }]);
  });

  it('retries a 500 and then succeeds', async () => {
    const s = await start([{ status: 500 }, { status: 503 }, { text: 'third time lucky' }]);
    const r = await collect(model(s.url).stream(ask('x')));
    expect(r.text).toBe('third time lucky');
    expect(s.requests).toHaveLength(3);
  });

  it('gives up after maxRetries with a ModelHttpError carrying the status', async () => {
    const s = await start([{ status: 502 }, { status: 502 }, { text: 'never reached' }]);
    const err = await failure(model(s.url, { maxRetries: 1 }).stream(ask('x')));
    expect(err).toBeInstanceOf(ModelHttpError);
    expect((err as ModelHttpError).status).toBe(502);
    expect(s.requests).toHaveLength(2);
  });

  it('waits for Retry-After on 429', async () => {
    const s = await start([{ status: 429, headers: { 'retry-after': '1' } }, { text: 'after the wait' }]);
    const t0 = Date.now();
    const r = await collect(model(s.url).stream(ask('x')));
    expect(r.text).toBe('after the wait');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(s.requests).toHaveLength(2);
  });

  it('does not retry a 400', async () => {
    const s = await start([{ status: 400, errorBody: '{"error":{"message":"bad tools"}}' }, { text: 'not reached' }]);
    const err = await failure(model(s.url).stream(ask('x', { tools })));
    expect(err).toBeInstanceOf(ModelHttpError);
    expect((err as ModelHttpError).status).toBe(400);
    // The body may echo the request (DM text): it is kept for debug logs, never in the message.
    expect((err as ModelHttpError).body).toContain('bad tools');
    expect((err as ModelHttpError).message).not.toContain('bad tools');
    expect(s.requests).toHaveLength(1);
  });

  it('asks for json_object, and retries once without response_format when the server rejects it', async () => {
    const s = await start((req) => (req.response_format ? { status: 400, errorBody: "'response_format.type' must be 'json_schema'" } : { text: '{"summary":"x"}' }));
    const m = model(s.url);
    const r = await collect(m.stream(ask('distil', { json: true })));
    expect(r.text).toBe('{"summary":"x"}');
    expect(s.requests.map((b) => b.response_format)).toEqual([{ type: 'json_object' }, undefined]);
    await collect(m.stream(ask('again', { json: true })));
    expect(s.requests[2].response_format).toBeUndefined(); // remembered
  });

  it('sends a JSON schema as response_format json_schema, and falls back to json_object (not off) when the server refuses it', async () => {
    const schema = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] };
    const s = await start((req) => (req.response_format?.type === 'json_schema' ? { status: 400, errorBody: 'response_format json_schema is not supported' } : { text: '{"summary":"y"}' }));
    const m = model(s.url);
    const r = await collect(m.stream(ask('distil', { jsonSchema: schema })));
    expect(r.text).toBe('{"summary":"y"}');
    expect(s.requests.map((b) => b.response_format)).toEqual([{ type: 'json_schema', json_schema: { name: 'reply', schema, strict: false } }, { type: 'json_object' }]);
    await collect(m.stream(ask('again', { jsonSchema: schema })));
    await collect(m.stream(ask('plain', { json: true })));
    expect(s.requests.slice(2).map((b) => b.response_format)).toEqual([{ type: 'json_object' }, { type: 'json_object' }]);
  });

  it('keeps a JSON schema request when the server accepts it', async () => {
    const s = await start([{ text: '{"a":1}' }]);
    await collect(model(s.url).stream(ask('x', { jsonSchema: { type: 'object' } })));
    expect(s.requests[0].response_format).toEqual({ type: 'json_schema', json_schema: { name: 'reply', schema: { type: 'object' }, strict: false } });
  });

  it('reports a server that is not there as ModelUnavailableError, quickly and without retries', async () => {
    const port = await closedPort();
    const t0 = Date.now();
    const err = await failure(model(`http://127.0.0.1:${port}/v1`).stream(ask('x')));
    expect(err).toBeInstanceOf(ModelUnavailableError);
    expect((err as Error).message).toContain(`no model server at http://127.0.0.1:${port}/v1`);
    expect((err as Error).message).toContain('LLM_BASE_URL');
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('reports a hanging server as ModelTimeoutError within the timeout', async () => {
    const s = await start([{ hang: true }]);
    const t0 = Date.now();
    const err = await failure(model(s.url, { timeoutMs: 300 }).stream(ask('x')));
    const elapsed = Date.now() - t0;
    expect(err).toBeInstanceOf(ModelTimeoutError);
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(2000);
  });

  it('times out a stream that stalls after the first chunk', async () => {
    const s = await start([{ text: 'partial answer', hangAfterFirstChunk: true }]);
    const err = await failure(model(s.url, { timeoutMs: 300 }).stream(ask('x')));
    expect(err).toBeInstanceOf(ModelTimeoutError);
    expect(s.requests).toHaveLength(1);
  });

  it('keeps waiting past connectTimeoutMs while the server accepts connections (model loading)', async () => {
    const s = await start([{ text: 'slow but fine', delayMs: 400 }]);
    const r = await collect(model(s.url, { connectTimeoutMs: 100, timeoutMs: 3000 }).stream(ask('x')));
    expect(r.text).toBe('slow but fine');
  });

  it('gives up after connectTimeoutMs when nothing accepts connections', async () => {
    const s = await start([{ hang: true }]);
    const err = await failure(model(s.url, { connectTimeoutMs: 100, timeoutMs: 5000, probe: async () => false }).stream(ask('x')));
    expect(err).toBeInstanceOf(ModelUnavailableError);
    expect((err as Error).message).toContain('no answer within 100 ms');
  });

  it('aborts promptly via the request signal, mid-stream', async () => {
    const s = await start([{ text: 'a long answer that keeps going and going', chunkDelayMs: 200 }]);
    const controller = new AbortController();
    const seen: ChatChunk[] = [];
    const t0 = Date.now();
    let caught: unknown;
    try {
      for await (const c of model(s.url).stream(ask('x', { signal: controller.signal }))) {
        seen.push(c);
        if (c.type === 'text') controller.abort();
      }
    } catch (err) {
      caught = err;
    }
    expect((caught as Error).name).toBe('AbortError');
    expect(seen).toHaveLength(1);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('aborts promptly while waiting for an answer and during a retry backoff', async () => {
    const s = await start([{ hang: true }, { status: 429, headers: { 'retry-after': '10' } }]);
    /** Aborts once the server has seen `n` requests, `after` ms later: on a loaded machine a fixed timer can fire before the request is sent. */
    const abortAt = (n: number, after: number) => {
      const c = new AbortController();
      const poll = setInterval(() => {
        if (s.requests.length < n) return;
        clearInterval(poll);
        setTimeout(() => c.abort(), after);
      }, 5);
      return c.signal;
    };
    const t0 = Date.now();
    expect(((await failure(model(s.url).stream(ask('x', { signal: abortAt(1, 20) })))) as Error).name).toBe('AbortError');
    // the 429 asks to wait 10 s: the abort lands in that backoff
    expect(((await failure(model(s.url).stream(ask('x', { signal: abortAt(2, 100) })))) as Error).name).toBe('AbortError');
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(s.requests).toHaveLength(2);
  });

  it('handles a server that ignores stream:true and answers with plain JSON', async () => {
    const s = await start([{ text: 'plain json answer', toolCalls: [{ id: 'j1', name: 'recall', arguments: '{"query":"q"}' }], ignoreStream: true }]);
    const r = await collect(model(s.url).stream(ask('x', { tools })));
    expect(r.text).toBe('plain json answer');
    expect(r.calls).toEqual([{ id: 'j1', name: 'recall', arguments: '{"query":"q"}' }]);
    expect(r.chunks.at(-1)).toEqual({ type: 'done', finishReason: 'tool_calls' });
  });

  it('serializes image parts when the model accepts images, and drops them when it does not', async () => {
    const s = await start([{ text: 'a cat' }, { text: 'no image' }]);
    const content = [
      { type: 'text' as const, text: 'what is this?' },
      { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ];
    await collect(model(s.url, { acceptsImages: true }).stream({ messages: [{ role: 'user', content }] }));
    expect(s.requests[0].messages[0].content).toEqual(content);
    await collect(model(s.url, { acceptsImages: false }).stream({ messages: [{ role: 'user', content }] }));
    expect(s.requests[1].messages[0].content).toBe('what is this?');
  });

  it('decodes a stream split at arbitrary byte boundaries (mid UTF-8 character, mid line)', async () => {
    const events = ['Grüße ', 'aus Zürich ☕ — ', '😀 done'].map((content) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\r\n\r\n`);
    const bytes = new TextEncoder().encode(`: hello\n\n${events.join('')}data: [DONE]\n\n`);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
        controller.close();
      },
    });
    const r = await collect(model('http://127.0.0.1:9/v1', { fetch: async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }) }).stream(ask('x')));
    expect(r.text).toBe('Grüße aus Zürich ☕ — 😀 done');
    expect(r.done).toEqual([{ type: 'done', finishReason: null }]);
  });

  it('stops reading at finish_reason even if the server keeps the stream open', async () => {
    const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(chunk({ content: 'done early' }, null) + chunk({}, 'stop')));
        // never closed
      },
    });
    const r = await collect(model('http://127.0.0.1:9/v1', { timeoutMs: 5000, fetch: async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }) }).stream(ask('x')));
    expect(r.text).toBe('done early');
    expect(r.done).toEqual([{ type: 'done', finishReason: 'stop' }]);
  });

  it('surfaces an error event inside the stream as ModelHttpError', async () => {
    const s = await start([{ text: 'x' }]);
    const err = await failure(
      model(s.url, {
        maxRetries: 0,
        fetch: async () => new Response('data: {"error":{"message":"context length exceeded","code":400}}\n\n', { headers: { 'content-type': 'text/event-stream' } }),
      }).stream(ask('x')),
    );
    expect(err).toBeInstanceOf(ModelHttpError);
    expect((err as ModelHttpError).body).toContain('context length exceeded');
  });
});

describe('OpenAIChatModel errors by kind', () => {
  const kindOf = (err: unknown) => (err instanceof ModelError ? { kind: err.kind, retryable: err.isRetryable } : { kind: `not a ModelError: ${String(err)}`, retryable: undefined });

  it('classifies a 400 context overflow (llama.cpp, vLLM, LM Studio wording) as context_too_long, not retryable', async () => {
    const bodies = [
      '{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}',
      '{"object":"error","message":"This model\'s maximum context length is 4096 tokens. However, you requested 9000 tokens.","code":400}',
      '{"error":"Trying to keep the first 4470 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens"}',
    ];
    for (const errorBody of bodies) {
      const s = await start([{ status: 400, errorBody }, { text: 'not reached' }]);
      const err = await failure(model(s.url).stream(ask('x')));
      expect(kindOf(err)).toEqual({ kind: 'context_too_long', retryable: false });
      expect(s.requests).toHaveLength(1);
      await s.close();
    }
  });

  it('classifies 401 as auth, 429 as rate_limited (retryable), 404 as refused, 503 as server_error', async () => {
    const cases: [number, string, boolean][] = [
      [401, 'auth', false],
      [429, 'rate_limited', true],
      [404, 'refused', false],
      [503, 'server_error', true],
    ];
    for (const [status, kind, retryable] of cases) {
      const s = await start([{ status }, { status }]);
      const err = await failure(model(s.url, { maxRetries: 1 }).stream(ask('x')));
      expect(kindOf(err), `status ${status}`).toEqual({ kind, retryable });
      expect(s.requests).toHaveLength(retryable ? 2 : 1);
      await s.close();
    }
  });

  it('reports an HTML page sent with 200 as bad_response, naming the page, without reading it all', async () => {
    const page = `<html><head><title>Sign in</title></head><body>${'x'.repeat(5_000_000)}</body></html>`;
    const s = await start([{ raw: { contentType: 'text/html; charset=utf-8', body: page } }]);
    const err = await failure(model(s.url).stream(ask('x')));
    expect(kindOf(err)).toEqual({ kind: 'bad_response', retryable: false });
    expect((err as Error).message).toContain('"Sign in"');
    expect((err as Error).message).toContain('LLM_BASE_URL');
  });

  it('reports a 200 whose body is neither JSON nor an event stream as bad_response', async () => {
    const s = await start([{ raw: { contentType: 'application/octet-stream', body: 'Internal proxy failure' } }]);
    const err = await failure(model(s.url).stream(ask('x')));
    expect(kindOf(err)).toEqual({ kind: 'bad_response', retryable: false });
  });

  it('classifies stalls as timeout and no server as unreachable, both retryable', async () => {
    const s = await start([{ text: 'partial', hangAfterFirstChunk: true }]);
    expect(kindOf(await failure(model(s.url, { timeoutMs: 200 }).stream(ask('x'))))).toEqual({ kind: 'timeout', retryable: true });
    const port = await closedPort();
    expect(kindOf(await failure(model(`http://127.0.0.1:${port}/v1`).stream(ask('x'))))).toEqual({ kind: 'unreachable', retryable: true });
  });

  it('classifies a reply whose connection drops mid-stream as cut, not as "no model server"', async () => {
    const s = await start([{ text: 'The flight leaves at nine and the museum opens at ten.', dieAfterChunks: 2 }]);
    const err = await failure(model(s.url).stream(ask('x')));
    expect(kindOf(err)).toEqual({ kind: 'cut', retryable: true });
    expect((err as Error).message).not.toMatch(/no model server|LLM_BASE_URL/);
  });

  it("keeps the model's own message of an error status, secrets removed, one line", async () => {
    const s = await start([
      { status: 500, errorBody: '{"error":{"message":"CUDA out of memory\\n while loading  sk-abcdefghijklmnopqrstuvwxyz0123456789AB"}}' },
      { status: 500 },
      { status: 500 },
      { status: 500 },
    ]);
    const err = await failure(model(s.url, { maxRetries: 0 }).stream(ask('x')));
    expect(kindOf(err).kind).toBe('server_error');
    const own = (err as { modelMessage?: string }).modelMessage ?? '';
    expect(own).toMatch(/^CUDA out of memory while loading /);
    expect(own).not.toContain('sk-abcdefghijklmnopqrstuvwxyz0123456789AB');
  });

  it('does not switch JSON mode off for later requests after a 400 that is not about response_format', async () => {
    let n = 0;
    const s = await start(() => (n++ === 0 ? { status: 400, errorBody: '{"error":{"message":"upstream hiccup"}}' } : { text: '{"summary":"x"}' }));
    const m = model(s.url);
    await collect(m.stream(ask('distil', { json: true })));
    await collect(m.stream(ask('again', { json: true })));
    expect(s.requests.map((b) => b.response_format)).toEqual([{ type: 'json_object' }, undefined, { type: 'json_object' }]);
  });

  it('does not retry a context overflow without JSON mode (it would overflow again)', async () => {
    const s = await start([{ status: 400, errorBody: '{"error":{"message":"maximum context length is 4096 tokens"}}' }, { text: 'not reached' }]);
    const err = await failure(model(s.url).stream(ask('distil', { json: true })));
    expect(kindOf(err).kind).toBe('context_too_long');
    expect(s.requests).toHaveLength(1);
  });
});

describe('OpenAIChatModel bounds', () => {
  it('sends max_tokens with every request (the configured value unless the request sets one)', async () => {
    const s = await start([{ text: 'a' }, { text: 'b' }]);
    const m = model(s.url, { maxTokens: 777 });
    await collect(m.stream(ask('x')));
    await collect(m.stream(ask('y', { maxTokens: 5 })));
    expect(s.requests.map((b) => b.max_tokens)).toEqual([777, 5]);
  });

  it('stops reading a stream that never ends at the response limit and ends with finish reason length', async () => {
    const s = await start([{ endless: 'text' }]);
    const r = await collect(model(s.url, { maxResponseChars: 200_000 }).stream(ask('x')));
    expect(r.text.length).toBeGreaterThan(1000);
    expect(r.text.length).toBeLessThan(200_000);
    expect(r.done).toEqual([{ type: 'done', finishReason: 'length' }]);
  });

  it('bounds endless tool-call argument deltas and a <tool_call> in the text that never closes', async () => {
    for (const endless of ['tool_call', 'text_tool_call'] as const) {
      const s = await start([{ endless }]);
      const r = await collect(model(s.url, { maxResponseChars: 300_000 }).stream(ask('x', { tools: [{ name: 'current_time', description: 't', parameters: { type: 'object' } }] })));
      const size = r.text.length + r.calls.reduce((n, c) => n + c.arguments.length, 0);
      expect(size, endless).toBeLessThan(300_000);
      expect(r.done.at(-1), endless).toMatchObject({ type: 'done' });
      await s.close();
    }
  });
});

describe('OpenAIChatModel locality', () => {
  it('carries its locality in the type, so only a local model fits the memory writer', () => {
    const base = { baseUrl: 'http://user:pw@127.0.0.1:9/v1/', model: 'm', acceptsImages: false, timeoutMs: 1000, connectTimeoutMs: 1000, maxRetries: 0, temperature: 0, maxTokens: 1024 };
    const local: LocalChatModel = new OpenAIChatModel({ ...base, locality: 'local' });
    const hosted = new OpenAIChatModel({ ...base, locality: 'hosted' });
    // @ts-expect-error a hosted model is not a LocalChatModel
    const wrong: LocalChatModel = hosted;
    expect(wrong).toBe(hosted);
    expect(asLocalModel(local)).toBe(local);
    expect(asLocalModel(hosted)).toBeNull();
    expect(local.id).toBe('m@http://127.0.0.1:9/v1'); // no credentials, no trailing slash
  });

  it('builds options from the config, locality from llmLocal', () => {
    const settings = {
      LLM_BASE_URL: 'http://localhost:1234/v1',
      LLM_MODEL: 'qwen',
      LLM_TIMEOUT_MS: 1000,
      LLM_CONNECT_TIMEOUT_MS: 500,
      LLM_MAX_RETRIES: 2,
      LLM_TEMPERATURE: 0.4,
      LLM_ACCEPTS_IMAGES: true,
      LLM_MAX_TOKENS: 2048,
      llmLocal: true,
    };
    expect(chatModelOptions(settings)).toMatchObject({ baseUrl: 'http://localhost:1234/v1', model: 'qwen', locality: 'local', acceptsImages: true, connectTimeoutMs: 500, maxTokens: 2048 });
    expect(chatModelOptions(settings).apiKey).toBeUndefined();
    expect(chatModelOptions({ ...settings, llmLocal: false, LLM_API_KEY: 'k' })).toMatchObject({ locality: 'hosted', apiKey: 'k' });
  });
});
