import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS, Fusion, spreadOverPages, type RecallWeights } from '../../src/memory/index/fusion.js';
import type { ScoredChunk } from '../../src/memory/index/project-table.js';
import { ASSISTANT_NOUNS, ASSISTANT_VERBS, asksAssistant, asksSummary, classifyQuery, SUMMARY_WORDS } from '../../src/memory/index/query-kind.js';
import type { RecallHit } from '../../src/core/ports/index.js';

const now = new Date('2026-11-29T00:00:00Z');
const turn = (page: string, lineStart: number, score: number, heading: string, text: string): ScoredChunk => ({
  page,
  heading,
  lineStart,
  lineEnd: lineStart + 2,
  text,
  context: '',
  entity: '',
  updated: '2026-11-01T00:00:00.000Z',
  staleness: 0,
  sensitivity: 'personal',
  hash: `${page}#${lineStart}`,
  embedder: 'test:2',
  score,
});
const w: RecallWeights = { ...DEFAULT_WEIGHTS, recency: 0, thread: 0, brevity: 0 };

describe('query rule: the question asks what the assistant said', () => {
  it('holds for every verb of its list in the past and every noun, and not for a request in the present', () => {
    for (const [base, past] of ASSISTANT_VERBS) {
      expect(asksAssistant(`How did you ${base} handling my retries?`), base).toBe(true);
      expect(asksAssistant(`What was it you ${past} for my resume?`), past).toBe(true);
      expect(asksAssistant(`Remind me what you've ${past} about the deadline`), past).toBe(true);
      // "can you give me…" asks for something now; it is not about what was said
      expect(asksAssistant(`Can you ${base} me a plan for my resume?`), base).toBe(false);
      expect(asksAssistant(`What did Nate ${base} about the turtles?`), base).toBe(false);
    }
    for (const noun of ASSISTANT_NOUNS) {
      expect(asksAssistant(`What was your ${noun} about my budget?`), noun).toBe(true);
      expect(asksAssistant(`Did I follow your ${noun}s?`), noun).toBe(true);
      expect(asksAssistant(`What was her ${noun} about the trip?`), noun).toBe(false);
    }
  });

  it("ranks the assistant's reply above the asker's message it would have lost to, and marks it", () => {
    const mine = turn('log/2024-03-15.md', 3, 0.5, '15 March 2024 12:00 · User', 'My app retries too often and floods the API.');
    const reply = turn('log/2024-03-15.md', 7, 0.45, '15 March 2024 12:01 · Charlie (reply)', 'Use exponential backoff with jitter and a token bucket.');
    const [base, past] = ASSISTANT_VERBS[0]!;
    const rank = (q: string) => new Fusion([mine, reply], [], w, new Set(), classifyQuery(q, now)).rank(() => 0, now, 2);
    // in the first person, the asker's message leads…
    expect(rank(`How should my app handle retries?`)[0]!.lineStart).toBe(3);
    // …unless the question asks what the assistant said
    const asked = rank(`How did you ${base} my app handle retries?`);
    expect(asked[0]!.lineStart).toBe(7);
    expect(asked[0]!.why).toContain('reply');
    expect(rank(`What had you ${past} for my app's retries?`)[0]!.lineStart).toBe(7);
    // with both signals off, the higher similarity wins and nothing is marked
    const off = new Fusion([mine, reply], [], { ...w, replies: 0, own: 0 }, new Set(), classifyQuery(`How did you ${base} my app handle retries?`, now)).rank(() => 0, now, 2);
    expect(off[0]!.lineStart).toBe(3);
    expect(off.flatMap((h) => h.why)).not.toContain('reply');
  });
});

describe('query rule: the question asks for a summary', () => {
  it('holds for every word of its list, in any case, and not for a question without one', () => {
    for (const word of SUMMARY_WORDS) {
      expect(asksSummary(`Can you give me a ${word} of how my project went?`), word).toBe(true);
      expect(asksSummary(`${word.toUpperCase()} what we discussed about my resume`), word).toBe(true);
      expect(classifyQuery(`Please ${word} my progress`, now).summary, word).toBe(true);
    }
    expect(asksSummary('What did I say about the summit?')).toBe(false);
    expect(classifyQuery('When did I meet Laura?', now).summary).toBe(false);
  });

  it('spreads its hits over the days of the archive, and does not for another question', () => {
    const day1 = [0.9, 0.85, 0.8].map((s, i) => turn('log/2024-03-01.md', 3 + 4 * i, s, '1 March 2024 · User', `budget step ${i}`));
    const day2 = turn('log/2024-04-01.md', 3, 0.7, '1 April 2024 · User', 'budget step later');
    const pages = (q: string) => new Fusion([...day1, day2], [], w, new Set(), classifyQuery(q, now)).rank(() => 0, now, 3).map((h) => h.page);
    const word = SUMMARY_WORDS[1]!;
    expect(pages(`Give me ${word} of my budget steps`)).toContain('log/2024-04-01.md');
    expect(pages('What were my budget steps?')).not.toContain('log/2024-04-01.md');
  });

  it('takes each further hit of a page at (1 − spread)^n of its score, keeping the scores', () => {
    const hit = (page: string, score: number) => ({ page, score }) as RecallHit;
    const sorted = [hit('a', 1), hit('a', 0.95), hit('a', 0.9), hit('b', 0.8), hit('c', 0.5)];
    // 0.95 × 0.85 = 0.81 still beats b's 0.8; 0.9 × 0.85² = 0.65 does not
    expect(spreadOverPages(sorted, 0.15, 4).map((h) => `${h.page}${h.score}`)).toEqual(['a1', 'a0.95', 'b0.8', 'a0.9']);
    expect(spreadOverPages(sorted, 0.5, 4).map((h) => h.page)).toEqual(['a', 'b', 'c', 'a']);
    expect(spreadOverPages(sorted, 0, 3)).toEqual(sorted.slice(0, 3));
  });
});
