import { describe, expect, it } from 'vitest';
import { labelledAtRest, placeLabels, type LabelCandidate, type PlacedLabel } from '../../src/web/client/graph-labels.js';

const node = (i: number, links: number, missing = false) => ({ id: `notes/P${i}.md`, title: `P${i}`, category: 'Topics', links, ...(missing ? { missing } : {}) });

describe('graph labels at rest', () => {
  it('labels every page of a small graph, never a ghost', () => {
    const nodes = [node(1, 0), node(2, 3), node(3, 1, true)];
    expect([...labelledAtRest(nodes)].sort()).toEqual(['notes/P1.md', 'notes/P2.md']);
  });

  it('labels only the most linked pages of a big graph', () => {
    const nodes = Array.from({ length: 3000 }, (_, i) => node(i, i % 100 === 7 ? 500 + i : i % 5));
    const shown = labelledAtRest(nodes);
    expect(shown.size).toBe(16);
    // the hubs (links 507, 607, …) are the ones labelled
    for (const id of shown) expect(nodes.find((n) => n.id === id)?.links).toBeGreaterThan(500);
  });
});

const meets = (a: PlacedLabel, b: { left: number; top: number; w: number; h: number }) => a.left < b.left + b.w && b.left < a.left + a.w && a.top < b.top + b.h && b.top < a.top + a.h;

describe('placing labels so none overlaps', () => {
  const crowd = (n: number, seed = 3): LabelCandidate[] => {
    let a = seed;
    const rand = () => ((a = (a * 16807) % 2147483647) - 1) / 2147483646;
    return Array.from({ length: n }, (_, i) => ({ key: `k${i}`, x: rand() * 800, y: rand() * 600, r: 3 + rand() * 6, w: 40 + rand() * 120, h: 18 }));
  };

  it('places no two labels over each other, all inside the box, at 24 and at 1,000 candidates', () => {
    for (const n of [24, 1000]) {
      const placed = placeLabels(crowd(n), { width: 800, height: 600 });
      expect(placed.length).toBeGreaterThan(Math.min(n, 10) - 1);
      for (let i = 0; i < placed.length; i++) {
        const p = placed[i] as PlacedLabel;
        expect(p.left).toBeGreaterThanOrEqual(0);
        expect(p.top + p.h).toBeLessThanOrEqual(600);
        for (let j = i + 1; j < placed.length; j++) expect(meets(p, placed[j] as PlacedLabel)).toBe(false);
      }
      // a crowd of 1,000 cannot all be labelled
      if (n === 1000) expect(placed.length).toBeLessThan(n);
    }
  });

  it('gives room to the most wanted first, and tries the other side of a dot', () => {
    const two: LabelCandidate[] = [
      { key: 'hub', x: 100, y: 100, r: 5, w: 100, h: 18 },
      { key: 'edge', x: 380, y: 100, r: 5, w: 100, h: 18 },
      { key: 'over', x: 150, y: 100, r: 5, w: 100, h: 18 },
    ];
    const placed = placeLabels(two, { width: 400, height: 300 });
    expect(placed.map((p) => p.key)).toEqual(['hub', 'edge']);
    expect(placed[0]?.left).toBe(108); // right of the hub's dot
    expect(placed[1]?.left).toBe(272); // no room right of it inside the box: on its left
  });

  it('keeps labels off the other dots when asked, and honours a maximum', () => {
    const dots: LabelCandidate[] = [
      { key: 'a', x: 100, y: 100, r: 5, w: 80, h: 18 },
      { key: 'b', x: 140, y: 100, r: 8, w: 80, h: 18 },
    ];
    const placed = placeLabels(dots, { width: 400, height: 300 }, { avoidDots: true });
    const b = dots[1] as LabelCandidate;
    const a = placed.find((p) => p.key === 'a');
    expect(a && meets(a, { left: b.x - b.r, top: b.y - b.r, w: 2 * b.r, h: 2 * b.r })).toBe(false);
    expect(placeLabels(crowd(50), { width: 800, height: 600 }, { max: 5 })).toHaveLength(5);
  });
});
