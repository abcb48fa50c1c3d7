import { describe, expect, it } from 'vitest';
import { parseDecisions, parseQuotes, serializeDecisions, serializeQuotes } from '../../src/memory/store/layers-format.js';

describe('decisions.md', () => {
  it('round-trips what it writes, including odd sources and newlines in text', () => {
    const decisions = [
      { date: '2026-11-29', text: 'Use JWT (short-lived)', source: 'https://discord.com/channels/1/2/3' },
      { date: '', text: 'No date', source: '' },
      { date: '2026-11-30', text: 'Source with spaces', source: 'voice:a b' },
    ];
    const text = serializeDecisions(decisions);
    expect(text).toBe(
      '# Decisions\n\n- **2026-11-29** — Use JWT (short-lived) ([source](https://discord.com/channels/1/2/3))\n- No date\n- **2026-11-30** — Source with spaces ([source](<voice:a b>))\n',
    );
    expect(parseDecisions(text, 'd.md')).toEqual({ decisions, problems: [] });
    expect(parseDecisions(serializeDecisions([{ date: '2026-01-01', text: 'two\nlines', source: 's' }]), 'd').decisions[0]!.text).toBe('two lines');
  });
  it('writes only the day of a full timestamp so it reads back', () => {
    const text = serializeDecisions([{ date: '2026-11-29T10:00:00Z', text: 'T', source: '' }]);
    expect(parseDecisions(text, 'd').decisions).toEqual([{ date: '2026-11-29', text: 'T', source: '' }]);
  });
  it('tolerates hand-edited variants and reports prose with its line', () => {
    const { decisions, problems } = parseDecisions('# Decisions\n<!-- mine -->\n+ __2026-11-01__ – Ship it\n- 2026-11-02 -- Two dashes\nrandom prose\n', 'p/decisions.md');
    expect(decisions).toEqual([
      { date: '2026-11-01', text: 'Ship it', source: '' },
      { date: '2026-11-02', text: 'Two dashes', source: '' },
    ]);
    expect(problems).toEqual([expect.objectContaining({ path: 'p/decisions.md', line: 5 })]);
  });
});

describe('quotes.md', () => {
  it('round-trips multi-line and already-quoted text', () => {
    const quotes = [
      { date: '2026-11-29', speaker: 'Alice', text: 'Line one\n\nLine three', source: 'https://x.test/1' },
      { date: '2026-11-29', speaker: 'Bob, PhD', text: '"already quoted"', source: 'terminal:1' },
    ];
    const text = serializeQuotes(quotes);
    expect(text).toContain('> "Line one\n>\n> Line three"\n> — Alice, 2026-11-29 ([source](https://x.test/1))');
    expect(parseQuotes(text, 'q.md')).toEqual({ quotes, problems: [] });
  });
  it('reports lines outside quote blocks', () => {
    const { quotes, problems } = parseQuotes('# Quotes\n\n> "hi"\n> -- Dan\nstray\n', 'q.md');
    expect(quotes).toEqual([{ text: 'hi', speaker: 'Dan', date: '', source: '' }]);
    expect(problems).toEqual([expect.objectContaining({ line: 5 })]);
  });
});
