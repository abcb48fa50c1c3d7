import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS, Fusion, recencyOf, type RecallWeights } from '../../src/memory/index/fusion.js';
import type { ScoredChunk } from '../../src/memory/index/project-table.js';

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
  hash: page,
  embedder: 'test:2',
  score,
  ...extra,
});
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
    expect(f.rank(() => 0, now, 10).map((h) => [h.page, h.why.includes('entity')])).toEqual([['a', true], ['b', false]]);
  });

  it('fades recency with staleness', () => {
    expect(recencyOf('2026-11-01T00:00:00Z', 0, now)).toBe(1);
    expect(recencyOf('2026-11-28T00:00:00Z', 10, now)).toBeCloseTo(0.5, 6);
    expect(recencyOf('2026-11-01T00:00:00Z', 5, now)).toBeGreaterThan(recencyOf('2026-11-01T00:00:00Z', 8, now));
  });
});
