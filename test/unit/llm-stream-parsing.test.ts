import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter } from '../../src/llm/retry.js';
import { SseDecoder } from '../../src/llm/sse.js';
import { parseMistralCalls } from '../../src/llm/text-tool-call-parse.js';
import { TextToolCallFilter, heldSuffix, type TextPiece } from '../../src/llm/text-tool-calls.js';
import { ToolCallAssembler } from '../../src/llm/tool-call-deltas.js';

function decodeAll(pieces: string[]) {
  const d = new SseDecoder();
  return [...pieces.flatMap((p) => d.push(p)), ...d.end()];
}

describe('SseDecoder', () => {
  const stream = ': keepalive\n\ndata: {"a":1}\n\nevent: ping\ndata: x\ndata: y\n\ndata:[DONE]\n\n';

  it('decodes events, ignores comments and joins multi-line data', () => {
    expect(decodeAll([stream])).toEqual([{ data: '{"a":1}' }, { event: 'ping', data: 'x\ny' }, { data: '[DONE]' }]);
  });

  it('gives the same events however the text is split, with CRLF too', () => {
    const whole = decodeAll([stream]);
    const chars = decodeAll([...stream]);
    expect(chars).toEqual(whole);
    const crlf = stream.replace(/\n/g, '\r\n');
    expect(decodeAll([...crlf])).toEqual(whole);
    expect(decodeAll([crlf.slice(0, 20), crlf.slice(20)])).toEqual(whole);
  });

  it('dispatches a final event that lacks the blank line', () => {
    expect(decodeAll(['data: {"b":2}'])).toEqual([{ data: '{"b":2}' }]);
  });
});

let n = 0;
const newId = () => `id${++n}`;

function filter(pieces: string[], toolNames: string[] | null = ['recall', 'open_note']) {
  const f = new TextToolCallFilter({ toolNames: toolNames ? new Set(toolNames) : null, newId });
  const out: TextPiece[] = [...pieces.flatMap((p) => f.push(p)), ...f.end()];
  return {
    text: out.map((p) => (p.type === 'text' ? p.text : '')).join(''),
    calls: out.flatMap((p) => (p.type === 'tool_call' ? [{ name: p.call.name, args: p.call.arguments }] : [])),
    out,
  };
}

/** Feeds the text whole and one character at a time; both must agree. */
function both(text: string, toolNames?: string[] | null) {
  const whole = filter([text], toolNames);
  const chars = filter([...text], toolNames);
  expect({ text: chars.text, calls: chars.calls }).toEqual({ text: whole.text, calls: whole.calls });
  return whole;
}

describe('TextToolCallFilter', () => {
  it('passes ordinary text straight through, without holding it back', () => {
    const f = new TextToolCallFilter({ toolNames: new Set(['recall']), newId });
    expect(f.push('Hello there')).toEqual([{ type: 'text', text: 'Hello there' }]);
    expect(f.push(' and <tool')).toEqual([{ type: 'text', text: ' and ' }]); // held: maybe a marker
    expect(f.push('kit> rocks')).toEqual([{ type: 'text', text: '<toolkit> rocks' }]);
    expect(f.end()).toEqual([]);
  });

  it('recovers Qwen/Hermes <tool_call> blocks and strips them', () => {
    const r = both('Let me check.\n<tool_call>\n{"name": "recall", "arguments": {"query": "jwt"}}\n</tool_call>\n<tool_call>{"name":"open_note","arguments":{"path":"a.md"}}</tool_call>');
    expect(r.text).toBe('Let me check.\n');
    expect(r.calls).toEqual([
      { name: 'recall', args: '{"query":"jwt"}' },
      { name: 'open_note', args: '{"path":"a.md"}' },
    ]);
  });

  it('recovers a <tool_call> with broken JSON leniently, arguments raw', () => {
    const r = both('<tool_call>{"name": "recall", "arguments": {"query": "jwt"</tool_call>');
    expect(r.calls).toEqual([{ name: 'recall', args: '{"query": "jwt"' }]);
    expect(r.text).toBe('');
  });

  it('recovers an unclosed <tool_call> at the end of the reply', () => {
    expect(both('<tool_call>{"name":"recall","arguments":{"query":"x"}}').calls).toEqual([{ name: 'recall', args: '{"query":"x"}' }]);
  });

  it('recovers a ```json fence naming a known tool, keeps other fences as text', () => {
    const r = both('Sure.\n```json\n{"name": "recall", "arguments": {"query": "Sarah"}}\n```\nDone.');
    expect(r.calls).toEqual([{ name: 'recall', args: '{"query":"Sarah"}' }]);
    expect(r.text).toBe('Sure.\nDone.');
    const data = '```json\n{"name": "Sarah", "age": 3}\n```';
    expect(both(data)).toMatchObject({ text: data, calls: [] });
    const code = 'Run:\n```python\nprint({"name": "recall"})\n```\nthen `x`';
    expect(both(code)).toMatchObject({ text: code, calls: [] });
  });

  it('recovers Mistral [TOOL_CALLS] in both forms', () => {
    expect(both('[TOOL_CALLS][{"name": "recall", "arguments": {"query": "q"}}]').calls).toEqual([{ name: 'recall', args: '{"query":"q"}' }]);
    expect(both('[TOOL_CALLS]recall[ARGS]{"query": "q"}').calls).toEqual([{ name: 'recall', args: '{"query": "q"}' }]);
    expect(parseMistralCalls('open_note[ARGS]{"path":"a"}[TOOL_CALLS]recall[ARGS]{"query":"b"}')?.calls).toEqual([
      { name: 'open_note', arguments: '{"path":"a"}' },
      { name: 'recall', arguments: '{"query":"b"}' },
    ]);
  });

  it('recovers a bare leading JSON call to a known tool, but not other JSON', () => {
    expect(both('{"name": "recall", "parameters": {"query": "x"}}')).toMatchObject({ text: '', calls: [{ name: 'recall', args: '{"query":"x"}' }] });
    const plain = '{"name": "Sarah", "role": "manager"} is what I found';
    expect(both(plain)).toMatchObject({ text: plain, calls: [] });
    const f = new TextToolCallFilter({ toolNames: new Set(['recall']), newId });
    expect(f.push('{curly} text')).toEqual([{ type: 'text', text: '{curly} text' }]); // not held until the end
  });

  it('strips <think> reasoning', () => {
    expect(both('<think>user wants x; maybe call recall</think>\n\nHere you go.')).toMatchObject({ text: 'Here you go.', calls: [] });
    expect(both('<think>never closed', null).text).toBe('');
  });

  it('leaves tool markers alone when no tools were offered', () => {
    const text = '<tool_call>{"name":"recall","arguments":{}}</tool_call>';
    expect(both(text, null)).toMatchObject({ text, calls: [] });
  });

  it('holds back exactly the suffix that could start a marker', () => {
    expect(heldSuffix('abc <tool_c', ['<tool_call>'])).toBe(7);
    expect(heldSuffix('abc', ['<tool_call>'])).toBe(0);
    expect(heldSuffix('x `', ['```'])).toBe(1);
  });
});

describe('ToolCallAssembler', () => {
  it('assembles fragments by index, keeps the first name and id, defaults empty arguments', () => {
    const a = new ToolCallAssembler();
    a.add([{ index: 1, id: 'b', function: { name: 'open_note', arguments: '' } }]);
    a.add([{ index: 0, id: 'a', type: 'function', function: { name: 'recall', arguments: '{"q":' } }]);
    a.add([{ index: 0, id: 'a', function: { name: 'recall', arguments: '"x"}' } }]);
    a.add([{ index: 2, function: { arguments: '{}' } }]); // nameless: dropped
    const { calls, dropped } = a.finish(() => 'gen');
    expect(calls).toEqual([
      { id: 'a', name: 'recall', arguments: '{"q":"x"}' },
      { id: 'b', name: 'open_note', arguments: '{}' },
    ]);
    expect(dropped).toBe(1);
  });

  it('handles missing indexes, object arguments and duplicate ids', () => {
    const a = new ToolCallAssembler();
    a.add([
      { id: 'same', function: { name: 'recall', arguments: { query: 'a' } } },
      { id: 'same2', function: { name: 'recall', arguments: '{"query":"b"}' } },
    ]);
    a.add([{ index: 5, id: 'same', function: { name: 'open_note', arguments: '{}' } }]);
    let i = 0;
    const { calls } = a.finish(() => `g${++i}`);
    expect(calls.map((c) => [c.id, c.arguments])).toEqual([
      ['same', '{"query":"a"}'],
      ['same2', '{"query":"b"}'],
      ['g1', '{}'],
    ]);
  });
});

describe('retry helpers', () => {
  it('parses Retry-After seconds and dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped; Retry-After wins but is capped', () => {
    const opts = { baseMs: 100, maxMs: 1000, random: () => 1 };
    expect([0, 1, 2, 3, 4].map((a) => backoffDelay(a, undefined, opts))).toEqual([100, 200, 400, 800, 1000]);
    expect(backoffDelay(0, undefined, { ...opts, random: () => 0 })).toBe(50);
    expect(backoffDelay(0, 300, opts)).toBe(300);
    expect(backoffDelay(0, 60_000, opts)).toBe(1000);
  });
});
