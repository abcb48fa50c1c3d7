/**
 * A hand edit costs what it touches (issue 44 §3): editing one page's body while Charlie runs
 * re-reads that page only, leaves `_index.md` and `review.md` unwritten when their text stands,
 * rewrites them when the edit changes them, finds them in step at the first edit after start (the
 * start brought them in step), and gives snapshots whose pages read as a full load
 * of the folder would, however many edits came before (the page cache swaps pages in without
 * copying its map of every page).
 */
import { mkdtemp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports/index.js';
import { PageCache } from '../../src/memory/graph/wiki-pages.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { FixedClock } from '../support/fakes.js';

const PAGES = 40;
const REVIEW =
  '- Works at Acme. [type:: identity] [about:: employer] [status:: review] [vs:: ^r-bbbbbb] [said:: 2026-10-01] [source:: manual] ^r-aaaaaa\n' +
  '- Works at Globex. [type:: identity] [about:: employer] [status:: review] [vs:: ^r-aaaaaa] [said:: 2026-11-04] [source:: manual] ^r-bbbbbb\n';

let root: string;
let notes: string;
const pagePath = (i: number) => `${i % 2 ? 'People' : 'Places'}/Page-${i}.md`;
const pageText = (i: number, body = 'Likes tea.', title = `Page ${i}`, updated = '2026-10-01T10:00:00Z') =>
  `---\nschema: 1\ntitle: ${title}\ncategory: ${i % 2 ? 'People' : 'Places'}\nupdated: ${updated}\n---\n\n${body}\n\n## Facts\n\n${i % 5 === 0 ? REVIEW : '- Likes tea. [source:: manual]\n'}\n## Related\n\n- [[${pagePath((i + 1) % PAGES).replace(/\.md$/, '')}]] knows\n`;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'charlie-hand-edit-'));
  notes = join(root, 'home', 'notes');
  for (let i = 0; i < PAGES; i++) {
    await mkdir(join(notes, pagePath(i), '..'), { recursive: true });
    await writeFile(join(notes, pagePath(i)), pageText(i));
  }
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const fileId = async (path: string) => {
  const s = await stat(path);
  return `${s.ino}:${s.mtimeMs}:${s.size}`;
};

describe('a hand edit of one page', () => {
  it('leaves _index.md and review.md unwritten when their text stands, and rewrites them when it does not', async () => {
    const wiki = new Wiki({ projectsDir: root, clock: new FixedClock(new Date('2026-12-01T10:00:00Z')), logger: silentLogger });
    wiki.watching(true);
    await wiki.primeAll();
    await wiki.reconcile('home', []);
    const index = join(notes, '_index.md');
    const review = join(root, 'home', 'review.md');
    const [indexBefore, reviewBefore] = [await fileId(index), await fileId(review)];
    // the body of a page in review: neither its index line nor its pairs change
    await writeFile(join(notes, pagePath(5)), pageText(5, 'Likes tea. Plans a trip to Skye.'));
    expect(wiki.filesChanged('home', [`notes/${pagePath(5)}`], false)).toBe(true);
    await wiki.reconcile('home', [pagePath(5)]);
    expect(await fileId(index)).toBe(indexBefore);
    expect(await fileId(review)).toBe(reviewBefore);
    // its title: the index line changes (the pages keep their names otherwise)
    await writeFile(join(notes, pagePath(5)), pageText(5, 'Likes tea.', 'Page Five'));
    wiki.filesChanged('home', [`notes/${pagePath(5)}`], false);
    await wiki.reconcile('home', [pagePath(5)]);
    expect(await readFile(index, 'utf8')).toContain('Page Five');
    expect(await readFile(review, 'utf8')).toContain('**Page Five**');
    // a generated file changed by hand is put back at the next reconcile, even when the render stands
    await writeFile(index, 'scribbled over\n');
    await writeFile(join(notes, pagePath(7)), pageText(7, 'Likes coffee.'));
    wiki.filesChanged('home', [`notes/${pagePath(7)}`], false);
    await wiki.reconcile('home', [pagePath(7)]);
    expect(await readFile(index, 'utf8')).toContain('Page Five');
  });

  it('finds the generated files in step at the first edit after start: primeAll wrote them', async () => {
    const wiki = new Wiki({ projectsDir: root, clock: new FixedClock(new Date('2026-12-01T10:00:00Z')), logger: silentLogger });
    await wiki.primeAll();
    wiki.watching(true);
    const index = join(notes, '_index.md');
    const review = join(root, 'home', 'review.md');
    expect(await readFile(index, 'utf8')).toContain('[[People/Page-1]]');
    const [indexBefore, reviewBefore] = [await fileId(index), await fileId(review)];
    await writeFile(join(notes, pagePath(5)), pageText(5, 'Likes tea. Plans a trip to Skye.'));
    wiki.filesChanged('home', [`notes/${pagePath(5)}`], false);
    await wiki.reconcile('home', [pagePath(5)]);
    expect(await fileId(index)).toBe(indexBefore);
    expect(await fileId(review)).toBe(reviewBefore);
    // a project with no page gets no generated file at start
    await mkdir(join(root, 'empty'), { recursive: true });
    await new Wiki({ projectsDir: root, clock: new FixedClock(new Date('2026-12-01T10:00:00Z')), logger: silentLogger }).primeAll();
    await expect(stat(join(root, 'empty', 'notes', '_index.md'))).rejects.toThrow();
    await expect(stat(join(root, 'empty', 'review.md'))).rejects.toThrow();
  });

  it('gives snapshots that read as a full load after many edits, each naming the pages read again', async () => {
    const cache = new PageCache(notes, 'home/notes/', true);
    let last = await cache.load();
    for (let step = 0; step < 300; step++) {
      const i = (step * 7) % PAGES;
      await writeFile(join(notes, pagePath(i)), pageText(i, `Edit ${step}.`, `Page ${i}`, new Date(Date.UTC(2026, 0, 1) + step * 86_400_000).toISOString()));
      cache.changed(pagePath(i));
      const snap = await cache.load();
      expect(snap.patch).toEqual({ of: last.serial, paths: [pagePath(i)] });
      expect(snap.target).toBe(last.target);
      last = snap;
    }
    const fresh = await new PageCache(notes, 'home/notes/', false).load();
    expect([...last.pages.keys()]).toEqual([...fresh.pages.keys()]);
    expect([...last.pages.values()].map((p) => p.updated)).toEqual([...fresh.pages.values()].map((p) => p.updated));
    expect(new Set([...last.pages.values()].map((p) => p.updated)).size).toBeGreaterThan(PAGES / 2);
    expect([...last.pages].map(([k, p]) => [k, p.path])).toEqual([...fresh.pages].map(([k, p]) => [k, p.path]));
    expect(last.pages.get(pagePath(6))?.path).toBe(pagePath(6));
  });
});
