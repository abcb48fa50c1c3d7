import { describe, expect, it } from 'vitest';
import { splitMessage } from '../../src/discord/split.js';

const fences = (s: string) => (s.match(/^\s*```/gm) ?? []).length;

describe('splitMessage', () => {
  it('keeps a short message whole and drops an empty one', () => {
    expect(splitMessage('hi')).toEqual(['hi']);
    expect(splitMessage('')).toEqual([]);
  });

  it('splits at line breaks under the limit and loses no text', () => {
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i} with some words`);
    const parts = splitMessage(lines.join('\n'), 500);
    expect(parts.length).toBeGreaterThan(10);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(500);
    expect(parts.join('\n')).toBe(lines.join('\n'));
  });

  it('closes an open code fence at a split and reopens it with its language', () => {
    const code = Array.from({ length: 60 }, (_, i) => `print(${i})  # a comment to pad the line`).join('\n');
    const text = `Intro\n\`\`\`python\n${code}\n\`\`\`\nOutro`;
    const parts = splitMessage(text, 400);
    expect(parts.length).toBeGreaterThan(3);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(400);
      expect(fences(p) % 2).toBe(0);
    }
    expect(parts[1]!.startsWith('```python\n')).toBe(true);
    expect(parts.at(-1)!.endsWith('Outro')).toBe(true);
    const rejoined = parts.join('\n').replace(/\n```\n```python/g, '');
    expect(rejoined).toBe(text);
  });

  it('hard-wraps a single line longer than the limit, preferring spaces', () => {
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');
    const parts = splitMessage(words, 300);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(300);
    expect(parts.join(' ')).toBe(words);
    const blob = 'x'.repeat(4500);
    const hard = splitMessage(blob, 2000);
    expect(hard.map((p) => p.length).every((n) => n <= 2000)).toBe(true);
    expect(hard.join('')).toBe(blob);
  });
});
