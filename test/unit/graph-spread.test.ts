/**
 * The big graph's layout does not clump round its hubs: spreadEvenly gives every dot the distance
 * of its rank (same direction), so the middle fifth of the disc holds about a fifth of the dots.
 * (graph-layout.ts applies it above 300 pages; the browser test lays out 1,000.)
 */
import { describe, expect, it } from 'vitest';
import { spreadEvenly } from '../../src/web/client/graph-spread.js';

/** Share of the dots within the disc of a fifth of the outermost dot's area, round their centre. */
function middleShare(pos: Float32Array): number {
  // measured apart from the code under test: split the axes, mean each, distance to the mean
  const xs = Array.from(pos.filter((_, i) => i % 2 === 0));
  const ys = Array.from(pos.filter((_, i) => i % 2 === 1));
  const mean = (v: number[]) => v.reduce((sum, x) => sum + x, 0) / v.length;
  const [cx, cy] = [mean(xs), mean(ys)];
  const r = xs.map((x, i) => Math.hypot(x - cx, (ys[i] ?? 0) - cy));
  const outer = Math.max(...r);
  return r.filter((d) => d <= outer * Math.sqrt(0.2)).length / r.length;
}

describe('the big graph spread evenly', () => {
  it('moves a clump in the middle out over the disc, keeping each dot’s direction and the outer edge', () => {
    const n = 500;
    const pos = new Float32Array(2 * n);
    for (let i = 0; i < n; i++) {
      const angle = i * 2.399963; // golden angle: directions all round
      const d = i < 450 ? 0.05 + (i / 450) * 0.1 : 0.5 + ((i - 450) / 50) * 0.5; // 90 % within a tenth of the edge
      pos[2 * i] = 3 + Math.cos(angle) * d;
      pos[2 * i + 1] = -2 + Math.sin(angle) * d;
    }
    const before = Float32Array.from(pos);
    expect(middleShare(before)).toBeGreaterThan(0.8);
    spreadEvenly(pos);
    expect(middleShare(pos)).toBeGreaterThan(0.15);
    expect(middleShare(pos)).toBeLessThan(0.25);
    let cx = 0;
    let cy = 0;
    for (let i = 0; i < n; i++) {
      cx += (before[2 * i] ?? 0) / n;
      cy += (before[2 * i + 1] ?? 0) / n;
    }
    for (const i of [0, 7, 200, 449, 499]) {
      const a = Math.atan2((before[2 * i + 1] ?? 0) - cy, (before[2 * i] ?? 0) - cx);
      const b = Math.atan2((pos[2 * i + 1] ?? 0) - cy, (pos[2 * i] ?? 0) - cx);
      expect(Math.abs(Math.sin(a - b))).toBeLessThan(1e-3);
    }
  });
});
