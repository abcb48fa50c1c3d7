import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REPLY_CUT } from '../../src/core/turn/events.js';
import { PostingDeadlineError, ReplyRenderer, type ReplySink } from '../../src/discord/reply-renderer.js';
import { RecordingSink } from '../support/recording-sink.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Moves the fake clock on, running the timers (and the promises they start) that fall due. */
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

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
    for (let i = 0; i < 30; i++) {
      r.onEvent({ type: 'text_delta', turnId: 't', text: `w${i} ` });
      await advance(10);
    }
    // 300 ms of text at one update per 100 ms: updates at 100, 200 and 300 ms
    expect(sink.ops).toEqual(['send 0', 'edit 0', 'edit 0']);
    expect(sink.messages[0]).toContain('w29');
    expect(sink.messages[0]).toContain('⏳ thinking…');
    r.onEvent({ type: 'tool_call', turnId: 't', callId: 'c', name: 'search_memory', args: { query: 'tent' } });
    await advance(99);
    expect(sink.ops).toHaveLength(3);
    await advance(1);
    expect(sink.ops).toHaveLength(4);
    expect(sink.messages[0]).toContain('⏳ searched “tent”…');
    await r.finish({ text: 'final answer', notices: ['history was truncated'], components: [{ type: 1 }] });
    expect(sink.messages).toEqual(['final answer\n\n-# ✓ searched “tent”…\n-# ⚠ history was truncated']);
    expect(sink.components[0]).toEqual([{ type: 1 }]);
    const ops = sink.ops.length;
    r.onEvent({ type: 'text_delta', turnId: 't', text: 'late' });
    await advance(150);
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
    await advance(60);
    await r.finish({ text: 'One moment. Here it is.' });
    expect(sink.ops[0]).toBe('send 0');
    for (const op of sink.messages) expect(op).not.toContain('tool_call');
  });

  it('posts a huge reply as at most maxMessages messages, the last ending with the visible cut note', async () => {
    const sink = new RecordingSink();
    const r = new ReplyRenderer(sink, { intervalMs: 50, limit: 200, maxMessages: 3 });
    const huge = Array.from({ length: 5000 }, (_, i) => `line ${i} of an endless reply`).join('\n');
    await r.finish({ text: huge, notices: ['something to note'], components: ['row'] });
    expect(sink.messages).toHaveLength(3);
    for (const m of sink.messages) expect(m.length).toBeLessThanOrEqual(200);
    expect(sink.messages[2]).toContain(REPLY_CUT);
    expect(sink.messages[2]).toContain('⚠ something to note');
    expect(sink.components[2]).toEqual(['row']);
  });

  it('closes a code fence it cuts through', async () => {
    const sink = new RecordingSink();
    const r = new ReplyRenderer(sink, { intervalMs: 50, limit: 200, maxMessages: 2 });
    await r.finish({ text: `\`\`\`js\n${Array.from({ length: 300 }, (_, i) => `const x${i} = ${i};`).join('\n')}\n\`\`\`` });
    expect(sink.messages).toHaveLength(2);
    const last = sink.messages[1]!;
    expect((last.match(/^```/gm) ?? []).length % 2).toBe(0);
    expect(last.endsWith(REPLY_CUT)).toBe(true);
  });

  it('stops posting when the turn deadline passes, even if Discord never answers', async () => {
    const errors: unknown[] = [];
    const hanging: ReplySink<number> = { send: () => new Promise<number>(() => {}), edit: async () => {} };
    const r = new ReplyRenderer(hanging, { intervalMs: 50, onError: (e) => errors.push(e) });
    const deadline = new AbortController();
    const finished = r.finish({ text: 'hello', deadline: deadline.signal });
    deadline.abort();
    await finished;
    expect(errors.some((e) => e instanceof PostingDeadlineError)).toBe(true);
  });
});
