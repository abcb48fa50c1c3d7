import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS, Fusion } from '../../src/memory/index/fusion.js';
import { passageRecords } from '../../src/memory/index/passage-facts.js';
import type { ScoredChunk } from '../../src/memory/index/project-table.js';
import { renderFact, setField } from '../../src/memory/markdown/lines.js';
import { decay } from '../../src/core/records/decay.js';

const now = new Date('2026-11-30T12:00:00Z');
const base = { confidence: 1, said: '2026-11-30', due: '', happened: '' };
const PAGE = 'People/Sarah-Chen.md';

const chunk = (text: string, page = `notes/${PAGE}`): ScoredChunk => ({
  page,
  heading: 'Sarah Chen › Facts',
  lineStart: 10,
  lineEnd: 10,
  text,
  context: '',
  entity: 'Sarah Chen',
  updated: '2026-11-01T00:00:00.000Z',
  staleness: 0,
  hash: text,
  embedder: 'test:2',
  sensitivity: 'personal',
  score: 0.8,
});
const fact = (text: string, extra: Partial<Parameters<typeof renderFact>[1]> = {}) => renderFact(PAGE, { text, said: '2026-11-30', source: 'https://discord.com/channels/1/2/3', ...extra });

describe('decay by category, computed on read', () => {
  it('halves an identity in two years and a preference in half a year', () => {
    expect(decay({ ...base, category: 'identity', said: '2024-11-30' }, now).effective).toBeCloseTo(0.5, 2);
    expect(decay({ ...base, category: 'preference', said: '2026-06-03' }, now).effective).toBeCloseTo(0.5, 2);
    expect(decay({ ...base, category: 'preference', confidence: 0.8, said: '2026-11-30' }, now).effective).toBeCloseTo(0.8, 2);
    expect(decay({ ...base, category: 'preference', said: '2025-06-03' }, now)).toMatchObject({ state: 'fading' });
  });
  it('expires a commitment after its due day, not on it', () => {
    expect(decay({ ...base, category: 'commitment', due: '2026-11-30', said: '2026-01-01' }, now)).toEqual({ effective: 1, state: 'fresh' });
    expect(decay({ ...base, category: 'commitment', due: '2026-11-29' }, now)).toEqual({ effective: 0.1, state: 'expired' });
  });
  it('lets an episode settle into old without fading, counted from when it happened', () => {
    expect(decay({ ...base, category: 'episode', happened: '2025-01-01', said: '2026-11-30' }, now)).toEqual({ effective: 1, state: 'old' });
    expect(decay({ ...base, category: 'episode', happened: '2026-11-01', said: '2026-11-30' }, now)).toEqual({ effective: 1, state: 'fresh' });
  });
  it('leaves a record without a category alone', () => {
    expect(decay({ ...base, category: '', said: '2000-01-01', confidence: 0.6 }, now).effective).toBe(0.6);
  });
});

describe('records in ranking', () => {
  it('multiplies the score by effective confidence and shows it on the hit', () => {
    const fresh = chunk(fact('Prefers async updates.', { type: 'preference', confidence: 0.9 }));
    const stale = { ...chunk(fact('Prefers calls.', { type: 'preference', said: '2025-11-30' }), `notes/People/Other.md`), hash: 'b' };
    const hits = new Fusion([fresh, stale], [], { ...DEFAULT_WEIGHTS, recency: 0 }).rank(() => 0, now, 10);
    // said at the start of the day, read at noon
    const kept = 0.9 * Math.pow(0.5, 0.5 / 180);
    const faded = Math.pow(0.5, 365.5 / 180);
    expect(hits.map((h) => h.page)).toEqual([`notes/${PAGE}`, 'notes/People/Other.md']);
    expect(hits[0]!.confidence).toBeCloseTo(kept, 6);
    expect(hits[1]!.confidence).toBeCloseTo(faded, 6);
    expect(hits[0]!.score / hits[1]!.score).toBeCloseTo(kept / faded, 6);
  });
  it('ranks a commitment due yesterday far below one still open, and says it expired', () => {
    const open = chunk(fact('Will send the mock-ups.', { type: 'commitment', due: '2026-12-04' }));
    const late = { ...chunk(fact('Will send the budget.', { type: 'commitment', due: '2026-11-29' })), page: 'notes/People/Other.md' };
    const hits = new Fusion([late, open], [], DEFAULT_WEIGHTS).rank(() => 0, now, 10);
    expect(hits.map((h) => h.page)).toEqual([`notes/${PAGE}`, 'notes/People/Other.md']);
    expect(hits[1]!.why).toContain('expired');
    expect(hits[1]!.score).toBeLessThan(hits[0]!.score * 0.2);
  });
  it('cuts held and superseded records out of a passage, and drops a passage left empty', () => {
    const acme = fact('Works at Acme.', { type: 'identity' });
    const globex = fact('Works at Globex.', { type: 'identity' });
    const view = passageRecords(chunk([setField(acme, 'status', 'superseded'), globex].join('\n')), now);
    expect(view.text).toBe(globex);
    expect(passageRecords(chunk(setField(acme, 'status', 'held')), now).text).toBe('');
    const hits = new Fusion([chunk(setField(acme, 'status', 'held'))], [], DEFAULT_WEIGHTS).rank(() => 0, now, 10);
    expect(hits).toEqual([]);
    expect(passageRecords(chunk(setField(acme, 'status', 'review')), now).flags).toEqual(['review']);
  });
  it('leaves log messages and prose untouched', () => {
    const prose = chunk('Leads design; prefers async updates.');
    expect(passageRecords(prose, now)).toEqual({ text: prose.text, flags: [] });
    const log = chunk('- Sarah: [type:: identity] hm', 'log/2026-11-29.md');
    expect(passageRecords(log, now).confidence).toBeUndefined();
  });
});
