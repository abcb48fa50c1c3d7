import { describe, expect, it } from 'vitest';
import { cleanModelText } from '../../src/discord/sanitize.js';

describe('cleanModelText', () => {
  it('removes tool-call and think blocks, also unclosed ones while streaming', () => {
    expect(cleanModelText('Sure.<tool_call>{"name":"search","arguments":{"q":"x"}}</tool_call> Done.')).toBe('Sure. Done.');
    expect(cleanModelText('Let me look <tool_call>{"name":"sea')).toBe('Let me look');
    expect(cleanModelText('<think>private reasoning</think>Answer')).toBe('Answer');
  });

  it('removes raw tool JSON and special tokens but keeps ordinary JSON', () => {
    expect(cleanModelText('Checking {"name": "read_note", "arguments": {"path": "a.md"}} now')).toBe('Checking  now');
    expect(cleanModelText('<|im_end|>Hi[TOOL_CALLS]')).toBe('Hi');
    expect(cleanModelText('Config: {"name": "x", "size": 3}')).toBe('Config: {"name": "x", "size": 3}');
  });
});
