import { describe, expect, it } from 'vitest';
import { memoryBudget } from '../../src/memory/index/memory-budget.js';
import { ResidentSet, type Resident } from '../../src/memory/index/resident-set.js';

/** A project's search data as the set sees it: its bytes, and whether it was let go. */
function project(bytes: number): Resident & { released: number } {
  const p = {
    released: 0,
    loaded: true,
    bytes: () => (p.loaded ? bytes : 0),
    release: () => {
      p.loaded = false;
      p.released++;
    },
  };
  return p;
}

describe('ResidentSet', () => {
  it('lets go of the least recently used projects past the budget, never the one just used', () => {
    let changes = 0;
    const set = new ResidentSet(
      100,
      60_000,
      () => 0,
      () => changes++,
    );
    const a = project(40);
    const b = project(40);
    const c = project(40);
    expect(set.touch('a', a)).toEqual([]);
    expect(set.touch('b', b)).toEqual([]);
    set.touch('a', a); // a is used again: b is now the least recent
    expect(set.touch('c', c)).toEqual(['b']);
    expect(b.released).toBe(1);
    expect(set.list().map((r) => r.project)).toEqual(['c', 'a']);
    expect(changes).toBe(3); // a, b and c came (b went with c): a touch of a known project changes nothing
    // one project alone over the budget stays while it is the one in use
    const huge = project(500);
    expect(set.touch('huge', huge)).toEqual(['a', 'c']);
    expect(huge.released).toBe(0);
    expect(set.list().map((r) => r.project)).toEqual(['huge']);
  });

  it('lets go of projects not used for the idle time', () => {
    let now = 0;
    const set = new ResidentSet(1000, 10_000, () => now);
    const a = project(10);
    const b = project(10);
    set.touch('a', a);
    now = 6000;
    set.touch('b', b);
    now = 12_000;
    expect(set.sweep()).toEqual(['a']);
    expect(a.released).toBe(1);
    expect(b.released).toBe(0);
    now = 17_000;
    expect(set.sweep()).toEqual(['b']);
    expect(set.list()).toEqual([]);
  });
});

describe('memoryBudget', () => {
  it('shares the budget out and keeps every share within it', () => {
    for (const mb of [32, 192, 1024, 8192]) {
      const b = memoryBudget(mb);
      expect(b.bytes).toBe(mb * 1024 * 1024);
      expect(b.indexCacheBytes + b.metadataCacheBytes + b.residentBytes).toBe(b.bytes);
      expect(b.vectorBytes).toBeLessThan(b.residentBytes);
      expect(b.residentBytes).toBeGreaterThan(b.bytes * 0.4);
    }
  });
});
