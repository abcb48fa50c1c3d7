/**
 * The vector pass in memory: every row of a project's table once more, keyed by page and first
 * line, and — up to `maxRows` rows — its vector in one Float32Array matrix, searched by an exact
 * dot product (vectors are unit length, so cosine similarity). Kept beside the keyword index
 * (lexical.ts) and updated by the same writes (project-table.ts).
 *
 * Why not LanceDB for this: a LanceDB query that returns 100 rows with their text was most of a
 * search's time (p50 6.8 / p95 26 ms on BEAM chats at load 15, against about 1 ms for this over
 * a few thousand rows), and most of its work is reading and copying text the keyword index
 * already holds. Above `maxRows` the matrix is let go (384 dimensions: 15 MB per 10,000 rows)
 * and LanceDB's vector index answers, returning only each row's page, line and score; the rows
 * themselves still come from here (`get`), which costs no more memory than the keyword index,
 * whose values they are.
 *
 * No library: the search is a loop of multiply-adds and a bounded heap; what is kept in step
 * (per-row removal by page and line) is the table's own rule.
 */

import { topK } from './top-k.js';
import { exactCopy, withItem } from '../../util/exact-list.js';

/** The identity of a row within its table: its page and first line (project-table.ts deletes by these). */
export interface Placed {
  page: string;
  lineStart: number;
}

/** A page's slots: a list up to LISTED_SLOTS rows, by first line past that. */
type Slots = readonly number[] | Map<number, number>;
const LISTED_SLOTS = 32;
const NO_SLOTS: readonly number[] = Object.freeze([]);

export class VectorPass<T extends Placed> {
  /** Row values by slot (undefined: a free slot). */
  private values: (T | undefined)[] = [];
  private readonly free: number[] = [];
  /**
   * Each page's slots (no key string per row: at 10,000 pages those and a Set per page were about
   * 9 MB): a list, in which a row is found by its first line, while the page has a few rows (most
   * have: a map per page was 2.9 MB of the 10,000 pages' search data), by first line past that.
   */
  private readonly byPage = new Map<string, Slots>();
  /** `dimensions` floats per slot; null once the table outgrew `maxRows` (LanceDB searches then). */
  private matrix: Float32Array | null;
  /** Scores of the last search, reused (a search allocates no array of the table's size). */
  private scores = new Float32Array(0);
  private live = 0;

  constructor(
    readonly dimensions: number,
    readonly maxRows: number,
    withVectors = true,
  ) {
    this.matrix = withVectors && maxRows > 0 ? new Float32Array(dimensions * 64) : null;
  }

  get size(): number {
    return this.live;
  }

  /** Bytes of its vectors and last scores. */
  arrayBytes(): number {
    return (this.matrix?.byteLength ?? 0) + this.scores.byteLength;
  }

  /** Whether vectors are kept (false: the table is larger than `maxRows`, and LanceDB's index searches it). */
  get searchable(): boolean {
    return this.matrix !== null;
  }

  /** Adds a row, or replaces the one at the same page and first line. `vector`: null when the vectors are not kept. */
  put(value: T, vector: ArrayLike<number> | null): void {
    const slots = this.byPage.get(value.page) ?? NO_SLOTS;
    let slot = this.slotOf(slots, value.lineStart);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.values.length;
      if (slots instanceof Map) slots.set(value.lineStart, slot);
      // a new list of its length (exact-list.ts): a pushed one keeps room for 16
      else if (slots.length < LISTED_SLOTS) this.byPage.set(value.page, withItem(slots, slot));
      else this.byPage.set(value.page, new Map([...slots.map((s): [number, number] => [this.values[s]!.lineStart, s]), [value.lineStart, slot]]));
      this.live++;
    }
    this.values[slot] = value;
    if (this.live > this.maxRows) this.matrix = null;
    if (!this.matrix) return;
    if (!vector || vector.length !== this.dimensions) {
      // a row without a usable vector: the table's vectors are not all here, let LanceDB answer
      this.matrix = null;
      return;
    }
    const at = slot * this.dimensions;
    if (at + this.dimensions > this.matrix.length) {
      const grown = new Float32Array(Math.min(Math.max(this.matrix.length * 2, at + this.dimensions), this.maxRows * this.dimensions + this.dimensions));
      grown.set(this.matrix);
      this.matrix = grown;
    }
    this.matrix.set(vector, at);
  }

  /** Removes the rows of `page` for which `which` holds (all of them by default). */
  remove(page: string, which: (value: T) => boolean = () => true): void {
    const slots = this.byPage.get(page);
    if (!slots) return;
    const kept: number[] = [];
    for (const slot of slots.values()) {
      if (!which(this.values[slot]!)) {
        kept.push(slot);
        continue;
      }
      this.values[slot] = undefined;
      this.free.push(slot);
      this.live--;
    }
    if (kept.length === 0) this.byPage.delete(page);
    else if (kept.length < (slots instanceof Map ? slots.size : slots.length))
      this.byPage.set(page, kept.length <= LISTED_SLOTS ? exactCopy(kept) : new Map(kept.map((s) => [this.values[s]!.lineStart, s])));
  }

  /** The slot among `slots` (one page's) of the row at `lineStart`. */
  private slotOf(slots: Slots, lineStart: number): number | undefined {
    if (slots instanceof Map) return slots.get(lineStart);
    for (const slot of slots) if (this.values[slot]!.lineStart === lineStart) return slot;
    return undefined;
  }

  /**
   * Whether any row is one `accept` takes (a filtered LanceDB search for none would read its index
   * for nothing); `page`: only the rows of the pages it takes are looked at (at a million rows a
   * look at every row took tens of milliseconds a search).
   */
  some(accept: (value: T) => boolean, page?: (page: string) => boolean): boolean {
    if (!page) {
      for (const value of this.values) if (value !== undefined && accept(value)) return true;
      return false;
    }
    for (const [name, slots] of this.byPage) {
      if (!page(name)) continue;
      for (const slot of slots instanceof Map ? slots.values() : slots) if (accept(this.values[slot]!)) return true;
    }
    return false;
  }

  /** The rows of `page`. */
  ofPage(page: string): T[] {
    const slots = this.byPage.get(page);
    return slots ? [...slots.values()].map((slot) => this.values[slot]!) : [];
  }

  /** The row at this page and first line. */
  get(page: string, lineStart: number): T | undefined {
    const slots = this.byPage.get(page);
    const slot = slots && this.slotOf(slots, lineStart);
    return slot === undefined ? undefined : this.values[slot];
  }

  /**
   * The `limit` rows nearest `query` by dot product among those `accept` takes, best first (ties
   * to the earlier slot); null when the vectors are not kept.
   */
  search(query: Float32Array, limit: number, accept?: (value: T) => boolean): { value: T; score: number }[] | null {
    const m = this.matrix;
    if (!m) return null;
    if (limit <= 0 || this.live === 0) return [];
    const d = this.dimensions;
    const n = this.values.length;
    if (this.scores.length < n) this.scores = new Float32Array(Math.max(n, this.scores.length * 2));
    const scores = this.scores;
    const ids: number[] = [];
    for (let slot = 0; slot < n; slot++) {
      const value = this.values[slot];
      if (value === undefined || (accept && !accept(value))) continue;
      let a = 0;
      let b = 0;
      let c = 0;
      let e = 0;
      const at = slot * d;
      let i = 0;
      for (; i + 3 < d; i += 4) {
        a += m[at + i]! * query[i]!;
        b += m[at + i + 1]! * query[i + 1]!;
        c += m[at + i + 2]! * query[i + 2]!;
        e += m[at + i + 3]! * query[i + 3]!;
      }
      for (; i < d; i++) a += m[at + i]! * query[i]!;
      scores[slot] = a + b + c + e;
      ids.push(slot);
    }
    return topK(ids, scores, limit).map((slot) => ({ value: this.values[slot]!, score: scores[slot]! }));
  }
}
