import { describe, expect, it } from 'vitest';
import { ToolTrace } from '../../src/discord/tool-trace.js';

describe('ToolTrace', () => {
  it('summarises searches with hit counts, opened notes and failures in one line', () => {
    const t = new ToolTrace();
    expect(t.line()).toBe('');
    t.onEvent({ type: 'tool_call', turnId: 't', callId: '1', name: 'search_memory', args: { query: 'jwt refresh' } });
    expect(t.line()).toBe('searched “jwt refresh”…');
    t.onEvent({ type: 'tool_result', turnId: 't', callId: '1', name: 'search_memory', ok: true, summary: '3 hits for "jwt refresh"', pages: ['notes/a.md'], hits: 3 });
    t.onEvent({ type: 'tool_call', turnId: 't', callId: '2', name: 'read_note', args: { path: 'People/Sarah-Chen.md' } });
    t.onEvent({ type: 'tool_result', turnId: 't', callId: '2', name: 'read_note', ok: true, summary: 'opened People/Sarah-Chen.md', pages: ['notes/People/Sarah-Chen.md'] });
    t.onEvent({ type: 'tool_call', turnId: 't', callId: '3', name: 'grep_notes', args: { pattern: 'tent' } });
    t.onEvent({ type: 'tool_result', turnId: 't', callId: '3', name: 'grep_notes', ok: false, summary: 'bad arguments: pattern too short' });
    expect(t.line()).toBe('searched “jwt refresh” (3 hits) · opened Sarah-Chen · ⚠ grep notes failed: bad arguments: pattern too short');
    expect(t.line(40).length).toBeLessThanOrEqual(40);
    t.onEvent({ type: 'tool_call', turnId: 't', callId: '4', name: 'search_notes', args: { text: 'tent' } });
    t.onEvent({ type: 'tool_result', turnId: 't', callId: '4', name: 'search_notes', ok: true, summary: '2 lines match "tent"', hits: 2 });
    t.onEvent({ type: 'tool_call', turnId: 't', callId: '5', name: 'remember', args: { title: 'Tent', body: '{"x":1}' } });
    t.onEvent({ type: 'tool_result', turnId: 't', callId: '5', name: 'remember', ok: true, summary: 'saved Topics/Tent.md', pages: ['notes/Topics/Tent.md'] });
    expect(t.line(1000)).toMatch(/searched “tent” \(2 hits\) · saved Tent$/);
  });

  it('takes the hit count from the tool, not from the wording of its summary', () => {
    const t = new ToolTrace();
    t.onEvent({ type: 'tool_call', turnId: 't', callId: '1', name: 'search_memory', args: { query: 'tent' } });
    t.onEvent({ type: 'tool_result', turnId: 't', callId: '1', name: 'search_memory', ok: true, summary: '7 results in 3 notes', hits: 0 });
    expect(t.line()).toBe('searched “tent” (no hits)');
  });

  it('ignores text events', () => {
    const t = new ToolTrace();
    expect(t.onEvent({ type: 'text_delta', turnId: 't', text: '{"name":"x","arguments":{}}' })).toBe(false);
    expect(t.empty).toBe(true);
  });
});

describe('ToolTrace with MCP tools', () => {
  it('shows server › tool, the arguments and the result summary like a built-in tool', () => {
    const t = new ToolTrace();
    t.onEvent({ type: 'tool_call', turnId: 't', callId: '1', name: 'fs__read_text_file', args: { path: '/tmp/plan.txt' }, source: { server: 'fs', tool: 'read_text_file' } });
    expect(t.line()).toBe('fs › read_text_file(path: "/tmp/plan.txt")…');
    t.onEvent({ type: 'tool_result', turnId: 't', callId: '1', name: 'fs__read_text_file', ok: true, summary: '18 chars: tent, stove, maps' });
    t.onEvent({ type: 'tool_call', turnId: 't', callId: '2', name: 'fs__write_file', args: { path: '/tmp/x', content: 'a' }, source: { server: 'fs', tool: 'write_file' } });
    t.onEvent({ type: 'tool_result', turnId: 't', callId: '2', name: 'fs__write_file', ok: false, summary: 'declined' });
    expect(t.line()).toBe('fs › read_text_file(path: "/tmp/plan.txt") → 18 chars: tent, stove, maps · fs › write_file(path: "/tmp/x", content: "a") ⚠ declined');
  });
});
