/**
 * The scoring loop of the in-memory keyword index (lexical.ts): BM25 of a chunk's text plus a
 * weight times BM25 of its context, summed over the query's terms, and the best `limit` chunks.
 *
 * A common word's list holds most of a large table: at a million chunks of bench:recall's corpus
 * a query's words held up to a million (document, frequency) pairs, and walking them all was the
 * keyword pass's 80–118 ms at the slowest searches (its p50 17 ms). So the walk stops early the
 * way MaxScore does (Turtle & Flood, 1995; what Lucene and PISA use for top-k BM25): a term can add
 * at most `idf × (k1 + 1)` to a chunk (the saturation of its frequency), so with the terms taken
 * rarest first, once the `limit`-th best score so far is above everything the remaining terms
 * could add, a chunk none of the terms so far found can no longer enter the top `limit`. The
 * remaining terms then only complete the scores of the chunks already found, each looked up in
 * the term's list (ordered by document) by binary search, and the result is the same as the full
 * walk's: the same chunks, the same scores.
 */
import { topK } from './top-k.js';

export const K1 = 1.2;
export const B = 0.75;
/** A pooled pair's frequencies, text << 8 | context, when both are below NARROW; else ESCAPED and the exact pair (text << 16 | context) in `wide`. */
export const NARROW = 0xff;
export const ESCAPED = 0xffff;
/** Term frequencies are kept in 16 bits each (a chunk repeating a word 65,535 times counts that many). */
export const MAX_TF = 0xffff;

/** One query term: its weights and where its (document, frequencies) pairs are, in document order. */
export interface TermPostings {
  idfText: number;
  /** The context's idf times the context's weight (0: the term is in no context, or the weight is 0). */
  idfContext: number;
  /** Pooled pairs: `ids[i]`, `tf[i]` for i in [start, end). */
  start: number;
  end: number;
  /** Pairs added since the pool was built (document ids above the pool's): id, text << 16 | context, at even and odd places up to `addedLength`. */
  added: Int32Array | null;
  addedLength: number;
}

/** The documents' side: pooled pairs, lengths, liveness, the filter, and the reusable buffers. */
export interface ScanContext {
  ids: Int32Array;
  tf: Uint16Array;
  wide: ReadonlyMap<number, number>;
  textLength: Int32Array;
  contextLength: Int32Array;
  alive: Int32Array;
  avgText: number;
  avgContext: number;
  accept?: (id: number) => boolean;
  /** Scores by document, all 0 before and after a scan. */
  scores: Float64Array;
  /** Room for every document's id (those scored, in the order first scored). */
  touched: Int32Array;
}

/** What a term can add to one chunk at most: BM25's frequency part is below k1 + 1. */
const bound = (t: TermPostings) => (t.idfText + Math.max(0, t.idfContext)) * (K1 + 1);
const pairs = (t: TermPostings) => t.end - t.start + t.addedLength / 2;
/** A binary search (about 20 steps in a list of a million) against a step of the walk. */
const LOOKUP_RATIO = 16;

/** The best `limit` document ids with their scores, best first, ties to the lower id. */
export function scan(terms: TermPostings[], limit: number, c: ScanContext): { id: number; score: number }[] {
  const { ids, tf, wide, textLength, contextLength, alive, accept, scores, touched } = c;
  const ct = K1 * (1 - B);
  const lt = (K1 * B) / c.avgText;
  const lc = (K1 * B) / c.avgContext;
  let found = 0;
  // rarest first: the bound of what is left falls fastest
  const ordered = [...terms].sort((a, b) => bound(b) - bound(a));
  const left = ordered.map(bound);
  for (let j = left.length - 2; j >= 0; j--) left[j]! += left[j + 1]!;
  let onlyFound = false;
  try {
    for (let j = 0; j < ordered.length; j++) {
      const t = ordered[j]!;
      const { idfText, idfContext } = t;
      const add = (id: number, ft: number, fc: number) => {
        let s = 0;
        if (ft > 0) s += (idfText * ft * (K1 + 1)) / (ft + ct + lt * textLength[id]!);
        if (fc > 0 && idfContext > 0) s += (idfContext * fc * (K1 + 1)) / (fc + ct + lc * contextLength[id]!);
        if (s <= 0) return;
        if (scores[id] === 0) {
          if (onlyFound || !alive[id] || (accept && !accept(id))) return;
          touched[found++] = id;
        }
        scores[id]! += s;
      };
      // is the walk of what is left longer than looking up each chunk found, and can a new chunk no longer make the top?
      if (!onlyFound && found >= limit && remainingPairs(ordered, j) > found && kthBest(touched, found, scores, limit) > left[j]!) onlyFound = true;
      // a list far longer than the chunks found is looked into for each of them; a shorter one is walked, adding to those found only
      if (onlyFound && pairs(t) > found * LOOKUP_RATIO) {
        for (let k = 0; k < found; k++) {
          const id = touched[k]!;
          const packed = pairOf(t, id, c);
          if (packed >= 0) add(id, packed >>> 16, packed & MAX_TF);
        }
        continue;
      }
      for (let i = t.start; i < t.end; i++) {
        const f = tf[i]!;
        if (f !== ESCAPED) add(ids[i]!, f >>> 8, f & NARROW);
        else {
          const packed = wide.get(i)!;
          add(ids[i]!, packed >>> 16, packed & MAX_TF);
        }
      }
      const more = t.added;
      if (more) for (let i = 0; i < t.addedLength; i += 2) add(more[i]!, more[i + 1]! >>> 16, more[i + 1]! & MAX_TF);
    }
    return topK(touched.subarray(0, found), scores, limit).map((id) => ({ id, score: scores[id]! }));
  } finally {
    // the buffer is kept for the next search, all 0 again
    for (let k = 0; k < found; k++) scores[touched[k]!] = 0;
  }
}

function remainingPairs(terms: TermPostings[], from: number): number {
  let n = 0;
  for (let j = from; j < terms.length; j++) n += pairs(terms[j]!);
  return n;
}

/** The `k`-th highest score among the first `found` touched documents. */
function kthBest(touched: Int32Array, found: number, scores: Float64Array, k: number): number {
  const best = topK(touched.subarray(0, found), scores, k);
  return scores[best[best.length - 1]!]!;
}

/** Document `id`'s pair in term `t`'s lists (text << 16 | context), or -1 when the term is not in it. */
function pairOf(t: TermPostings, id: number, c: ScanContext): number {
  const { ids, tf } = c;
  let lo = t.start;
  let hi = t.end - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = ids[mid]!;
    if (at === id) {
      const f = tf[mid]!;
      return f === ESCAPED ? c.wide.get(mid)! : ((f >>> 8) << 16) | (f & NARROW);
    }
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  const more = t.added;
  if (!more) return -1;
  lo = 0;
  hi = t.addedLength / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = more[2 * mid]!;
    if (at === id) return more[2 * mid + 1]!;
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
