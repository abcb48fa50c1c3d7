import { describe, expect, it } from 'vitest';
import { ReplyRenderer, type ReplySink } from '../../src/discord/reply-renderer.js';

class RecordingSink implements ReplySink<number> {
  readonly messages: string[] = [];
  readonly ops: string[] = [];
  readonly components: (readonly unknown[] | undefined)[] = [];
  async send(content: string, components?: readonly unknown[]) {
    this.messages.push(content);
    this.components.push(components);
    this.ops.push(`send ${this.messages.length - 1}`);
    return this.messages.length - 1;
  }
  async edit(handle: number, content: string, components?: readonly unknown[]) {
    this.messages[handle] = content;
    this.components[handle] = components;
    this.ops.push(`edit ${handle}`);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ReplyRenderer', () => {
  it('posts once for a fast turn, with no in-progress marker', async () => {
    const sink = new RecordingSink();
    const r = new ReplyRenderer(sink, { intervalMs: 200 });
    r.onEvent({ type: 'text_delta', turnId: 't', text: 'Hel' });
    r.onEvent({ type: 'text_delta', turnId: 't', text: 'lo' });
    await r.finish({ text: 'Hello' });
    expect(sink.ops).toEqual(['send 0']);
    expect(sink.messages).toEqual(['Hello']);
  });

  it('streams with at most one update per interval, in-progress then done', async () => {
    const sink = new RecordingSink();
    const r = new ReplyRenderer(sink, { intervalMs: 100 });
    const started = Date.now();
    for (let i = 0; i < 30; i++) {
      r.onEvent({ type: 'text_delta', turnId: 't', text: `w${i} ` });
      await sleep(10);
    }
    r.onEvent({ type: 'tool_call', turnId: 't', callId: 'c', name: 'search_memory', args: { query: 'tent' } });
    await sleep(120);
    const elapsed = Date.now() - started;
    expect(sink.ops.length).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 1);
    expect(sink.ops.length).toBeGreaterThanOrEqual(2);
    expect(sink.messages[0]).toContain('⏳ searched “tent”…');
    await r.finish({ text: 'final answer', notices: ['history was truncated'], components: [{ type: 1 }] });
    expect(sink.messages).toEqual(['final answer\n\n-# ✓ searched “tent”…\n-# ⚠ history was truncated']);
    expect(sink.components[0]).toEqual([{ type: 1 }]);
    const ops = sink.ops.length;
    r.onEvent({ type: 'text_delta', turnId: 't', text: 'late' });
    await sleep(150);
    expect(sink.ops.length).toBe(ops);
  });

  it('splits a long final reply over several messages and puts buttons on the last', async () => {
    const sink = new RecordingSink();
    const r = new ReplyRenderer(sink, { intervalMs: 50, limit: 100 });
    await r.finish({ text: Array.from({ length: 30 }, (_, i) => `sentence ${i}`).join('\n'), components: ['row'] });
    expect(sink.messages.length).toBeGreaterThan(2);
    for (const m of sink.messages) expect(m.length).toBeLessThanOrEqual(100);
    expect(sink.components.at(-1)).toEqual(['row']);
    expect(sink.components[0]).toBeUndefined();
  });

  it('keeps raw tool markup out of every update', async () => {
    const sink = new RecordingSink();
    const r = new ReplyRenderer(sink, { intervalMs: 20 });
    r.onEvent({ type: 'text_delta', turnId: 't', text: 'One moment <tool_call>{"name":"read_note","argu' });
    await sleep(60);
    await r.finish({ text: 'One moment. Here it is.' });
    expect(sink.ops[0]).toBe('send 0');
    for (const op of sink.messages) expect(op).not.toContain('tool_call');
  });
});
