import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ownString } from '../../src/util/own-string.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap growth while keeping one short cut of each of `n` large page texts, the texts themselves dropped. */
function retainedBy(cut: (page: string) => string, n = 16): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept: string[] = [];
  for (let i = 0; i < n; i++) {
    // a fresh 1 MB "page" each time (not a constant V8 could share between iterations)
    const page = `# page ${i}\n\n${`message ${i} `.repeat(80_000)}`;
    kept.push(cut(page.slice(100, 400)));
  }
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  expect(kept.every((s) => s.length === 300)).toBe(true);
  return grown;
}

describe('ownString', () => {
  it('keeps the text and not the page it was cut from', () => {
    const page = `# 2026-12-02\n\n### 05:21 · root\n\nwhat about the flight?\n`;
    expect(ownString(page.slice(14, 40))).toBe(page.slice(14, 40));
    expect(ownString('short')).toBe('short');
    expect(ownString('héllo wörld — ünïcode ✓ 😀')).toBe('héllo wörld — ünïcode ✓ 😀');
  });

  it('lets the page go: 16 cuts of 1 MB pages cost kilobytes, not the pages', () => {
    const sliced = retainedBy((s) => s);
    const owned = retainedBy(ownString);
    // a plain slice pins its page (V8's sliced strings), which is what the check must catch
    expect(sliced).toBeGreaterThan(8 * 1024 * 1024);
    expect(owned).toBeLessThan(1024 * 1024);
  });
});
