/**
 * `npm run bench:edit [-- --pages 10000]`: what a hand edit of one page costs
 * in rendering `_index.md` and `review.md`: a full render of every page (how it was done before)
 * against the page-by-page render (src/memory/graph/generated-render.ts) after one page changed.
 * One in twenty pages has a pair of records in review. Prints medians of 15.
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { GeneratedRender } from '../src/memory/graph/generated-render.js';
import { readPage, type WikiPage } from '../src/memory/graph/page.js';
import { renderIndex } from '../src/memory/notes/note-index.js';
import { renderReview, reviewPairs } from '../src/memory/records/review.js';
import { mulberry32, percentile } from './bench-util.js';

const { values: args } = parseArgs({ options: { pages: { type: 'string', default: '10000' } } });
const count = Number(args.pages);
const CATEGORIES = ['People', 'Places', 'Things', 'Events', 'Projects/Garden', 'Projects/House', 'Food', 'Health'];
const REVIEW =
  '- Works at Acme. [type:: identity] [about:: employer] [status:: review] [vs:: ^r-bbbbbb] [said:: 2026-10-01] [source:: manual] ^r-aaaaaa\n' +
  '- Works at Globex. [type:: identity] [about:: employer] [status:: review] [vs:: ^r-aaaaaa] [said:: 2026-11-04] [source:: manual] ^r-bbbbbb\n';

function page(path: string, i: number): WikiPage {
  const text = `---\ntitle: Page ${i}\ntags: [family, garden]\nupdated: 2026-11-01T00:00:00Z\n---\n\n## Facts\n\n- Likes tea. [source:: manual]\n${i % 20 === 0 ? REVIEW : ''}`;
  const read = readPage(text, path, path);
  if (!read.ok) throw new Error(read.problem.message);
  return read.page;
}

const paths = Array.from({ length: count }, (_, i) => `${CATEGORIES[i % CATEGORIES.length]!}/Page-${i}.md`).sort();
const pages = new Map(paths.map((p, i) => [p, page(p, i)]));
const rand = mulberry32(1);
const time = (fn: () => void) => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};
const median = (fn: () => number) => percentile(Array.from({ length: 15 }, fn), 50);

const full = median(() =>
  time(() => {
    renderIndex(
      [...pages.values()].map((p) => ({ path: p.path, title: p.title, tags: p.tags, updated: p.updated })),
      [],
    );
    renderReview(reviewPairs(pages.values()));
  }),
);
const render = new GeneratedRender();
const first = time(() => render.render(pages, []));
const edit = median(() => {
  const i = Math.floor(rand() * paths.length);
  pages.set(paths[i]!, page(paths[i]!, i)); // the page read again after a hand edit: a new object
  return time(() => render.render(pages, []));
});
console.log(`${count} pages: full render ${full.toFixed(1)} ms; page by page: first render ${first.toFixed(1)} ms, after a hand edit of one page ${edit.toFixed(1)} ms (medians of 15)`);
