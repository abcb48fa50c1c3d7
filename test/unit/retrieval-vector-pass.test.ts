import { describe, expect, it } from 'vitest';
import { VectorPass } from '../../src/memory/index/vector-pass.js';
import { mulberry32 } from '../../scripts/bench-util.js';

interface Row {
  page: string;
  lineStart: number;
  tag?: string;
}

const unit = (v: number[]): Float32Array => {
  const n = Math.hypot(...v);
  return Float32Array.from(v, (x) => x / n);
};

/** A brute-force reference: every row's dot product, sorted best first (ties to the earlier row). */
function reference(rows: { row: Row; vector: Float32Array }[], q: Float32Array, k: number): string[] {
  return rows
    .map(({ row, vector }, i) => ({ key: `${row.page}:${row.lineStart}`, i, score: vector.reduce((s, x, j) => s + x * q[j]!, 0) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, k)
    .map((r) => r.key);
}

describe('in-memory vector pass', () => {
  it('returns the nearest rows by dot product, best first, as a brute-force search does', () => {
    const random = mulberry32(7);
    const d = 13; // not a multiple of 4: the tail of the unrolled loop counts too
    const pass = new VectorPass<Row>(d, 1000);
    const rows = Array.from({ length: 300 }, (_, i) => ({ row: { page: `p${i % 17}.md`, lineStart: i }, vector: unit(Array.from({ length: d }, () => random() - 0.5)) }));
    for (const { row, vector } of rows) pass.put(row, vector);
    for (let t = 0; t < 5; t++) {
      const q = unit(Array.from({ length: d }, () => random() - 0.5));
      const got = pass.search(q, 10)!;
      expect(got.map((h) => `${h.value.page}:${h.value.lineStart}`)).toEqual(reference(rows, q, 10));
      for (let i = 1; i < got.length; i++) expect(got[i - 1]!.score).toBeGreaterThanOrEqual(got[i]!.score);
    }
  });

  it('some: looks at the rows of the pages named only, and answers as a look at every row does', () => {
    const pass = new VectorPass<Row>(2, 1000);
    for (let i = 0; i < 200; i++) pass.put({ page: i < 150 ? `notes/n${i}.md` : `log/2026-11-${(i % 28) + 1}.md`, lineStart: i, tag: i === 190 ? 'late' : 'plain' }, unit([1, i]));
    const late = (r: Row) => r.tag === 'late';
    const logs = (page: string) => page.startsWith('log/');
    expect(pass.some(late)).toBe(true);
    expect(pass.some(late, logs)).toBe(true);
    expect(pass.some(late, (page) => page.startsWith('notes/'))).toBe(false);
    let looked = 0;
    pass.some((r) => (looked++, r.page === 'never'), logs);
    expect(looked).toBe(50);
    pass.remove('log/2026-11-23.md');
    expect(pass.some(late, logs)).toBe(pass.some(late));
  });

  it('finds, replaces and removes the rows of a page of a few rows and of one of hundreds alike (as a map by page and line does)', () => {
    const random = mulberry32(11);
    const pass = new VectorPass<Row>(2, 10_000);
    const known = new Map<string, Row>();
    const key = (page: string, line: number) => `${page}:${line}`;
    const sizes: number[] = [];
    for (let step = 0; step < 4000; step++) {
      // one page grows past a short list and shrinks below it again; the others stay small
      const page = random() < 0.6 ? 'day.md' : `p${Math.floor(random() * 20)}.md`;
      const line = Math.floor(random() * (page === 'day.md' ? 120 : 4));
      if (random() < 0.97) {
        const row = { page, lineStart: line, tag: String(step) };
        pass.put(row, unit([random() + 0.1, random() + 0.1]));
        known.set(key(page, line), row);
      } else {
        const cut = (r: Row) => r.lineStart % 2 === line % 2;
        pass.remove(page, cut);
        for (const [k, r] of known) if (r.page === page && cut(r)) known.delete(k);
      }
      if (step % 200 === 0 || step === 3999) {
        expect(pass.size).toBe(known.size);
        sizes.push([...known.values()].filter((r) => r.page === 'day.md').length);
        for (const p of ['day.md', 'p3.md']) for (let l = 0; l < 120; l++) expect(pass.get(p, l)).toEqual(known.get(key(p, l)));
      }
    }
    // the large page was past a short list and back below it
    expect(Math.max(...sizes)).toBeGreaterThan(64);
    expect(sizes.some((n, i) => i > 0 && n < 32 && sizes[i - 1]! > 32)).toBe(true);
  });

  it('keeps in step with removals and replacements, and reuses freed slots', () => {
    const pass = new VectorPass<Row>(2, 10);
    pass.put({ page: 'a.md', lineStart: 1 }, unit([1, 0]));
    pass.put({ page: 'a.md', lineStart: 5 }, unit([1, 1]));
    pass.put({ page: 'b.md', lineStart: 1 }, unit([0, 1]));
    const east = unit([1, 0]);
    expect(pass.search(east, 1)![0]!.value).toEqual({ page: 'a.md', lineStart: 1 });
    pass.remove('a.md', (r) => r.lineStart === 1);
    expect(pass.size).toBe(2);
    expect(pass.get('a.md', 1)).toBeUndefined();
    expect(pass.search(east, 1)![0]!.value).toEqual({ page: 'a.md', lineStart: 5 });
    // the same page and line replaces the row (a replayed write has the same effect)
    pass.put({ page: 'b.md', lineStart: 1, tag: 'new' }, unit([1, 0]));
    pass.put({ page: 'b.md', lineStart: 1, tag: 'new' }, unit([1, 0]));
    expect(pass.size).toBe(2);
    expect(pass.search(east, 5)!.map((h) => h.value.tag ?? '-')).toEqual(['new', '-']);
    pass.remove('a.md');
    pass.put({ page: 'c.md', lineStart: 1 }, unit([-1, 0]));
    expect(pass.search(east, 5)!.map((h) => h.value.page)).toEqual(['b.md', 'c.md']);
  });

  it('searches only the rows a filter takes', () => {
    const pass = new VectorPass<Row>(2, 10);
    pass.put({ page: 'notes/x.md', lineStart: 1 }, unit([1, 0]));
    pass.put({ page: 'log/2024.md', lineStart: 1 }, unit([0.9, 0.1]));
    expect(pass.search(unit([1, 0]), 5, (r) => r.page.startsWith('log/'))!.map((h) => h.value.page)).toEqual(['log/2024.md']);
  });

  it('lets go of its vectors past its bound, but still finds rows by page and line', () => {
    const pass = new VectorPass<Row>(2, 3);
    for (let i = 0; i < 3; i++) pass.put({ page: 'a.md', lineStart: i }, unit([1, i]));
    expect(pass.searchable).toBe(true);
    pass.put({ page: 'a.md', lineStart: 3 }, unit([1, 3]));
    expect(pass.searchable).toBe(false);
    expect(pass.search(unit([1, 0]), 2)).toBeNull();
    expect(pass.get('a.md', 3)).toEqual({ page: 'a.md', lineStart: 3 });
    expect(pass.some((r) => r.lineStart === 3)).toBe(true);
    expect(pass.some((r) => r.page.startsWith('log/'))).toBe(false);
    // a row without a vector (a table read without them) also hands the search to LanceDB
    const bare = new VectorPass<Row>(2, 10);
    bare.put({ page: 'a.md', lineStart: 1 }, null);
    expect(bare.search(unit([1, 0]), 1)).toBeNull();
  });
});
