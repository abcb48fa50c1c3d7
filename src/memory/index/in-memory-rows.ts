/**
 * What a search of one project reads from memory: the keyword index (lexical.ts) and the rows
 * with, up to `memoryRows`, their vectors (vector-pass.ts), kept in step by the table's writes.
 *
 * A row is kept slim: its repeated strings (page, entity, embedder, updated; read from the
 * table, every row's would be its own copy) are shared, and its context is not kept (the keyword
 * index has counted its terms, and nothing reads it from a hit). At 10,000 pages that was about
 * a third of the heap (docs/performance.md, "A small machine"). What it holds is estimated for
 * the memory budget (resident-set.ts).
 */
import type { Chunk } from './chunker.js';
import { LexicalIndex } from './lexical.js';
import { ownString } from '../../util/own-string.js';
import { VectorPass } from './vector-pass.js';

/** A row's object and its entries in the keyword index's and the vector pass's maps, beyond its strings (from a heap snapshot). */
const ROW_OVERHEAD = 400;

export class InMemoryRows<T extends Chunk & { embedder: string }> {
  /** Its keyword text is the row's heading and text (project-table.ts), read again to remove a row with no context. */
  readonly lexical = new LexicalIndex<T>((row) => `${row.heading}\n${row.text}`);
  readonly rows: VectorPass<T>;
  private readonly shared = new Map<string, string>();
  private stringBytes = 0;
  private added = 0;
  private counted: { added: number; bytes: number } | null = null;

  constructor(dimensions: number, memoryRows: number, withVectors: boolean) {
    this.rows = new VectorPass<T>(dimensions, memoryRows, withVectors);
  }

  /**
   * Adds a row to both (`replace`: first removes a row at its page and first line from the
   * keyword index, which may hold it already). `keywords`: the text the keyword index reads;
   * `cut`: the row's strings were cut from a page's text, so they are copied (own-string.ts).
   */
  add(row: T, keywords: string, vector: ArrayLike<number> | null, cut: boolean, replace = false): void {
    const one = (s: string) => {
      const known = this.shared.get(s);
      if (known !== undefined) return known;
      const own = cut ? ownString(s) : s;
      this.shared.set(own, own);
      return own;
    };
    const kept: T = {
      ...row,
      page: one(row.page),
      // a heading is nearly always its row's own (a page's title and section, a message's time and
      // speaker): sharing them kept a map entry per row for nothing (1.75 MB at 10,000 pages)
      heading: cut ? ownString(row.heading) : row.heading,
      entity: one(row.entity),
      embedder: one(row.embedder),
      // a note's rows carry its page's `updated`: 7,300 distinct among 45,000 rows at 10,000 pages
      updated: one(row.updated),
      text: cut ? ownString(row.text) : row.text,
      context: '',
    };
    if (replace) this.lexical.remove(kept.page, (d) => d.lineStart === kept.lineStart);
    this.lexical.add(kept.page, kept, keywords, row.context);
    this.rows.put(kept, vector);
    this.stringBytes += kept.text.length + kept.hash.length + kept.heading.length;
    this.added++;
  }

  /** Gives back unused capacity (after the whole table was read). */
  trim(): void {
    this.lexical.trim();
    this.counted = null;
  }

  /** Removes the rows of `page` (those at `lineStart` only, when given). */
  remove(page: string, lineStart?: number): void {
    const which = lineStart === undefined ? undefined : (c: T) => c.lineStart === lineStart;
    this.lexical.remove(page, which);
    this.rows.remove(page, which);
  }

  /**
   * Bytes held, estimated: the typed arrays, and per live row the mean of its own strings plus
   * the objects around it. Counted again after every 256 rows added (it is asked at every search,
   * and counting walks every term's list).
   */
  bytes(): number {
    if (this.counted && this.added - this.counted.added < 256) return this.counted.bytes;
    const perRow = ROW_OVERHEAD + (this.added > 0 ? this.stringBytes / this.added : 0);
    this.counted = { added: this.added, bytes: Math.round(this.lexical.arrayBytes() + this.rows.arrayBytes() + this.rows.size * perRow) };
    return this.counted.bytes;
  }
}
