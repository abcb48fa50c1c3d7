/**
 * The lexical baseline of bench-data/bm25-baseline.mjs, ported line for line so that
 * bench:locomo can run it in the same process, over the same turns, as Charlie's recall:
 * BM25 k1 = 1.2, b = 0.75, lower-case, split on non-alphanumerics, its 75 stop words, each
 * query term counted once, only positive scores returned, ties to the earlier turn.
 * Kept apart from src/: it is a yardstick, not part of recall.
 */

const K1 = 1.2;
const B = 0.75;

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her hers him his how ' +
    'i if in into is it its me my of on or our she so than that the their them then there these they this ' +
    'those to was we were what when where which who whom why will with would you your s t d ll m re ve'
  ).split(' '),
);

/** The unit text the LoCoMo RAG code embeds (and the baseline indexes). */
export function turnText(turn: { speaker: string; text: string; blip_caption?: string }): string {
  let s = `${turn.speaker} said, "${turn.text}"`;
  if (turn.blip_caption) s += ` and shared ${turn.blip_caption}`;
  return s;
}

function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t && !STOP_WORDS.has(t));
}

export interface Bm25Index {
  postings: Map<string, [doc: number, tf: number][]>;
  lengths: Float64Array;
  avgdl: number;
  idf: Map<string, number>;
  n: number;
}

export function buildBm25(docs: string[]): Bm25Index {
  const postings = new Map<string, [number, number][]>();
  const lengths = new Float64Array(docs.length);
  docs.forEach((text, d) => {
    const tf = new Map<string, number>();
    const toks = tokenize(text);
    lengths[d] = toks.length;
    for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, c] of tf) {
      let list = postings.get(t);
      if (!list) postings.set(t, (list = []));
      list.push([d, c]);
    }
  });
  const n = docs.length;
  const avgdl = lengths.reduce((a, b) => a + b, 0) / Math.max(n, 1);
  const idf = new Map<string, number>();
  for (const [t, list] of postings) idf.set(t, Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5)));
  return { postings, lengths, avgdl, idf, n };
}

/** Indexes of the best `k` documents, best first. */
export function searchBm25(index: Bm25Index, query: string, k: number): number[] {
  const scores = new Float64Array(index.n);
  const touched = new Set<number>();
  for (const t of new Set(tokenize(query))) {
    const list = index.postings.get(t);
    if (!list) continue;
    const w = index.idf.get(t)!;
    for (const [d, tf] of list) {
      const norm = K1 * (1 - B + (B * index.lengths[d]!) / index.avgdl);
      scores[d]! += (w * tf * (K1 + 1)) / (tf + norm);
      touched.add(d);
    }
  }
  return [...touched]
    .filter((d) => scores[d]! > 0)
    .sort((a, b) => scores[b]! - scores[a]! || a - b)
    .slice(0, k);
}
