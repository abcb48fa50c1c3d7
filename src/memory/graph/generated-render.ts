/**
 * `_index.md` and `review.md` kept up to date page by page: a hand edit of one page of 10,000
 * re-renders that page's line (and its category's block when a page came or went) instead of
 * sorting and rendering every page. The text is exactly what `renderIndex` and `renderReview`
 * give for the same snapshot (test/unit/generated-render.test.ts checks it after random edits).
 *
 * Pages are told apart by identity: the page cache hands out the same WikiPage object until the
 * file is read again, so one pass of identity checks over the snapshot finds what changed. A page
 * read again whose line reads the same (an edit of its body) leaves its category's block and the
 * index text as they were, and its review lines are compared as text: the versions say whether a
 * text changed, so the caller need not read, hash or write the file again.
 */
import type { FileProblem } from '../../core/ports/index.js';
import { categoryBlock, categoryOf, indexLine, joinIndex } from '../notes/note-index.js';
import { reviewItem, reviewPairs, reviewText } from '../records/review.js';
import type { WikiPage } from './page.js';
import { ownString } from '../../util/own-string.js';

interface Entry {
  page: WikiPage;
  line: string;
  category: string;
  /** The page's lines of review.md, joined (most pages have none: ''). */
  review: string;
}

interface Category {
  /** Its pages' paths in index order. */
  paths: string[];
  /** The rendered block; null when a line in it changed. */
  block: string | null;
  /** The order changed (a page came or went): sorted again before rendering. */
  unsorted: boolean;
}

/** Versions of the texts, unique across renders: equal versions mean equal texts (generated.ts skips the write). */
let versions = 0;

export class GeneratedRender {
  private readonly entries = new Map<string, Entry>();
  private readonly categories = new Map<string, Category>();
  private order: string[] = [];
  /** The last review text and the pages (with pairs, in snapshot order) and lines it was rendered from. */
  private review = { text: reviewText([]), from: [] as { path: string; review: string }[] };
  /** The last index text; null when a block, the order of categories or the problems changed. */
  private index: { text: string; problems: readonly FileProblem[] } | null = null;
  private readonly byEn = new Intl.Collator('en').compare;
  /** The serial of the snapshot rendered last (undefined: none, or pages not from the page cache). */
  private rendered: number | undefined;
  /** Changes whenever the index text does (and only then). */
  indexVersion = ++versions;
  /** Changes whenever the review text does (and only then). */
  reviewVersion = ++versions;

  /**
   * The index and review texts for `pages` (and the unreadable `problems`). `snapshot`: the page
   * cache's numbering (wiki-pages.ts); when it says these pages are the last rendered ones with
   * a few read again under the same names, only those few are looked at.
   */
  render(
    pages: ReadonlyMap<string, WikiPage>,
    problems: readonly FileProblem[],
    snapshot?: { serial: number; patch?: { of: number; paths: readonly string[] } },
  ): { index: string; review: string; inReview: boolean } {
    const changes = { categories: false, lines: false, review: false };
    const patch = this.rendered !== undefined && snapshot?.patch?.of === this.rendered ? snapshot.patch : undefined;
    this.rendered = snapshot?.serial;
    if (patch) {
      for (const path of patch.paths) {
        const page = pages.get(path);
        if (page && this.entries.get(path)?.page !== page) this.update(path, page, changes);
      }
    } else {
      for (const [path, page] of pages) if (this.entries.get(path)?.page !== page) this.update(path, page, changes);
    }
    if (!patch || changes.review) {
      // which pages are in review, in snapshot order: a pass over every page, only when one's pairs changed (or pages came or went)
      const inReview: { path: string; review: string }[] = [];
      let differs = false;
      for (const path of pages.keys()) {
        const { review } = this.entries.get(path)!;
        if (!review) continue;
        const before = this.review.from[inReview.length];
        if (before?.path !== path || before.review !== review) differs = true;
        inReview.push({ path, review });
      }
      if (differs || inReview.length !== this.review.from.length) {
        const text = reviewText(inReview.map((e) => e.review));
        if (text !== this.review.text) this.reviewVersion = ++versions;
        this.review = { text, from: inReview };
      }
    }
    let categoriesChanged = changes.categories;
    let linesChanged = changes.lines;
    if (this.entries.size > pages.size) {
      categoriesChanged = this.drop(pages) || categoriesChanged;
      linesChanged = true;
    }
    if (categoriesChanged) this.order = [...this.categories.keys()].sort(this.byEn);
    if (linesChanged || categoriesChanged || this.index?.problems !== problems) {
      let rank: Map<string, number> | null = null;
      const ranks = () => (rank ??= new Map([...pages.keys()].map((k, i) => [k, i])));
      const blocks = this.order.map((name) => this.block(name, ranks));
      const text = joinIndex(blocks, problems, this.byEn);
      if (text !== this.index?.text) this.indexVersion = ++versions;
      this.index = { text, problems };
    }
    return { index: this.index.text, review: this.review.text, inReview: this.review.from.length > 0 };
  }

  /** `page` is new or was read again: its entry, and its category's block when its line changed. */
  private update(path: string, page: WikiPage, changes: { categories: boolean; lines: boolean; review: boolean }): void {
    const entry = this.entries.get(path);
    const category = categoryOf(page.path);
    // kept flat: built by concatenation, a line is a tree of string pieces (at 10,000 pages about
    // 3 MB of them beyond the lines' own characters, in a heap snapshot)
    const line = ownString(indexLine({ path: page.path, title: page.title, tags: page.tags, updated: page.updated }));
    // a hand edit of a page's body leaves its line (title, tags, updated) as it was: its block stands
    if (entry?.line !== line) {
      let cat = this.categories.get(category);
      if (!cat) {
        this.categories.set(category, (cat = { paths: [], block: null, unsorted: true }));
        changes.categories = true;
      }
      if (!entry) {
        cat.paths.push(path);
        cat.unsorted = true;
      }
      cat.block = null;
      changes.lines = true;
    }
    const review = ownString(reviewPairs([page]).map(reviewItem).join('\n'));
    if (review !== (entry?.review ?? '')) changes.review = true;
    this.entries.set(path, { page, line, category, review });
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
