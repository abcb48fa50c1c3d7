/**
 * `_index.md` and `review.md` kept up to date page by page: a hand edit of one page of 10,000
 * re-renders that page's line (and its category's block when a page came or went) instead of
 * sorting and rendering every page. The text is exactly what `renderIndex` and `renderReview`
 * give for the same snapshot (test/unit/generated-render.test.ts checks it after random edits).
 *
 * Pages are told apart by identity: the page cache hands out the same WikiPage object until the
 * file is read again, so one pass of identity checks over the snapshot finds what changed.
 */
import type { FileProblem } from '../../core/ports/index.js';
import { categoryBlock, categoryOf, indexLine, joinIndex } from '../notes/note-index.js';
import { reviewPairs, renderReview, type ReviewPair } from '../records/review.js';
import type { WikiPage } from './page.js';

interface Entry {
  page: WikiPage;
  line: string;
  category: string;
  /** The page's pairs in review (most pages have none). */
  pairs: ReviewPair[];
}

interface Category {
  /** Its pages' paths in index order. */
  paths: string[];
  /** The rendered block; null when a line in it changed. */
  block: string | null;
  /** The order changed (a page came or went): sorted again before rendering. */
  unsorted: boolean;
}

export class GeneratedRender {
  private readonly entries = new Map<string, Entry>();
  private readonly categories = new Map<string, Category>();
  private order: string[] = [];
  /** The last review text and the entries (with pairs, in snapshot order) it was rendered from. */
  private review = { text: renderReview([]), from: [] as Entry[] };
  private readonly byEn = new Intl.Collator('en').compare;

  /** The index and review texts for `pages` (and the unreadable `problems`). */
  render(pages: ReadonlyMap<string, WikiPage>, problems: readonly FileProblem[]): { index: string; review: string; inReview: boolean } {
    const inReview: Entry[] = [];
    let reviewChanged = false;
    let categoriesChanged = false;
    for (const [path, page] of pages) {
      let entry = this.entries.get(path);
      if (entry?.page !== page) {
        const category = categoryOf(page.path);
        const line = indexLine({ path: page.path, title: page.title, tags: page.tags, updated: page.updated });
        let cat = this.categories.get(category);
        if (!cat) {
          this.categories.set(category, (cat = { paths: [], block: null, unsorted: true }));
          categoriesChanged = true;
        }
        if (!entry) {
          cat.paths.push(path);
          cat.unsorted = true;
        }
        cat.block = null;
        entry = { page, line, category, pairs: reviewPairs([page]) };
        this.entries.set(path, entry);
      }
      if (entry.pairs.length) {
        if (this.review.from[inReview.length] !== entry) reviewChanged = true;
        inReview.push(entry);
      }
    }
    if (reviewChanged || inReview.length !== this.review.from.length) this.review = { text: renderReview(inReview.flatMap((e) => e.pairs)), from: inReview };
    if (this.entries.size > pages.size) categoriesChanged = this.drop(pages) || categoriesChanged;
    if (categoriesChanged) this.order = [...this.categories.keys()].sort(this.byEn);
    let rank: Map<string, number> | null = null;
    const ranks = () => (rank ??= new Map([...pages.keys()].map((k, i) => [k, i])));
    const blocks = this.order.map((name) => this.block(name, ranks));
    return { index: joinIndex(blocks, problems, this.byEn), review: this.review.text, inReview: inReview.length > 0 };
  }

  /** Forgets the pages no longer in `pages`; true when a category emptied. */
  private drop(pages: ReadonlyMap<string, WikiPage>): boolean {
    let emptied = false;
    for (const [path, entry] of this.entries) {
      if (pages.has(path)) continue;
      this.entries.delete(path);
      const cat = this.categories.get(entry.category)!;
      cat.paths = cat.paths.filter((p) => p !== path);
      cat.block = null;
      if (cat.paths.length === 0) {
        this.categories.delete(entry.category);
        emptied = true;
      }
    }
    return emptied;
  }

  private block(name: string, rank: () => ReadonlyMap<string, number>): string {
    const cat = this.categories.get(name)!;
    if (cat.unsorted) {
      // ties of the collator keep the snapshot's order, as in renderIndex's (stable) sort
      const order = rank();
      const items = cat.paths.map((key) => ({ key, shown: this.entries.get(key)!.page.path, at: order.get(key)! }));
      items.sort((a, b) => this.byEn(a.shown, b.shown) || a.at - b.at);
      cat.paths = items.map((i) => i.key);
      cat.unsorted = false;
    }
    cat.block ??= categoryBlock(
      name,
      cat.paths.map((p) => this.entries.get(p)!.line),
    );
    return cat.block;
  }
}
