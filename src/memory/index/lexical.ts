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
 */
import { terms as termsOf } from './text.js';

const K1 = 1.2;
const B = 0.75;

interface Field {
  tf: Map<string, number>;
  length: number;
}

interface Doc<T> {
  value: T;
  text: Field;
  context: Field;
  alive: boolean;
}

class FieldStats {
  readonly df = new Map<string, number>();
  total = 0;

  add(f: Field, sign: 1 | -1): void {
    this.total += sign * f.length;
    for (const t of f.tf.keys()) {
      const n = (this.df.get(t) ?? 0) + sign;
      if (n > 0) this.df.set(t, n);
      else this.df.delete(t);
    }
  }

  idf(term: string, n: number): number {
    const df = this.df.get(term) ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }
}

function field(text: string, stems: Map<string, string>): Field {
  const tf = new Map<string, number>();
  const ts = termsOf(text, stems);
  for (const t of ts) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { tf, length: ts.length };
}

export class LexicalIndex<T> {
  private docs: Doc<T>[] = [];
  /**
   * term → flat triples (document id, frequency in its text, frequency in its context) of the
   * documents that hold it; removed ones are skipped. Inline so a search reads no per-document map.
   */
  private postings = new Map<string, number[]>();
  /** Per document id: text length, context length (in terms), and whether it is live. */
  private textLength: number[] = [];
  private contextLength: number[] = [];
  private readonly byKey = new Map<string, number[]>();
  private readonly text = new FieldStats();
  private readonly context = new FieldStats();
  private live = 0;
  /** Word → stem, shared by every document: stemming was most of the time of reading a large index. */
  private readonly stems = new Map<string, string>();

  /** `key` groups documents for removal (e.g. the page they come from). */
  add(key: string, value: T, text: string, context = ''): void {
    const doc: Doc<T> = { value, text: field(text, this.stems), context: field(context, this.stems), alive: true };
    const id = this.docs.length;
    this.docs.push(doc);
    this.index(id, doc);
    this.text.add(doc.text, 1);
    this.context.add(doc.context, 1);
    this.live++;
    const ids = this.byKey.get(key);
    if (ids) ids.push(id);
    else this.byKey.set(key, [id]);
  }

  private index(id: number, doc: Doc<T>): void {
    this.textLength[id] = doc.text.length;
    this.contextLength[id] = doc.context.length;
    // no per-term arrays or sets: this runs for every row when a large table's index is read
    const post = (t: string, ft: number, fc: number) => {
      const list = this.postings.get(t);
      if (list) list.push(id, ft, fc);
      else this.postings.set(t, [id, ft, fc]);
    };
    for (const [t, ft] of doc.text.tf) post(t, ft, doc.context.tf.get(t) ?? 0);
    for (const [t, fc] of doc.context.tf) if (!doc.text.tf.has(t)) post(t, 0, fc);
  }

  /** Removes the documents of `key` for which `which` holds (all of them by default). */
  remove(key: string, which: (value: T) => boolean = () => true): void {
    const ids = this.byKey.get(key);
    if (!ids) return;
    const kept: number[] = [];
    for (const id of ids) {
      const doc = this.docs[id]!;
      if (!doc.alive) continue;
      if (!which(doc.value)) {
        kept.push(id);
        continue;
      }
      doc.alive = false;
      this.text.add(doc.text, -1);
      this.context.add(doc.context, -1);
      this.live--;
    }
    if (kept.length > 0) this.byKey.set(key, kept);
    else this.byKey.delete(key);
    if (this.docs.length > 64 && this.docs.length > 2 * this.live) this.compact();
  }

  /** Drops removed documents and renumbers the rest. */
  private compact(): void {
    const keyOf = new Map<number, string>();
    for (const [key, ids] of this.byKey) for (const id of ids) keyOf.set(id, key);
    const old = this.docs;
    this.docs = [];
    this.postings = new Map();
    this.textLength = [];
    this.contextLength = [];
    this.byKey.clear();
    old.forEach((doc, id) => {
      if (!doc.alive) return;
      const fresh = this.docs.length;
      this.docs.push(doc);
      this.index(fresh, doc);
      const key = keyOf.get(id)!;
      const ids = this.byKey.get(key);
      if (ids) ids.push(fresh);
      else this.byKey.set(key, [fresh]);
    });
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
    const avgText = this.text.total / n || 1;
    const avgContext = this.context.total / n || 1;
    const scores = new Float64Array(this.docs.length);
    const touched: number[] = [];
    for (const t of new Set(termsOf(query, this.stems))) {
      const list = this.postings.get(t);
      if (!list) continue;
      const idfText = this.text.idf(t, n);
      const idfContext = this.context.idf(t, n) * contextWeight;
      const ct = K1 * (1 - B);
      const lt = (K1 * B) / avgText;
      const lc = (K1 * B) / avgContext;
      for (let i = 0; i < list.length; i += 3) {
        const id = list[i]!;
        const ft = list[i + 1]!;
        const fc = list[i + 2]!;
        let s = 0;
        if (ft > 0) s += (idfText * ft * (K1 + 1)) / (ft + ct + lt * this.textLength[id]!);
        if (fc > 0 && idfContext > 0) s += (idfContext * fc * (K1 + 1)) / (fc + ct + lc * this.contextLength[id]!);
        const doc = this.docs[id]!;
        if (s <= 0 || !doc.alive || (accept && !accept(doc.value))) continue;
        if (scores[id] === 0) touched.push(id);
        scores[id]! += s;
      }
    }
    return topK(touched, scores, limit).map((id) => ({ value: this.docs[id]!.value, score: scores[id]! }));
  }
}

/** The `k` ids of highest score, best first, ties to the lower id, without sorting them all (a bounded min-heap). */
function topK(ids: number[], scores: Float64Array, k: number): number[] {
  const worse = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && a > b);
  const heap: number[] = [];
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const id of ids) {
    if (heap.length < k) {
      heap.push(id);
      for (let i = heap.length - 1; i > 0;) {
        const p = (i - 1) >> 1;
        if (!worse(heap[i]!, heap[p]!)) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    } else if (worse(heap[0]!, id)) {
      heap[0] = id;
      down(0);
    }
  }
  return heap.sort((a, b) => scores[b]! - scores[a]! || a - b);
}
