import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteUsageStore, openUsageStore } from '../../src/storage/usage-store.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { note, retrievalFixture } from '../support/retrieval-fixture.js';
import { tempDirs } from '../support/temp-dir.js';

const DAY = 86_400_000;
const newDir = tempDirs('charlie-usage-');
const tempDb = (): string => join(newDir(), 'data', 'usage.sqlite');

describe('SqliteUsageStore', () => {
  it('grows with meaningful use, stays in [0, 1], and fades when untouched', () => {
    const store = new SqliteUsageStore(tempDb(), { halfLifeDays: 30 });
    const t0 = new Date('2026-11-01T00:00:00Z');
    expect(store.boost('p', 'notes/A.md', t0)).toBe(0);
    store.record('p', 'notes/A.md', 'view', t0);
    const once = store.boost('p', 'notes/A.md', t0);
    store.record('p', 'notes/A.md', 'suggestion_accepted', t0);
    store.record('p', 'notes/A.md', 'tag', t0);
    const more = store.boost('p', 'notes/A.md', t0);
    expect(once).toBeGreaterThan(0);
    expect(more).toBeGreaterThan(once);
    for (let i = 0; i < 100; i++) store.record('p', 'notes/A.md', 'view', t0);
    expect(store.boost('p', 'notes/A.md', t0)).toBeLessThanOrEqual(1);
    const later = new Date(t0.getTime() + 30 * DAY);
    const muchLater = new Date(t0.getTime() + 365 * DAY);
    expect(store.boost('p', 'notes/A.md', later)).toBeLessThan(store.boost('p', 'notes/A.md', t0));
    expect(store.boost('p', 'notes/A.md', muchLater)).toBeLessThan(0.05);
    // a retrieval alone counts for less than a view
    store.record('p', 'notes/B.md', 'retrieved', t0);
    store.record('p', 'notes/C.md', 'view', t0);
    expect(store.boost('p', 'notes/B.md', t0)).toBeLessThan(store.boost('p', 'notes/C.md', t0));
    // per project
    expect(store.boost('other', 'notes/A.md', t0)).toBe(0);
    expect(store.history('p', 'notes/C.md')).toEqual([{ kind: 'view', at: t0 }]);
    // a search's candidates read at once: the same boosts, none for a page never used or of another project
    store.record('p', 'notes/O\'Brien "Jo".md', 'view', t0);
    store.record('other', 'notes/D.md', 'view', t0);
    const pages = ['notes/A.md', 'notes/B.md', 'notes/C.md', 'notes/O\'Brien "Jo".md', 'notes/D.md', 'notes/never.md'];
    const all = store.boosts('p', pages, later);
    expect([...all.keys()].sort()).toEqual(pages.slice(0, 4).sort());
    for (const page of pages.slice(0, 4)) expect(all.get(page)).toBe(store.boost('p', page, later));
    expect(all.get('notes/O\'Brien "Jo".md')).toBeGreaterThan(0);
    expect(store.boosts('p', [], t0).size).toBe(0);
    store.close();
  });

  it('persists across reopening', () => {
    const path = tempDb();
    const a = new SqliteUsageStore(path);
    const t = new Date('2026-11-01T00:00:00Z');
    a.record('p', 'notes/A.md', 'view', t);
    a.close();
    const b = new SqliteUsageStore(path);
    expect(b.boost('p', 'notes/A.md', t)).toBeGreaterThan(0);
    b.close();
  });

  it('starts afresh from a corrupt database file instead of failing', () => {
    const path = tempDb();
    new SqliteUsageStore(path).close();
    writeFileSync(path, 'this is not a sqlite database, just garbage bytes '.repeat(200));
    const warnings: string[] = [];
    const store = openUsageStore(path, { ...silentLogger, warn: (_o: object | string, m?: string) => void warnings.push(m ?? '') });
    store.record('p', 'notes/A.md', 'view');
    expect(store.boost('p', 'notes/A.md')).toBeGreaterThan(0);
    expect(warnings.join(' ')).toMatch(/usage/);
    store.close();
  });
});

describe('usage in recall', () => {
  it('raises a used note above an equally relevant one, and the lift fades', async () => {
    const fx = retrievalFixture();
    try {
      fx.write('p', 'notes/Trips/Rome.md', note('Rome trip', 'We planned a trip with museums and pasta.'));
      fx.write('p', 'notes/Trips/Paris.md', note('Paris trip', 'We planned a trip with museums and pasta.'));
      const s = fx.open(undefined, { recency: 0 });
      const before = await s.recall.recall('trip with museums and pasta', { project: 'p' });
      const loser = before[before.length - 1]!.page;
      const now = new Date();
      for (let i = 0; i < 3; i++) fx.usage.record('p', loser, 'view', now);
      const after = await s.recall.recall('trip with museums and pasta', { project: 'p' });
      expect(after[0]!.page).toBe(loser);
      expect(after[0]!.parts.usage).toBeGreaterThan(0.3);
      expect(after[0]!.why).toContain('usage');
      expect(fx.usage.boost('p', loser, new Date(now.getTime() + 400 * DAY))).toBeLessThan(after[0]!.parts.usage / 10);
    } finally {
      await fx.cleanup();
    }
  });
});
