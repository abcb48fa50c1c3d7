/**
 * The records that answer a question, the best of them by words (records/match.ts) ranked again
 * by meaning: a sentence embedder's cosine between the question and each record (its subject and
 * statement: "Sarah Chen: Works at Globex."), added to the words' score (scaled to the best
 * one's). The rules of the ranking by words stay: a record's standing (active, in review, held,
 * superseded) weighs its meaning as it weighs its words, and the current record of a subject and
 * attribute still comes before those it replaced. Only the best BY_MEANING are read again, so a
 * question costs the same at any project size. What each weight did on LoCoMo dev is in
 * docs/memory.md.
 */
import type { Embedder } from '../ports/index.js';
import { currentFirst, standing, type MatchableRecord, type Scored } from './match.js';

/** How many of the best by words are ranked again by meaning (LoCoMo dev, among 3: 10 → 456, 20 → 457, 30 → 459 of 549). */
export const BY_MEANING = 30;
/** The cosine's weight against the words' score scaled to 1 (LoCoMo dev, first / among 3: 0.5 → 379 / 458, 0.75 → 380 / 459, 1 → 381 / 457, 1.5 → 376 / 455). */
const MEANING_WEIGHT = 0.75;

/** What is embedded of a record: its subject with its statement (a statement alone often names nobody: "Works at Globex."). */
export const meaningText = (r: MatchableRecord) => `${r.pageTitle}: ${r.statement}`;

/**
 * `scored` (best first, as match.ts's `scoreRecords` gives it) with its best BY_MEANING ranked
 * again by meaning. Throws what the embedder throws (the caller falls back to the words' order
 * and says so).
 */
export async function byMeaning<T extends MatchableRecord>(scored: readonly Scored<T>[], question: string, embedder: Embedder): Promise<Scored<T>[]> {
  const pool = scored.slice(0, BY_MEANING);
  const best = pool[0]?.score ?? 0;
  if (pool.length < 2 || best <= 0) return [...scored];
  const [asked] = embedder.embedQuery ? [await embedder.embedQuery(question)] : await embedder.embed([question]);
  const vectors = await embedder.embed(pool.map((s) => meaningText(s.record)));
  if (!asked || vectors.length !== pool.length) throw new Error(`the sentence embedder returned ${String(vectors.length)} vectors for ${String(pool.length)} records`);
  const again = pool.map((s, k) => ({ ...s, score: s.score / best + MEANING_WEIGHT * cosine(asked, vectors[k]) * standing(s.record) }));
  return [...currentFirst(again.sort((a, b) => b.score - a.score || a.i - b.i)), ...scored.slice(BY_MEANING)];
}

/** The cosine of two unit vectors (the port's vectors are unit length); 0 for one that is missing or of another length. */
function cosine(a: Float32Array, b: Float32Array | undefined): number {
  if (!b || b.length !== a.length) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}
