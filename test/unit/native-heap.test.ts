/**
 * Giving freed native memory back (memory/index/native-heap.ts): the real malloc_trim through koffi gives
 * back what glibc kept after a burst of allocations was freed, and the asks of bulk work become
 * one trim, later, at most once per gap; where there is no binding nothing is asked of the system.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRequire } from 'node:module';
import { silentLogger } from '../../src/core/ports/index.js';
import { loadTrim, nativeHeap } from '../../src/memory/index/native-heap.js';

/** This process's anonymous resident memory (bytes), from /proc. */
const rssAnon = () => Number(/^RssAnon:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) * 1024;

afterEach(() => {
  vi.useRealTimers();
});

describe('native heap', () => {
  it.runIf(process.platform === 'linux')('gives back what glibc kept of a freed burst of small allocations (the real malloc_trim)', () => {
    const trim = loadTrim();
    expect(typeof trim).toBe('function');
    if (typeof trim !== 'function') return;
    // glibc's own malloc and free, so the holes are exactly those of the C heap (not V8's)
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const libc = koffi.load('libc.so.6');
    const malloc = libc.func('void *malloc(size_t size)') as (n: number) => unknown;
    const free = libc.func('void free(void *ptr)') as (p: unknown) => void;
    const memset = libc.func('void *memset(void *s, int c, size_t n)') as (p: unknown, c: number, n: number) => unknown;
    trim(0);
    // blocks of 16 KB: each call through koffi mallocs a little of its own, and between blocks of
    // 2 KB those bits left holes too small to give back (what glibc can give back is whole pages)
    const blocks = Array.from({ length: 2_048 }, () => {
      const p = malloc(16_384);
      memset(p, 1, 16_384); // touched: resident
      return p;
    });
    // every 64th block stays: the heap cannot shrink from its top, only trimming gives the rest back
    blocks.forEach((p, i) => i % 64 !== 63 && free(p));
    const kept = rssAnon();
    expect(trim(0)).toBe(1);
    const given = kept - rssAnon();
    // 2,048 × 16 KB = 32 MB allocated, 98 % of it freed in holes of 1 MB
    expect(given).toBeGreaterThan(16 * 2 ** 20);
    blocks.forEach((p, i) => i % 64 === 63 && free(p));
  });

  it('makes the asks of a burst of bulk work one trim, after the delay, and none sooner than the gap after the last', () => {
    vi.useFakeTimers();
    let now = 0;
    const calls: number[] = [];
    const heap = nativeHeap(silentLogger, { load: () => (pad) => (calls.push(pad), 1), delayMs: 2_000, minGapMs: 10_000, now: () => now });
    expect(heap.available()).toBe(true);
    heap.freed('a table read whole');
    heap.freed('a compaction');
    vi.advanceTimersByTime(1_999);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual([0]);
    now = 2_000;
    // asked again right after: waits for the gap since the last trim, not just the delay
    heap.freed('a table read whole');
    now += 2_000;
    vi.advanceTimersByTime(2_000);
    expect(calls).toHaveLength(1);
    now += 8_000;
    vi.advanceTimersByTime(8_000);
    expect(calls).toHaveLength(2);
    heap.freed('a compaction');
    heap.close();
    vi.advanceTimersByTime(60_000);
    expect(calls).toHaveLength(2);
  });

  it('asks nothing of the system where malloc_trim cannot be bound, and says why', () => {
    vi.useFakeTimers();
    let loads = 0;
    const heap = nativeHeap(silentLogger, { load: () => (loads++, 'no glibc on darwin') });
    heap.freed('a table read whole');
    vi.advanceTimersByTime(60_000);
    expect(heap.available()).toBe(false);
    expect(heap.unavailable()).toBe('no glibc on darwin');
    expect(heap.trimNow('a test')).toBe(false);
    // bound once, at the first ask (not at start-up)
    expect(loads).toBe(1);
  });

  it('binds nothing until it is first asked', () => {
    let loads = 0;
    nativeHeap(silentLogger, { load: () => (loads++, () => 0) });
    expect(loads).toBe(0);
  });
});
