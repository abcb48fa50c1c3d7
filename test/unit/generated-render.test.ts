/**
 * `_index.md` and `review.md` kept up to date page by page (src/memory/graph/generated-render.ts)
 * read exactly as a full render of the same pages, after any sequence of edits: pages added,
 * removed, retitled, retagged, put into review and out of it, categories appearing and emptying.
 */
import { describe, expect, it } from 'vitest';
import { renderIndex } from '../../src/memory/notes/note-index.js';
import { GeneratedRender } from '../../src/memory/graph/generated-render.js';
import { readPage, type WikiPage } from '../../src/memory/graph/page.js';
import { renderReview, reviewPairs } from '../../src/memory/records/review.js';
import type { FileProblem } from '../../src/core/ports/index.js';
import { mulberry32 } from '../../scripts/bench-util.js';

const FOLDERS = ['', 'People', 'Places', 'Projects/Garden', 'people', 'Éléments'];
const WORDS = ['Alder', 'birch', 'Cedar', 'ämber', 'Zed', 'zed', 'Oak-2', 'oak-10', 'Ash'];

function pageText(rand: () => number, title: string): string {
  const tags = WORDS.filter(() => rand() < 0.2).map((w) => w.toLowerCase());
  const updated = rand() < 0.7 ? `updated: 2026-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-0${1 + Math.floor(rand() * 9)}T10:00:00Z\n` : '';
  const review =
    rand() < 0.2
      ? '- Works at Acme. [type:: identity] [about:: employer] [status:: review] [vs:: ^r-bbbbbb] [said:: 2026-10-01] [source:: manual] ^r-aaaaaa\n' +
        '- Works at Globex. [type:: identity] [about:: employer] [status:: review] [vs:: ^r-aaaaaa] [said:: 2026-11-04] [source:: manual] ^r-bbbbbb\n'
      : '';
  return `---\ntitle: ${title}\ntags: [${tags.join(', ')}]\n${updated}---\n\n## Facts\n\n- Likes tea. [source:: manual]\n${review}`;
}

function read(path: string, text: string): WikiPage {
  const r = readPage(text, path, path);
  if (!r.ok) throw new Error(r.problem.message);
  return r.page;
}

const full = (pages: Map<string, WikiPage>, problems: FileProblem[]) => ({
  index: renderIndex(
    [...pages.values()].map((p) => ({ path: p.path, title: p.title, tags: p.tags, updated: p.updated })),
    problems,
  ),
  review: renderReview(reviewPairs(pages.values())),
});

describe('the index and review kept up to date page by page', () => {
  it.each([1, 2, 3, 4, 5])('equal a full render after random edits (seed %i)', (seed) => {
    const rand = mulberry32(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    let pages = new Map<string, WikiPage>();
    const newPath = () => {
      const folder = pick(FOLDERS);
      return `${folder ? `${folder}/` : ''}${pick(WORDS)}-${Math.floor(rand() * 40)}.md`;
    };
    for (let i = 0; i < 60; i++) {
      const path = newPath();
      pages.set(path, read(path, pageText(rand, pick(WORDS))));
    }
    const render = new GeneratedRender();
    let problems: FileProblem[] = [];
    let last = { index: '', review: '' };
    // the page cache's numbering: an edit of pages already there is a patch of the last snapshot (the rest is a new one)
    let serial = 0;
    for (let step = 0; step < 150; step++) {
      const paths = [...pages.keys()];
      const r = rand();
      let snapshot: { serial: number; patch?: { of: number; paths: string[] } } = { serial: serial + 1 };
      if (r < 0.3 && paths.length) {
        const edited = [pick(paths), pick(paths)].slice(0, rand() < 0.5 ? 1 : 2);
        pages = new Map(pages);
        for (const path of edited) pages.set(path, read(path, pageText(rand, `${pick(WORDS)} | ${step}`))); // edited: a new object
        snapshot = { serial: serial + 1, patch: { of: serial, paths: edited } };
      } else if (r < 0.5) {
        const path = newPath();
        pages.set(path, read(path, pageText(rand, pick(WORDS))));
      } else if (r < 0.7 && paths.length) {
        pages.delete(pick(paths));
      } else if (r < 0.75) {
        // the page cache's full rebuild: same objects, keys in code-unit order
        pages = new Map([...pages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      } else if (r < 0.8) {
        problems = rand() < 0.5 ? [] : [{ path: newPath(), line: 2, message: 'front matter does not parse' }];
      } else if (r < 0.81) {
        // no page read again: the same snapshot, or one that says it is a patch of it with nothing in it
        snapshot = rand() < 0.5 ? { serial } : { serial: serial + 1, patch: { of: serial, paths: [] } };
      } else if (r < 0.83) {
        // a whole folder goes
        const folder = pick(FOLDERS);
        for (const p of paths) if (p.startsWith(`${folder}/`)) pages.delete(p);
      } // else: nothing changed
      const before = { index: last.index, review: last.review, versions: [render.indexVersion, render.reviewVersion] };
      last = render.render(pages, problems, rand() < 0.9 ? snapshot : undefined);
      serial++;
      expect(last).toEqual({ ...full(pages, problems), inReview: reviewPairs(pages.values()).length > 0 });
      // a version changes exactly when its text does (generated.ts writes nothing while it stands)
      expect(render.indexVersion !== before.versions[0]).toBe(last.index !== before.index);
      expect(render.reviewVersion !== before.versions[1]).toBe(last.review !== before.review);
    }
    expect(pages.size).toBeGreaterThan(0);
  });

  it('re-renders only what changed: an unchanged snapshot gives the same text objects', () => {
    const pages = new Map([['People/A.md', read('People/A.md', pageText(mulberry32(9), 'A'))]]);
    const render = new GeneratedRender();
    const first = render.render(pages, []);
    expect(render.render(pages, [])).toEqual(first);
    pages.set('People/A.md', read('People/A.md', pageText(mulberry32(9), 'B')));
    expect(render.render(pages, []).index).toContain('— B');
  });

  it("an edit of a page's body leaves the index text and its version as they were", () => {
    const text = (body: string) => `---\ntitle: A\ntags: [tea]\n---\n\n${body}\n`;
    const pages = new Map([
      ['People/A.md', read('People/A.md', text('Likes tea.'))],
      ['People/B.md', read('People/B.md', pageText(mulberry32(3), 'B'))],
    ]);
    const render = new GeneratedRender();
    const first = render.render(pages, []);
    const versions = [render.indexVersion, render.reviewVersion];
    pages.set('People/A.md', read('People/A.md', text('Likes tea. Plans a trip.')));
    expect(render.render(pages, [])).toEqual(first);
    expect([render.indexVersion, render.reviewVersion]).toEqual(versions);
    pages.set('People/A.md', read('People/A.md', text('Likes tea.').replace('[tea]', '[tea, trips]')));
    expect(render.render(pages, []).index).toContain('trips');
    expect(render.indexVersion).not.toBe(versions[0]);
    expect(render.reviewVersion).toBe(versions[1]);
  });

  it('looks at the pages a patched snapshot names, and at no other page (a scripted map counts)', () => {
    const pair =
      '- Works at Acme. [type:: identity] [about:: employer] [status:: review] [vs:: ^r-bbbbbb] [said:: 2026-10-01] [source:: manual] ^r-aaaaaa\n' +
      '- Works at Globex. [type:: identity] [about:: employer] [status:: review] [vs:: ^r-aaaaaa] [said:: 2026-11-04] [source:: manual] ^r-bbbbbb\n';
    const text = (i: number, body: string) => `---\ntitle: P${i}\ntags: [tea]\n---\n\n${body}\n\n## Facts\n\n- Likes tea. [source:: manual]\n${i % 10 === 7 ? pair : ''}`;
    const paths = Array.from({ length: 200 }, (_, i) => `${i % 2 ? 'People' : 'Places'}/Page-${i}.md`);
    const pages = new Map(paths.map((p, i) => [p, read(p, text(i, 'Likes tea.'))]));
    const render = new GeneratedRender();
    render.render(pages, [], { serial: 1 });
    // the page cache's patch: one page in review read again (its body: same line, same pairs)
    const edited = paths[7]!;
    pages.set(edited, read(edited, text(7, 'Likes tea. Plans a trip.')));
    const looked: string[] = [];
    let passes = 0;
    const counted: ReadonlyMap<string, WikiPage> = {
      get size() {
        return pages.size;
      },
      get: (k: string) => (looked.push(k), pages.get(k)),
      has: (k: string) => pages.has(k),
      forEach: () => {
        throw new Error('not expected');
      },
      keys: () => (passes++, pages.keys()),
      values: () => (passes++, pages.values()),
      entries: () => (passes++, pages.entries()),
      [Symbol.iterator]: () => (passes++, pages.entries()),
    };
    const out = render.render(counted, [], { serial: 2, patch: { of: 1, paths: [edited] } });
    expect(looked).toEqual([edited]);
    expect(passes).toBe(0);
    expect(out).toEqual({ ...full(pages, []), inReview: reviewPairs(pages.values()).length > 0 });
  });
});
