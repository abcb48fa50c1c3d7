/**
 * Keyword search kept in memory: BM25 (k1 1.2, b 0.75) over a chunk's text, plus the same over
 * its context (the neighbouring messages) times a weight, on Charlie's own terms (stop words
 * removed, Porter-stemmed; text.ts). Written here rather than taken from LanceDB's full-text
 * index because that index ranked long messages far below a plain BM25 over the same text
 * (BEAM dev, keyword pass alone: recall@5 23.8 against 37.4 for this), and because it answers
 * in well under a millisecond where the full-text query took tens. No library we could find
 * scores two fields with BM25 and supports removing single documents; the scoring
 * (keyword-scan.ts) is a loop that stops early once no further chunk can enter the top.
 * Documents are added and removed one by one, so an index is never rebuilt for a changed page;
 * removed ones are swept out once they outnumber the live ones.
 *
 * Stored compactly, for a table of a million chunks: the (document, frequencies) pairs of every
 * term pooled, term after term (documents in an Int32Array, both frequencies in one Uint16 of a
 * byte each, the rare larger ones exact in a map beside), with each term's start in another (built once
 * a table is read, and again when the documents added since pass an eighth of it); the pairs
 * added since, per term, in a small growing array of their own; per document its terms as ids in
 * one shared Int32Array (what a removal needs to update the document frequencies), lengths and
 * liveness in typed arrays. A document whose text the index can read again from its value
 * (`textOf`) and that has no context keeps no term list: a removal counts its terms again from
 * that text (at 10,000 pages the notes' rows, most of the lists: 6.4 MB of them before). No object or map per document or per term of a document (before: two
 * maps and a record per chunk, about 4 KB of heap each, past V8's heap limit at a million
 * chunks), and none per term once pooled (before: a growing Int32Array per term, about 230 bytes
 * of objects each, 15 MB for the 66,000 terms of a 10,000-page project).
 */
import { terms as termsOf } from './text.js';
import { ESCAPED, MAX_TF, NARROW, scan, type TermPostings } from './keyword-scan.js';
import { exactCopy, withItem } from '../../util/exact-list.js';

/** A growing Int32Array. */
class Ints {
  data: Int32Array;
  length = 0;

  constructor(capacity = 4) {
    this.data = new Int32Array(capacity);
  }

  push(v: number): void {
    if (this.length === this.data.length) {
      // large arrays (a table's term lists) grow by a quarter: doubling left up to half of them unused
      const grown = new Int32Array(this.data.length < 1 << 18 ? this.data.length * 2 : Math.ceil(this.data.length * 1.25));
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }

  /** Gives back the unused capacity (after a compaction). */
  trim(): void {
    if (this.data.length > this.length + 4) this.data = this.data.slice(0, Math.max(4, this.length));
  }
}

/** Pairs added since the pool was built pass this share of it: it is built again. */
const REPOOL_SHARE = 1 / 8;
/** ... or this many ints, whichever is more (a small index is pooled rarely). */
const REPOOL_MIN = 1 << 16;
const EMPTY = new Int32Array(0);
/** A key's document list up to this long is copied when it grows, so that it holds no spare room. */
const SHORT_LIST = 32;

export class LexicalIndex<T> {
  /**
   * `textOf`: the text a document was added with, read again from its value. A document added
   * with that text and no context keeps no term list (its removal stems the text again).
   */
  constructor(private readonly textOf?: (value: T) => string) {}

  private values: T[] = [];
  /** Per document id: text length, context length (in terms), and whether it is live. */
  private textLength = new Ints(64);
  private contextLength = new Ints(64);
  private alive = new Ints(64);
  /** Per document id, where its terms start in `docTerms` (the next document's start ends them). */
  private docStart = new Ints(64);
  /** Each document's distinct terms: term id × 4, + 1 when in its text, + 2 when in its context (none when `textOf` gives them again). */
  private docTerms = new Ints(1024);
  private readonly termIds = new Map<string, number>();
  /**
   * Pairs (document id, frequency in its text << 16 | frequency in its context) of the documents
   * that hold a term, in document order; removed ones are skipped. Pooled: term t's pairs are
   * `poolIds[i]`, `poolTf[i]` for i from `poolStart[t]` up to `poolStart[t + 1]` (terms first seen
   * since have none there), then `added.get(t)`, the pairs added since the pool was built (of
   * documents with higher ids). Pooled, a pair takes 6 bytes, not 8: both frequencies fit in a byte
   * but for a few long chunks, whose exact pair is in `poolWide` by its index.
   */
  private poolIds: Int32Array = EMPTY;
  private poolTf: Uint16Array = new Uint16Array(0);
  private poolWide = new Map<number, number>();
  private poolStart: Int32Array = new Int32Array(1);
  private added = new Map<number, Ints>();
  private addedInts = 0;
  /** Per term id: live documents holding it in their text, in their context. */
  private textDf = new Ints(1024);
  private contextDf = new Ints(1024);
  private textTotal = 0;
  private contextTotal = 0;
  private readonly byKey = new Map<string, number[]>();
  private live = 0;
  /** Scores of a search by document, all 0 between searches, and the ids it scored (a search allocates no array of the index's size). */
  private scores = new Float64Array(0);
  private touched = new Int32Array(0);
  /** Word → stem, shared by every document: stemming was most of the time of reading a large index. */
  private readonly stems = new Map<string, string>();
  /** Scratch counts of the document being added: term → text frequency, context frequency. */
  private readonly counts = new Map<string, [number, number]>();

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.textDf.length;
      this.termIds.set(term, id);
      this.textDf.push(0);
      this.contextDf.push(0);
    }
    return id;
  }

  /**
   * Gives back the unused capacity of its arrays and the stemming memo (after reading a whole
   * table into it): the memo's words are views into the texts they were read from, so it kept
   * those texts alive.
   */
  trim(): void {
    this.stems.clear();
    this.repool();
    for (const list of [this.textLength, this.contextLength, this.alive, this.docStart, this.docTerms, this.textDf, this.contextDf]) list.trim();
  }

  /** Bytes of its typed arrays (what the memory budget counts beside the documents' own objects). */
  arrayBytes(): number {
    let sum = this.poolIds.byteLength + this.poolTf.byteLength + this.poolStart.byteLength + this.scores.byteLength + this.touched.byteLength;
    for (const list of [this.textLength, this.contextLength, this.alive, this.docStart, this.docTerms, this.textDf, this.contextDf, ...this.added.values()]) sum += list.data.byteLength;
    return sum;
  }

  /**
   * Builds the pool again from the pool and the pairs added since, keeping the pairs of the
   * documents `renumbered` maps to a new id (≥ 0; all of them, as they are, without it).
   */
  private repool(renumbered?: Int32Array): void {
    const terms = this.textDf.length;
    const oldStart = this.poolStart;
    const oldIds = this.poolIds;
    const oldTf = this.poolTf;
    const oldWide = this.poolWide;
    const pooledTerms = oldStart.length - 1;
    const start = new Int32Array(terms + 1);
    let total = 0;
    for (let t = 0; t < terms; t++) {
      start[t] = total;
      total += (t < pooledTerms ? oldStart[t + 1]! - oldStart[t]! : 0) + (this.added.get(t)?.length ?? 0) / 2;
    }
    start[terms] = total;
    const ids = new Int32Array(total);
    const tf = new Uint16Array(total);
    const wide = new Map<number, number>();
    let w = 0;
    const put = (from: number, packed: number) => {
      const id = renumbered ? renumbered[from]! : from;
      if (id < 0) return;
      const ft = packed >>> 16;
      const fc = packed & MAX_TF;
      ids[w] = id;
      if (ft < NARROW && fc < NARROW) tf[w] = (ft << 8) | fc;
      else {
        tf[w] = ESCAPED;
        wide.set(w, packed);
      }
      w++;
    };
    for (let t = 0; t < terms; t++) {
      const at = w;
      if (t < pooledTerms) for (let r = oldStart[t]!; r < oldStart[t + 1]!; r++) put(oldIds[r]!, oldTf[r] === ESCAPED ? oldWide.get(r)! : ((oldTf[r]! >>> 8) << 16) | (oldTf[r]! & NARROW));
      const more = this.added.get(t);
      if (more) for (let r = 0; r < more.length; r += 2) put(more.data[r]!, more.data[r + 1]!);
      start[t] = at;
    }
    start[terms] = w;
    this.poolIds = w === total ? ids : ids.slice(0, w);
    this.poolTf = w === total ? tf : tf.slice(0, w);
    this.poolWide = wide;
    this.poolStart = start;
    this.added = new Map();
    this.addedInts = 0;
  }

  /** `key` groups documents for removal (e.g. the page they come from). */
  add(key: string, value: T, text: string, context = ''): void {
    const id = this.values.length;
    const textTerms = termsOf(text, this.stems);
    const contextTerms = termsOf(context, this.stems);
    const counts = this.counts;
    counts.clear();
    for (const t of textTerms) {
      const c = counts.get(t);
      if (c) c[0]++;
      else counts.set(t, [1, 0]);
    }
    for (const t of contextTerms) {
      const c = counts.get(t);
      if (c) c[1]++;
      else counts.set(t, [0, 1]);
    }
    this.values.push(value);
    this.textLength.push(textTerms.length);
    this.contextLength.push(contextTerms.length);
    this.alive.push(1);
    this.docStart.push(this.docTerms.length);
    // no list when the value gives the same text back and there is no context (its removal counts them again)
    const listed = contextTerms.length > 0 || !this.textOf || this.textOf(value) !== text;
    for (const [t, [ft, fc]] of counts) {
      const term = this.termId(t);
      let list = this.added.get(term);
      if (!list) this.added.set(term, (list = new Ints()));
      list.push(id);
      list.push((Math.min(ft, MAX_TF) << 16) | Math.min(fc, MAX_TF));
      this.addedInts += 2;
      if (listed) this.docTerms.push(term * 4 + (ft > 0 ? 1 : 0) + (fc > 0 ? 2 : 0));
      if (ft > 0) this.textDf.data[term]!++;
      if (fc > 0) this.contextDf.data[term]!++;
    }
    counts.clear();
    this.textTotal += textTerms.length;
    this.contextTotal += contextTerms.length;
    // while a table is read the pool is built once, at trim(); after that, when the additions grow
    if (this.poolIds !== EMPTY && this.addedInts > Math.max(REPOOL_MIN, 2 * this.poolIds.length * REPOOL_SHARE)) this.repool();
    this.live++;
    const ids = this.byKey.get(key);
    // a short list is made anew at its length (exact-list.ts): a pushed one keeps room for 16
    if (!ids) this.byKey.set(key, [id]);
    else if (ids.length < SHORT_LIST) this.byKey.set(key, withItem(ids, id));
    else ids.push(id);
  }

  /** Takes away a removed document's share of the lengths and document frequencies. */
  private uncount(id: number): void {
    this.textTotal -= this.textLength.data[id]!;
    this.contextTotal -= this.contextLength.data[id]!;
    const start = this.docStart.data[id]!;
    const end = id + 1 < this.docStart.length ? this.docStart.data[id + 1]! : this.docTerms.length;
    if (start === end && this.textLength.data[id]! > 0) {
      // no list kept (add): its text, read again from its value, gives its terms (all in its text)
      for (const t of new Set(termsOf(this.textOf!(this.values[id]!), this.stems))) this.textDf.data[this.termIds.get(t)!]!--;
      return;
    }
    const terms = this.docTerms.data;
    for (let i = start; i < end; i++) {
      const e = terms[i]!;
      const term = e >>> 2;
      if (e & 1) this.textDf.data[term]!--;
      if (e & 2) this.contextDf.data[term]!--;
    }
  }

  /** Removes the documents of `key` for which `which` holds (all of them by default). */
  remove(key: string, which: (value: T) => boolean = () => true): void {
    const ids = this.byKey.get(key);
    if (!ids) return;
    const kept: number[] = [];
    for (const id of ids) {
      if (!this.alive.data[id]) continue;
      if (!which(this.values[id]!)) {
        kept.push(id);
        continue;
      }
      this.alive.data[id] = 0;
      this.uncount(id);
      this.live--;
    }
    if (kept.length > 0) this.byKey.set(key, kept.length < SHORT_LIST ? exactCopy(kept) : kept);
    else this.byKey.delete(key);
    if (this.values.length > 64 && this.values.length > 2 * this.live) this.compact();
  }

  /** Drops removed documents and renumbers the rest (in the same order, so ties rank as before). */
  private compact(): void {
    const n = this.values.length;
    const renumbered = new Int32Array(n).fill(-1);
    const values: T[] = [];
    const textLength = new Ints(Math.max(64, this.live));
    const contextLength = new Ints(Math.max(64, this.live));
    const alive = new Ints(Math.max(64, this.live));
    const docStart = new Ints(Math.max(64, this.live));
    const docTerms = new Ints(1024);
    for (let id = 0; id < n; id++) {
      if (!this.alive.data[id]) continue;
      renumbered[id] = values.length;
      values.push(this.values[id]!);
      textLength.push(this.textLength.data[id]!);
      contextLength.push(this.contextLength.data[id]!);
      alive.push(1);
      docStart.push(docTerms.length);
      const end = id + 1 < n ? this.docStart.data[id + 1]! : this.docTerms.length;
      for (let i = this.docStart.data[id]!; i < end; i++) docTerms.push(this.docTerms.data[i]!);
    }
    this.repool(renumbered);
    for (const [key, ids] of this.byKey)
      this.byKey.set(
        key,
        ids.map((id) => renumbered[id]!),
      );
    this.values = values;
    this.textLength = textLength;
    this.contextLength = contextLength;
    this.alive = alive;
    this.docStart = docStart;
    this.docTerms = docTerms;
  }

  get size(): number {
    return this.live;
  }

  /**
   * The best `limit` documents for the query's terms (stop words dropped, stemmed, each counted
   * once): BM25 of the text + `contextWeight` × BM25 of the context, among the documents `accept`
   * takes (all by default; statistics stay those of the whole index). Ties go to the earlier document.
   */
  search(query: string, limit: number, contextWeight: number, accept?: (value: T) => boolean): { value: T; score: number }[] {
    const n = this.live;
    if (n === 0 || limit <= 0) return [];
    // buffers for every search, zeroed where written (a new score array a search was 8 MB to
    // allocate and clear at a million rows, and its garbage the p95)
    if (this.scores.length < this.values.length) {
      this.scores = new Float64Array(Math.max(this.values.length, this.scores.length * 2));
      this.touched = new Int32Array(this.scores.length);
    }
    const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const terms: TermPostings[] = [];
    for (const t of new Set(termsOf(query, this.stems))) {
      const term = this.termIds.get(t);
      if (term === undefined) continue;
      const pooled = term + 1 < this.poolStart.length;
      const more = this.added.get(term);
      terms.push({
        idfText: idf(this.textDf.data[term]!),
        idfContext: this.contextDf.data[term]! > 0 ? idf(this.contextDf.data[term]!) * contextWeight : 0,
        start: pooled ? this.poolStart[term]! : 0,
        end: pooled ? this.poolStart[term + 1]! : 0,
        added: more?.data ?? null,
        addedLength: more?.length ?? 0,
      });
    }
    const found = scan(terms, limit, {
      ids: this.poolIds,
      tf: this.poolTf,
      wide: this.poolWide,
      textLength: this.textLength.data,
      contextLength: this.contextLength.data,
      alive: this.alive.data,
      avgText: this.textTotal / n || 1,
      avgContext: this.contextTotal / n || 1,
      ...(accept ? { accept: (id: number) => accept(this.values[id]!) } : {}),
      scores: this.scores,
      touched: this.touched,
    });
    return found.map(({ id, score }) => ({ value: this.values[id]!, score }));
  }
}
