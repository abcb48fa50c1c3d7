/**
 * Keyword search kept in memory: BM25 (k1 1.2, b 0.75) over a chunk's text, plus the same over
 * its context (the neighbouring messages) times a weight, on Charlie's own terms (stop words
 * removed, Porter-stemmed; text.ts). Written here rather than taken from LanceDB's full-text
 * index because that index ranked long messages far below a plain BM25 over the same text
 * (BEAM dev, keyword pass alone: recall@5 23.8 against 37.4 for this), and because it answers
 * in well under a millisecond where the full-text query took tens. No library we could find
 * scores two fields with BM25 and supports removing single documents; the scoring is twenty
 * lines. Documents are added and removed one by one, so an index is never rebuilt for a
 * changed page; removed ones are swept out once they outnumber the live ones.
 *
 * Stored compactly, for a table of a million chunks: per term one growing Int32Array of
 * (document, frequencies) pairs, per document its terms as ids in one shared Int32Array (what a
 * removal needs to update the document frequencies), lengths and liveness in typed arrays. No
 * object or map per document or per term of a document (before: two maps and a record per
 * chunk, about 4 KB of heap each, past V8's heap limit at a million chunks).
 */
import { terms as termsOf } from './text.js';
import { topK } from './top-k.js';

const K1 = 1.2;
const B = 0.75;
/** Term frequencies are kept in 16 bits each (a chunk repeating a word 65,535 times counts that many). */
const MAX_TF = 0xffff;

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

export class LexicalIndex<T> {
  private values: T[] = [];
  /** Per document id: text length, context length (in terms), and whether it is live. */
  private textLength = new Ints(64);
  private contextLength = new Ints(64);
  private alive = new Ints(64);
  /** Per document id, where its terms start in `docTerms` (the next document's start ends them). */
  private docStart = new Ints(64);
  /** Each document's distinct terms: term id × 4, + 1 when in its text, + 2 when in its context. */
  private docTerms = new Ints(1024);
  private readonly termIds = new Map<string, number>();
  /**
   * Per term id: pairs (document id, frequency in its text << 16 | frequency in its context) of
   * the documents that hold it, in document order; removed ones are skipped.
   */
  private postings: Ints[] = [];
  /** Per term id: live documents holding it in their text, in their context. */
  private textDf = new Ints(1024);
  private contextDf = new Ints(1024);
  private textTotal = 0;
  private contextTotal = 0;
  private readonly byKey = new Map<string, number[]>();
  private live = 0;
  /** Word → stem, shared by every document: stemming was most of the time of reading a large index. */
  private readonly stems = new Map<string, string>();
  /** Scratch counts of the document being added: term → text frequency, context frequency. */
  private readonly counts = new Map<string, [number, number]>();

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.postings.length;
      this.termIds.set(term, id);
      this.postings.push(new Ints());
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
    for (const list of [this.textLength, this.contextLength, this.alive, this.docStart, this.docTerms, this.textDf, this.contextDf, ...this.postings]) list.trim();
  }

  /** Bytes of its typed arrays (what the memory budget counts beside the documents' own objects). */
  arrayBytes(): number {
    let sum = 0;
    for (const list of [this.textLength, this.contextLength, this.alive, this.docStart, this.docTerms, this.textDf, this.contextDf, ...this.postings]) sum += list.data.byteLength;
    return sum;
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
    for (const [t, [ft, fc]] of counts) {
      const term = this.termId(t);
      const list = this.postings[term]!;
      list.push(id);
      list.push((Math.min(ft, MAX_TF) << 16) | Math.min(fc, MAX_TF));
      this.docTerms.push(term * 4 + (ft > 0 ? 1 : 0) + (fc > 0 ? 2 : 0));
    }
    counts.clear();
    this.count(id, 1);
    this.live++;
    const ids = this.byKey.get(key);
    if (ids) ids.push(id);
    else this.byKey.set(key, [id]);
  }

  /** Adds (1) or takes away (-1) a document's share of the lengths and document frequencies. */
  private count(id: number, sign: 1 | -1): void {
    this.textTotal += sign * this.textLength.data[id]!;
    this.contextTotal += sign * this.contextLength.data[id]!;
    const end = id + 1 < this.docStart.length ? this.docStart.data[id + 1]! : this.docTerms.length;
    const terms = this.docTerms.data;
    for (let i = this.docStart.data[id]!; i < end; i++) {
      const e = terms[i]!;
      const term = e >>> 2;
      if (e & 1) this.textDf.data[term]! += sign;
      if (e & 2) this.contextDf.data[term]! += sign;
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
      this.count(id, -1);
      this.live--;
    }
    if (kept.length > 0) this.byKey.set(key, kept);
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
    for (const list of this.postings) {
      let w = 0;
      for (let r = 0; r < list.length; r += 2) {
        const fresh = renumbered[list.data[r]!]!;
        if (fresh < 0) continue;
        list.data[w++] = fresh;
        list.data[w++] = list.data[r + 1]!;
      }
      list.length = w;
      list.trim();
    }
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
    const avgText = this.textTotal / n || 1;
    const avgContext = this.contextTotal / n || 1;
    const scores = new Float64Array(this.values.length);
    const touched: number[] = [];
    const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const textLength = this.textLength.data;
    const contextLength = this.contextLength.data;
    const alive = this.alive.data;
    for (const t of new Set(termsOf(query, this.stems))) {
      const term = this.termIds.get(t);
      if (term === undefined) continue;
      const list = this.postings[term]!.data;
      const length = this.postings[term]!.length;
      const idfText = idf(this.textDf.data[term]!);
      const idfContext = idf(this.contextDf.data[term]!) * contextWeight;
      const ct = K1 * (1 - B);
      const lt = (K1 * B) / avgText;
      const lc = (K1 * B) / avgContext;
      for (let i = 0; i < length; i += 2) {
        const id = list[i]!;
        const packed = list[i + 1]!;
        const ft = packed >>> 16;
        const fc = packed & MAX_TF;
        let s = 0;
        if (ft > 0) s += (idfText * ft * (K1 + 1)) / (ft + ct + lt * textLength[id]!);
        if (fc > 0 && idfContext > 0) s += (idfContext * fc * (K1 + 1)) / (fc + ct + lc * contextLength[id]!);
        if (s <= 0 || !alive[id] || (accept && !accept(this.values[id]!))) continue;
        if (scores[id] === 0) touched.push(id);
        scores[id]! += s;
      }
    }
    return topK(touched, scores, limit).map((id) => ({ value: this.values[id]!, score: scores[id]! }));
  }
}
