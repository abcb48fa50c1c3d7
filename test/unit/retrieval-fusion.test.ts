import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS, Fusion, type RecallWeights } from '../../src/memory/index/fusion.js';
import { brevityPrior, recencyOf } from '../../src/memory/index/passage-facts.js';
import type { ScoredChunk } from '../../src/memory/index/project-table.js';
import { scoreByConversation } from '../../scripts/locomo-util.js';
import { classifyQuery } from '../../src/memory/index/query-kind.js';

const chunk = (page: string, score: number, extra: Partial<ScoredChunk> = {}): ScoredChunk => ({
  page,
  heading: page,
  lineStart: 1,
  lineEnd: 2,
  text: `text of ${page}`,
  context: '',
  entity: '',
  updated: '2026-11-01T00:00:00.000Z',
  staleness: 0,
  sensitivity: 'personal',
  hash: page,
  embedder: 'test:2',
  score,
  ...extra,
});
/** A turn of the 15 March 2024 log: three lines from `lineStart`, under its heading. */
const logTurn = (lineStart: number, score: number, heading: string, text: string): ScoredChunk => chunk('log/2024-03-15.md', score, { lineStart, lineEnd: lineStart + 2, heading, text });
const weights: RecallWeights = { ...DEFAULT_WEIGHTS, vector: 0.7, keyword: 0.3, usage: 0.3, recency: 0, minSimilarity: 0.35, entity: 0.5 };
const now = new Date('2026-11-29T00:00:00Z');

describe('fusion', () => {
  it('blends mostly semantic, some keyword, and explains the parts', () => {
    const f = new Fusion([chunk('a', 0.8), chunk('b', 0.6)], [chunk('b', 4), chunk('c', 2)], weights);
    const hits = f.rank(() => 0, now, 10);
    expect(hits.map((h) => h.page)).toEqual(['b', 'a', 'c']);
    expect(hits[0]!.score).toBeCloseTo(0.7 * 0.6 + 0.3 * 1, 6);
    expect(hits[0]!.parts).toEqual({ vector: 0.6, keyword: 1, usage: 0, recency: 1 });
    expect(hits[0]!.why).toEqual(['vector', 'keyword']);
    expect(hits[2]!.parts.keyword).toBeCloseTo(0.5, 6);
  });

  it('lets keyword results lead when vector similarity is not confident', () => {
    const f = new Fusion([chunk('a', 0.2)], [chunk('k', 5)], weights);
    expect(f.confident).toBe(false);
    const hits = f.rank(() => 0, now, 10);
    expect(hits[0]!.page).toBe('k');
    expect(hits[0]!.score).toBeCloseTo(0.7, 6);
    expect(hits[0]!.why).toContain('keyword-fallback');
  });

  it('applies the usage boost as similarity × (1 + boost × 0.3)', () => {
    const f = new Fusion([chunk('a', 0.5), chunk('b', 0.5)], [], weights);
    const hits = f.rank((p) => (p === 'b' ? 1 : 0), now, 10);
    expect(hits[0]!.page).toBe('b');
    expect(hits[0]!.score).toBeCloseTo(0.7 * 0.5 * 1.3, 6);
    expect(hits[0]!.why).toContain('usage');
  });

  it('boosts chunks about someone the query names', () => {
    const f = new Fusion([chunk('a', 0.5, { entity: 'Melanie' }), chunk('b', 0.55, { entity: 'Caroline' })], [], weights, new Set(['melani']));
    expect(f.rank(() => 0, now, 10).map((h) => [h.page, h.why.includes('entity')])).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });

  it('fades recency with staleness', () => {
    expect(recencyOf('2026-11-01T00:00:00Z', 0, now)).toBe(1);
    expect(recencyOf('2026-11-28T00:00:00Z', 10, now)).toBeCloseTo(0.5, 6);
    expect(recencyOf('2026-11-01T00:00:00Z', 5, now)).toBeGreaterThan(recencyOf('2026-11-01T00:00:00Z', 8, now));
  });

  it('discounts very short conversation messages, not notes', () => {
    const log = (text: string) => ({ page: 'log/2026-11-01.md', text });
    expect(brevityPrior(log('Take care!'), 2)).toBeCloseTo(Math.sqrt(2 / 4), 6);
    expect(brevityPrior(log('Thanks!'), 2)).toBeCloseTo(Math.sqrt(1 / 3), 6);
    expect(brevityPrior(log('We adopted two turtles from the shelter near the beach, cleaned their tank, bought lamps and fresh greens'), 2)).toBeGreaterThan(0.9);
    expect(brevityPrior({ page: 'notes/sam.md', text: 'Vegan.' }, 2)).toBe(1);
    expect(brevityPrior(log('Take care!'), 0)).toBe(1);
  });

  it('with the brevity prior on, ranks an informative message above a one-word match of equal similarity', () => {
    const short = chunk('log/2026-11-01.md', 4, { lineStart: 1, text: 'Take care!' });
    const long = chunk('log/2026-11-01.md', 4, { lineStart: 5, text: 'I take care of the turtles: clean tank, good food, enough light' });
    const hits = new Fusion([], [short, long], { ...weights, brevity: 4 }).rank(() => 0, now, 10);
    expect(hits.map((h) => h.lineStart)).toEqual([5, 1]);
    // switched off, the shorter match keeps its BM25 lead
    expect(new Fusion([], [short, long], { ...weights, brevity: 0 }).rank(() => 0, now, 10)[0]!.lineStart).toBe(1);
  });
});

describe('fusion with dates', () => {
  it('boosts conversation messages written on a date the query names, not notes', () => {
    const onDay = chunk('log/2023-10-13.md', 0.5, { updated: '2023-10-13T14:00:00.000Z' });
    const other = chunk('log/2023-10-20.md', 0.55, { updated: '2023-10-20T14:00:00.000Z' });
    const note = chunk('notes/plan.md', 0.55, { updated: '2023-10-13T09:00:00.000Z' });
    const hits = new Fusion([onDay, other, note], [], { ...weights, brevity: 0 }, new Set(), { kind: 'temporal', windows: [], dates: [{ day: 13, month: 9, year: 2023 }], namesTime: true }).rank(
      () => 0,
      now,
      10,
    );
    expect(hits.map((h) => h.page)).toEqual(['log/2023-10-13.md', 'log/2023-10-20.md', 'notes/plan.md']);
    expect(hits[0]!.why).toContain('temporal');
    expect(hits[0]!.score).toBeCloseTo(0.7 * 0.5 * (1 + DEFAULT_WEIGHTS.dated), 6);
  });
});

describe('LoCoMo scoring helpers', () => {
  it('scores recall@k per conversation over categories 1-4', () => {
    const items = [
      { key: 'conv-1#0', category: 1, gold: ['D1:1', 'D1:2'] },
      { key: 'conv-1#1', category: 5, gold: ['D1:3'] },
      { key: 'conv-2#0', category: 4, gold: ['D2:1'] },
    ];
    const out = scoreByConversation(items, { 'conv-1#0': ['D1:1', 'x', 'x', 'x', 'x', 'D1:2'], 'conv-2#0': ['D2:1'] });
    expect(
      out
        .split('\n')
        .slice(1)
        .map((l) => l.split(/\s+/)),
    ).toEqual([
      ['conv-1', '1', '50.0', '100.0'],
      ['conv-2', '1', '100.0', '100.0'],
    ]);
  });
});

describe('multi-pass fusion', () => {
  const monday = new Date('2026-11-30T10:00:00Z');
  const record = (page: string, text: string, score = 0.5) => chunk(page, score, { page, text, updated: '2026-01-01T00:00:00.000Z' });

  it('ranks records of the type a question prefers: identity for a person, preferences for tastes', () => {
    // the identity record comes later on the page, so a tie would put it second
    const identity = { ...record('notes/People/Sarah.md', 'Leads the design team at Acme. [type:: identity] ^r-1'), lineStart: 9 };
    const taste = { ...record('notes/People/Sarah.md', 'Prefers async updates over calls. [type:: preference] ^r-2'), lineStart: 5 };
    const rank = (q: string) => new Fusion([identity, taste], [], weights, new Set(), classifyQuery(q, monday)).rank(() => 0, monday, 2).map((h) => h.text.slice(-4));
    expect(rank('who is Sarah?')).toEqual(['r-1', 'r-2'].map((id) => `^${id}`));
    expect(rank('what does Sarah like?')).toEqual(['r-2', 'r-1'].map((id) => `^${id}`));
    const hits = new Fusion([identity, taste], [], weights, new Set(), classifyQuery('what does Sarah like?', monday)).rank(() => 0, monday, 2);
    expect(hits[0]!.why).toContain('category');
    expect(hits[1]!.why).not.toContain('category');
  });

  it('dates a record by when it happened, and discounts dated entries outside the time asked about', () => {
    const lastWeek = record('notes/Travel/Lisbon.md', 'Flew to Lisbon. [type:: episode] [happened:: 2026-11-25] [said:: 2026-11-28] ^r-3', 0.3);
    const older = { ...record('notes/Travel/Lisbon.md', 'Flew to Porto. [type:: episode] [happened:: 2026-09-02] ^r-4', 0.6), lineStart: 7 };
    const shape = classifyQuery('where did I fly last week?', monday);
    const hits = new Fusion([lastWeek, older], [], weights, new Set(), shape).rank(() => 0, monday, 2);
    expect(hits.map((h) => h.text.slice(-4))).toEqual(['^r-3', '^r-4']);
    expect(hits[0]!.why).toContain('temporal');
    // without a named time the more similar one leads
    const plain = new Fusion([lastWeek, older], [], weights, new Set(), classifyQuery('where did I fly?', monday)).rank(() => 0, monday, 2);
    expect(plain[0]!.text).toContain('Porto');
  });

  it('matches a year-long anchor against when a thing happened, not when a message was said', () => {
    const told = chunk('log/2024-12-01.md', 0.5, { updated: '2024-12-01T10:00:00.000Z' });
    const moved = record('notes/People/Ana.md', 'Moved from Porto to Lisbon. [type:: episode] [happened:: 2024-11-20] [said:: 2026-11-02] ^r-5', 0.5);
    const hits = new Fusion([told, moved], [], { ...weights, brevity: 0 }, new Set(), classifyQuery('where did Ana move two years ago?', monday)).rank(() => 0, monday, 2);
    const why = Object.fromEntries(hits.map((h) => [h.page, h.why]));
    expect(why['notes/People/Ana.md']).toContain('temporal');
    expect(why['log/2024-12-01.md']).not.toContain('temporal');
    expect(hits[0]!.page).toBe('notes/People/Ana.md');
  });

  it('prefers recent entries only when the question names no time', () => {
    const recent = chunk('log/2026-11-29.md', 0.5, { updated: '2026-11-29T10:00:00.000Z', staleness: 8 });
    const old = chunk('log/2026-06-01.md', 0.52, { updated: '2026-06-01T10:00:00.000Z', staleness: 8 });
    const w = { ...weights, recency: 0.5, brevity: 0 };
    const plain = new Fusion([recent, old], [], w, new Set(), classifyQuery('status of the build', monday)).rank(() => 0, monday, 2);
    expect(plain[0]!.page).toBe('log/2026-11-29.md');
    expect(plain[0]!.why).toContain('recent');
    const june = new Fusion([recent, old], [], w, new Set(), classifyQuery('status of the build in June', monday)).rank(() => 0, monday, 2);
    expect(june[0]!.page).toBe('log/2026-06-01.md');
  });
});

describe('conversation cues', () => {
  // three messages of one archive page, one blank line apart (see archive-format.ts)
  const msg = (line: number, text: string, score: number) => chunk('log/2023-05-08.md', score, { lineStart: line, lineEnd: line + 2, text, entity: 'Nate' });
  const w: RecallWeights = { ...weights, brevity: 0, entity: 0 };

  it('lifts the reply to a message that matches (thread)', () => {
    const asked = msg(3, 'What got you into running?', 0.8);
    const reply = msg(7, 'It clears my head after work.', 0.3);
    const aside = msg(30, 'Nice weather for it.', 0.3);
    const without = new Fusion([asked, reply, aside], [], { ...w, thread: 0 }).rank(() => 0, now, 3);
    expect(without[0]!.lineStart).toBe(3);
    expect(without[1]!.score).toBeCloseTo(without[2]!.score, 6);
    const hits = new Fusion([asked, reply, aside], [], { ...w, thread: 0.8 }).rank(() => 0, now, 3);
    expect(hits.map((h) => h.lineStart)).toEqual([3, 7, 30]);
    expect(hits[1]!.score).toBeCloseTo(0.7 * (0.3 + (0.8 * 0.8) / 2), 6);
    expect(hits[2]!.score).toBeCloseTo(0.7 * 0.3, 6);
  });

  it('prefers a message that tells a time when the question asks when', () => {
    const dated = msg(3, 'I got them three years ago from a shelter.', 0.5);
    const plain = msg(30, 'My turtles are the cutest, I got them from a shelter.', 0.55);
    const ask = (q: string) => new Fusion([dated, plain], [], w, new Set(), classifyQuery(q, now)).rank(() => 0, now, 2)[0]!.lineStart;
    expect(ask('When did Nate get his turtles?')).toBe(3);
    expect(ask('Where did Nate get his turtles?')).toBe(30);
  });

  it("prefers the asker's own messages to the assistant's replies when the question says I or my", () => {
    const mine = logTurn(3, 0.5, '15 March 2024 12:00 · User', 'My budget tracker needs a CSV export.');
    const reply = logTurn(7, 0.6, '15 March 2024 12:01 · Charlie (reply) › Export', 'A budget tracker can export CSV with a small writer.');
    const ask = (q: string) => new Fusion([mine, reply], [], { ...w, thread: 0 }, new Set(), classifyQuery(q, now)).rank(() => 0, now, 2);
    const first = ask('What format does my budget tracker export?');
    expect(first.map((h) => h.lineStart)).toEqual([3, 7]);
    expect(first[0]!.why).toContain('own');
    expect(ask('What format does the budget tracker export?').map((h) => h.lineStart)).toEqual([7, 3]);
    expect(new Fusion([mine, reply], [], { ...w, thread: 0, own: 0 }, new Set(), classifyQuery('What format does my tracker export?', now)).rank(() => 0, now, 2)[0]!.lineStart).toBe(7);
  });

  it('reads the first person from the pronoun, not from a Roman numeral or a word inside another', () => {
    expect(classifyQuery('What did I decide about the tank?', now).firstPerson).toBe(true);
    expect(classifyQuery("I'm wondering what we picked", now).firstPerson).toBe(true);
    expect(classifyQuery('Remind me of the plan', now).firstPerson).toBe(true);
    expect(classifyQuery('What did Nate say in part i of the talk?', now).firstPerson).toBe(false);
    expect(classifyQuery('Which enemy did Nate mention to Tim?', now).firstPerson).toBe(false);
    expect(classifyQuery('Where did Nate get his turtles?', now).firstPerson).toBe(false);
  });

  it("spares the asker's own short messages the brevity discount when the question is about themselves", () => {
    const short = logTurn(3, 0.5, '15 March 2024 12:00 · User', 'Deadline moved: June 3.');
    const long = logTurn(7, 0.5, '15 March 2024 12:01 · User', 'The project plan covers the analytics features, the accessibility review and the final deployment.');
    const w2 = { ...w, thread: 0, brevity: 4, own: 0.7 };
    const score = (q: string, c: ScoredChunk) => new Fusion([short, long], [], w2, new Set(), classifyQuery(q, now)).rank(() => 0, now, 2).find((h) => h.lineStart === c.lineStart)!.score;
    expect(score('What is my deadline?', short)).toBeCloseTo(score('What is my deadline?', long), 6);
    expect(score('What is the deadline?', short)).toBeLessThan(score('What is the deadline?', long));
  });
});
