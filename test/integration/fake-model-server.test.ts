import { describe, expect, it, vi } from 'vitest';
import { fakeModelServers } from '../support/model-servers.js';

const start = fakeModelServers();

function post(url: string, body: unknown, signal?: AbortSignal) {
  return fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
}

/** Raw SSE `data:` payloads, in order. */
async function ssePayloads(res: Response): Promise<string[]> {
  const text = await res.text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice(6));
}

describe('fake model server', () => {
  it('streams text and split tool-call deltas in the OpenAI chunk format, then [DONE]', async () => {
    const s = await start([{ text: 'Hello there, friend', toolCalls: [{ name: 'recall', arguments: '{"query":"jwt refresh"}', id: 'c1' }] }]);
    const res = await post(s.url, { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const payloads = await ssePayloads(res);
    expect(payloads.at(-1)).toBe('[DONE]');
    const chunks = payloads.slice(0, -1).map((p) => JSON.parse(p));
    const text = chunks.map((c) => c.choices[0].delta.content ?? '').join('');
    expect(text).toBe('Hello there, friend');
    const argPieces = chunks.flatMap((c) => c.choices[0].delta.tool_calls ?? []);
    expect(argPieces.length).toBeGreaterThan(2);
    expect(argPieces[0]).toMatchObject({ index: 0, id: 'c1', type: 'function', function: { name: 'recall' } });
    expect(argPieces.map((p: any) => p.function.arguments).join('')).toBe('{"query":"jwt refresh"}');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('tool_calls');
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0].messages[0].content).toBe('hi');
  });

  it('answers non-streaming requests with one JSON completion and runs out with "(script exhausted)"', async () => {
    const s = await start([{ text: 'one' }]);
    const first = await json(await post(s.url, { stream: false, messages: [] }));
    expect(first.choices[0].message).toEqual({ role: 'assistant', content: 'one' });
    expect(first.choices[0].finish_reason).toBe('stop');
    const second = await json(await post(s.url, { messages: [] }));
    expect(second.choices[0].message.content).toBe('(script exhausted)');
  });

  it('writes tool calls into the text when asked, omits finish_reason on null', async () => {
    const s = await start([{ toolCalls: [{ name: 'search', arguments: '{"q":"x"}' }], toolCallsInText: true, finishReason: null }]);
    const chunks = (await ssePayloads(await post(s.url, { stream: true, messages: [] }))).slice(0, -1).map((p) => JSON.parse(p));
    const text = chunks.map((c) => c.choices[0].delta.content ?? '').join('');
    expect(text).toContain('<tool_call>');
    expect(text).toContain('{"name":"search","arguments":{"q":"x"}}');
    expect(chunks.every((c) => !('finish_reason' in c.choices[0]))).toBe(true);
    expect(chunks.some((c) => c.choices[0].delta.tool_calls)).toBe(false);
  });

  it('replies with scripted error statuses and headers; a function script sees the request', async () => {
    const s = await start((req, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { text: `model was ${req.model}` }));
    const r1 = await post(s.url, { model: 'a', messages: [] });
    expect(r1.status).toBe(429);
    expect(r1.headers.get('retry-after')).toBe('2');
    expect((await json(r1)).error.message).toContain('429');
    const r2 = await json(await post(s.url, { model: 'b', messages: [] }));
    expect(r2.choices[0].message.content).toBe('model was b');
  });

  it('lists models', async () => {
    const s = await start([]);
    const body = await json(await fetch(`${s.url}/models`));
    expect(body.data[0].id).toBe('fake-model');
  });

  it('close() ends hanging requests promptly', async () => {
    const s = await start([{ hang: true }, { text: 'abc', hangAfterFirstChunk: true }]);
    const hanging = post(s.url, { stream: true, messages: [] }).then(
      () => 'answered',
      () => 'failed',
    );
    const partial = await post(s.url, { stream: true, messages: [] });
    const reader = partial.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('data: ');
    const rest = reader.read().then(
      (r) => (r.done ? 'ended' : 'more'),
      () => 'failed',
    );
    // both requests reached the server (the hanging one may be read after the other): wait for that, not for 50 ms
    await vi.waitFor(() => expect(s.requests).toHaveLength(2));
    const t0 = Date.now();
    await s.close();
    expect(await hanging).toBe('failed');
    expect(['failed', 'ended']).toContain(await rest);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});

function json(res: Response): Promise<any> {
  return res.json();
}
