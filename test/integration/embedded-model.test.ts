/**
 * The embedded model with the real node-llama-cpp and a tiny random GGUF model written by
 * test/support/tiny-gguf.ts (nothing is downloaded). Random weights say nothing useful, so
 * these tests check the plumbing: streaming, the token limit, aborts, the queue, one load,
 * and that grammar-constrained JSON always fits its schema.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ChatChunk, ChatRequest, JsonSchema } from '../../src/core/ports/index.js';
import { distillJsonSchema, distillPrompt, parseDistillReply } from '../../src/core/writing/distill.js';
import { EmbeddedChatModel } from '../../src/llm/embedded/embedded-chat.js';
import { EmbeddedModelError } from '../../src/llm/embedded/errors.js';
import { EmbeddedRuntime } from '../../src/llm/embedded/runtime.js';
import { writeTinyGguf } from '../support/tiny-gguf.js';

const dir = mkdtempSync(join(tmpdir(), 'charlie-embedded-'));
const modelPath = writeTinyGguf(join(dir, 'tiny.gguf'));
// One thread: on a busy shared CPU, llama.cpp's spinning worker threads slow a tiny model 100×.
const runtime = new EmbeddedRuntime({ modelPath, contextSize: 8192, gpu: 'off', gpuLayers: 0, threads: 1 });
const model = new EmbeddedChatModel(runtime, { temperature: 0 });

async function collect(request: ChatRequest): Promise<ChatChunk[]> {
  const out: ChatChunk[] = [];
  for await (const c of model.stream(request)) out.push(c);
  return out;
}
const textOf = (chunks: ChatChunk[]) => chunks.map((c) => (c.type === 'text' ? c.text : '')).join('');
const user = (content: string): ChatRequest['messages'] => [
  { role: 'system', content: 'You are Charlie.' },
  { role: 'user', content },
];

beforeAll(async () => {
  await runtime.load();
}, 60_000);
afterAll(async () => {
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('embedded model (tiny random GGUF, real node-llama-cpp)', () => {
  it('loads on the CPU and names the model', async () => {
    const loaded = await runtime.load();
    expect(loaded.gpu).toBe(false);
    expect(loaded.model.tokenize('hello').length).toBeGreaterThan(0);
    expect(model.id).toBe('tiny@embedded');
    expect(model.locality).toBe('local');
  });

  it('streams text in several chunks and stops at the token limit', async () => {
    const chunks = await collect({ messages: user('hello Charlie'), maxTokens: 12 });
    const texts = chunks.filter((c) => c.type === 'text');
    expect(texts.length).toBeGreaterThan(1);
    expect(chunks[chunks.length - 1]).toEqual({ type: 'done', finishReason: 'length' });
    const loaded = await runtime.load();
    // At most 12 generated tokens came back (a chunk may hold one or more tokens).
    expect(loaded.model.tokenize(textOf(chunks)).length).toBeLessThanOrEqual(14);
    expect(texts.length).toBeLessThanOrEqual(12);
  });

  it('stops on abort, rejects with the reason, and serves the next request', async () => {
    const controller = new AbortController();
    const seen: ChatChunk[] = [];
    const run = (async () => {
      for await (const c of model.stream({ messages: user('tell me everything'), maxTokens: 400, signal: controller.signal })) {
        seen.push(c);
        if (seen.length === 3) controller.abort(new Error('user pressed stop'));
      }
    })();
    await expect(run).rejects.toThrow('user pressed stop');
    expect(seen.length).toBeLessThan(10);
    expect(seen.some((c) => c.type === 'done')).toBe(false);
    const next = await collect({ messages: user('again'), maxTokens: 3 });
    expect(next[next.length - 1]).toEqual({ type: 'done', finishReason: 'length' });
  });

  it('a request aborted while queued never runs; the queue keeps order', async () => {
    const order: string[] = [];
    const first = collect({ messages: user('first'), maxTokens: 20 }).then(() => order.push('first'));
    const controller = new AbortController();
    const second = collect({ messages: user('second'), maxTokens: 20, signal: controller.signal }).catch((e: unknown) => {
      order.push(`second: ${String(e)}`);
    });
    const third = collect({ messages: user('third'), maxTokens: 2 }).then(() => order.push('third'));
    controller.abort(new Error('gave up waiting'));
    await Promise.all([first, second, third]);
    expect(order).toEqual(['second: Error: gave up waiting', 'first', 'third']);
  });

  it('leaving the stream early stops generation and frees the model', async () => {
    for await (const c of model.stream({ messages: user('go on'), maxTokens: 400 })) {
      if (c.type === 'text') break;
    }
    const started = performance.now();
    const next = await collect({ messages: user('next'), maxTokens: 2 });
    expect(next[next.length - 1]?.type).toBe('done');
    // Had the 400-token generation kept running, this request would have queued behind it.
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('grammar-constrained JSON always validates against the schema, however random the weights', async () => {
    const schema = {
      type: 'object',
      properties: {
        summary: { type: 'string', maxLength: 60 },
        decisions: { type: 'array', maxItems: 3, items: { type: 'object', properties: { text: { type: 'string', maxLength: 30 }, message: { type: 'integer' } }, required: ['text', 'message'] } },
        mood: { enum: ['good', 'bad'] },
        done: { type: 'boolean' },
      },
      required: ['summary', 'decisions', 'mood', 'done'],
      additionalProperties: false,
    } satisfies JsonSchema;
    const check = z
      .object({
        summary: z.string().max(60),
        decisions: z.array(z.object({ text: z.string().max(30), message: z.number().int() })).max(3),
        mood: z.enum(['good', 'bad']),
        done: z.boolean(),
      })
      .strict();
    for (const prompt of ['summarise', 'what was decided?', 'JSON now']) {
      const chunks = await collect({ messages: user(prompt), jsonSchema: schema, maxTokens: 600 });
      expect(chunks[chunks.length - 1]).toEqual({ type: 'done', finishReason: 'stop' });
      const parsed: unknown = JSON.parse(textOf(chunks));
      expect(check.safeParse(parsed).success, textOf(chunks)).toBe(true);
    }
  });

  it('the distillation schema constrains the reply so the distiller accepts it', async () => {
    const entries = [1, 2, 3, 4, 5].map((i) => ({ time: `2026-11-30T10:0${i}:00Z`, speaker: 'sam', source: `terminal:${i}`, text: `message number ${i} about the project`, role: 'user' as const }));
    const request = { messages: distillPrompt({ summary: '', decisions: [], quotes: [] }, entries), jsonSchema: distillJsonSchema(), temperature: 0 };
    // A reply cap (EMBEDDED_MAX_TOKENS) must not cut a schema-bounded reply short.
    const capped = new EmbeddedChatModel(runtime, { temperature: 0, maxTokens: 5 });
    const chunks: ChatChunk[] = [];
    for await (const c of capped.stream(request)) chunks.push(c);
    expect(chunks[chunks.length - 1]).toEqual({ type: 'done', finishReason: 'stop' });
    const { reply } = parseDistillReply(textOf(chunks));
    expect(reply.decisions.length).toBeLessThanOrEqual(5);
    expect(reply.quotes.length).toBeLessThanOrEqual(3);
  });

  it('plain json mode returns a JSON value', async () => {
    const chunks = await collect({ messages: user('json'), json: true, maxTokens: 300 });
    const text = textOf(chunks);
    if (chunks[chunks.length - 1]?.type === 'done' && (chunks[chunks.length - 1] as { finishReason: string }).finishReason === 'stop') {
      expect(() => JSON.parse(text) as unknown).not.toThrow();
    } else {
      // Unbounded JSON may hit the limit; it is then still a valid JSON prefix.
      expect(text.trimStart().startsWith('{') || text.trimStart().startsWith('[')).toBe(true);
    }
  });

  it('accepts tools, tool calls and tool results in the history', async () => {
    const chunks = await collect({
      messages: [
        { role: 'system', content: 'You are Charlie.' },
        { role: 'user', content: 'what time is it?' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'current_time', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'c1', name: 'current_time', content: '12:00' },
      ],
      tools: [{ name: 'current_time', description: 'The time now', parameters: { type: 'object', properties: {} } }],
      maxTokens: 8,
    });
    expect(chunks[chunks.length - 1]?.type).toBe('done');
  });

  it('one load is shared: load() returns the same instance every time', async () => {
    const [a, b] = await Promise.all([runtime.load(), runtime.load()]);
    expect(a).toBe(b);
    expect(a.context).toBe((await runtime.load()).context);
  });

  it('a missing file is a clear EmbeddedModelError naming the fix', async () => {
    const missing = new EmbeddedRuntime({ modelPath: join(dir, 'nope.gguf'), contextSize: 256, gpu: 'off', gpuLayers: 0, threads: 1 });
    const err: unknown = await missing.load().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddedModelError);
    expect((err as EmbeddedModelError).reason).toBe('missing_file');
    expect(String(err)).toContain('npm run models -- pull');
  });
});
