import { describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../../src/memory/index/hashing-embedder.js';
import { dateSpans, inSpan, keyTerms, terms } from '../../src/memory/index/text.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('keyword terms', () => {
  it('strips stop words and keeps the meaningful terms, unstemmed, in order', () => {
    expect(keyTerms('What did Caroline research after she had been to the support group?')).toEqual(['caroline', 'research', 'support', 'group']);
    expect(keyTerms("Where's Melanie's new running shoes from?")).toEqual(['melanie', 'new', 'running', 'shoes']);
  });

  it('keeps at most the requested number, preferring longer words', () => {
    // longest first (epsilon, lambda), ties by position (alpha); original order kept
    expect(keyTerms('alpha beta gamma delta epsilon zeta eta theta iota kappa lambda', 3)).toEqual(['alpha', 'epsilon', 'lambda']);
  });

  it('stems so that forms of a word meet', () => {
    expect(terms('running runs')).toEqual(['run', 'run']);
    expect(terms('the painted paintings')).toEqual(['paint', 'paint']);
  });
});

describe('built-in hashing embedder', () => {
  const e = new HashingEmbedder();

  it('has an id of model:dimensions and returns unit vectors', async () => {
    expect(e.id).toBe('builtin-hash-v2:384');
    const [v] = await e.embed(['Sarah leads the payments team']);
    expect(v).toHaveLength(384);
    expect(dot(v!, v!)).toBeCloseTo(1, 5);
  });

  it('is deterministic and puts similar wording closer than unrelated text', async () => {
    const [a, b, c, a2] = await e.embed(['we rotate refresh tokens daily', 'refresh token rotation happens daily', 'the cat sleeps on the sofa', 'we rotate refresh tokens daily']);
    expect(Array.from(a!)).toEqual(Array.from(a2!));
    expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!) + 0.2);
  });

  it('gives a zero vector for text with no words', async () => {
    const [v] = await e.embed(['?!']);
    expect(dot(v!, v!)).toBe(0);
  });
});

describe('dates named in a query', () => {
  it('reads days and months as people write them', () => {
    expect(dateSpans('What did we decide on October 13, 2023?')).toEqual([{ day: 13, month: 9, year: 2023 }]);
    expect(dateSpans('What did Sam say on 8th December, 2023 and on 1 Feb?')).toEqual([
      { day: 8, month: 11, year: 2023 },
      { day: 1, month: 1 },
    ]);
    expect(dateSpans('Where did the team go in May 2022?')).toEqual([{ month: 4, year: 2022 }]);
    expect(dateSpans('Who joined in June?')).toEqual([{ month: 5 }]);
  });

  it('does not take the modal "may" or a bare year for a date', () => {
    expect(dateSpans('What may Sam want for the launch?')).toEqual([]);
    expect(dateSpans('What happened in 2023?')).toEqual([]);
  });

  it('matches a time to a day (give or take a time zone) or a month', () => {
    const t = Date.UTC(2023, 9, 13, 21, 30);
    expect(inSpan(t, { day: 13, month: 9, year: 2023 })).toBe(true);
    expect(inSpan(t, { day: 13, month: 9 })).toBe(true);
    expect(inSpan(t, { day: 16, month: 9, year: 2023 })).toBe(false);
    expect(inSpan(t, { month: 9, year: 2023 })).toBe(true);
    expect(inSpan(t, { month: 9, year: 2022 })).toBe(false);
    expect(inSpan(t, { month: 9 })).toBe(true);
  });
});
