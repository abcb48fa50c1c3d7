/**
 * Fuses vector and keyword candidates into one ranked, explained list.
 *   similarity = wv·vector + wk·keyword          (keyword-led when vector similarity is not confident)
 *   score      = similarity × brevity × (1 + dated) × (1 + entity) × (1 + boost × usage) × (1 − wr + wr·recency)
 * where `entity` applies when the query names the chunk's speaker or note title, `dated` when it
 * names the day or month a conversation message was written, and `brevity` is a prior that
 * discounts very short conversation messages (see `brevityPrior`).
 */
import type { RecallHit } from '../../core/ports.js';
import type { ScoredChunk } from './project-table.js';
import { inSpan, isStopWord, terms, words, type DateSpan } from './text.js';

export interface RecallWeights {
  vector: number;
  keyword: number;
  /** Multiplier of the usage boost: similarity × (1 + boost × usage). */
  usage: number;
  /** Share of the score that depends on recency (0 = recency ignored). */
  recency: number;
  /** Below this best vector similarity, keyword results lead. */
  minSimilarity: number;
  /** Weight of a log message's neighbouring messages in keyword matching. */
  contextBoost: number;
  /** Boost of a chunk about someone or something the query names (speaker, note title). */
  entity: number;
  /** Hits scoring below this are dropped. */
  minScore: number;
  /**
   * Strength of the prior on short log messages, in content words (0 = none): messages with only a
   * word or two ("Take care!", "Thanks, Sam!") rarely hold what a question asks for.
   */
  brevity: number;
  /** Boost of a log message written on a date the query names ("on 13 October 2023", "in May 2023"). */
  dated: number;
}

export const DEFAULT_WEIGHTS: RecallWeights = {
  vector: 0.7,
  keyword: 0.3,
  usage: 0.3,
  recency: 0.1,
  minSimilarity: 0.35,
  contextBoost: 0.8,
  entity: 1,
  minScore: 0.02,
  brevity: 2,
  dated: 0.5,
};

const DAY_MS = 86_400_000;

/** Staleness 0 never fades; 10 halves in a day; each step roughly doubles the pace. */
export function recencyOf(updated: string, staleness: number, now: Date): number {
  if (staleness <= 0) return 1;
  const t = Date.parse(updated);
  if (Number.isNaN(t)) return 0.5;
  const ageDays = Math.max(0, (now.getTime() - t) / DAY_MS);
  const halfLifeDays = Math.pow(2, (10 - Math.min(10, staleness)) * 0.9);
  return Math.pow(0.5, ageDays / halfLifeDays);
}

/**
 * Document prior of a conversation message by its length in content words n: √((n + 1) / (n + 1 + b)).
 * Short chat turns are mostly phatic, yet BM25 length normalisation favours them when they
 * share one query word; this takes some of that back. It is near 1 from about ten content
 * words on, so it only reorders the very short. Notes are left alone (a short fact is a fact).
 */
export function brevityPrior(chunk: Pick<ScoredChunk, 'page' | 'text'>, b: number): number {
  if (b <= 0 || !chunk.page.startsWith('log/')) return 1;
  let n = 0;
  for (const w of words(chunk.text)) if (!isStopWord(w)) n++;
  return Math.sqrt((n + 1) / (n + 1 + b));
}

interface Candidate {
  chunk: ScoredChunk;
  vector: number;
  keyword: number;
  similarity: number;
}

const keyOf = (page: string, line: number) => `${page}#${line}`;

export class Fusion {
  private readonly candidates = new Map<string, Candidate>();
  private readonly wv: number;
  private readonly wk: number;
  readonly confident: boolean;

  constructor(
    vector: ScoredChunk[],
    keyword: ScoredChunk[],
    private readonly weights: RecallWeights,
    /** Stemmed terms of the query, for the entity match. */
    private readonly queryTerms: ReadonlySet<string> = new Set(),
    /** Calendar dates the query names, for the date match. */
    private readonly dates: readonly DateSpan[] = [],
  ) {
    for (const c of vector) this.candidates.set(keyOf(c.page, c.lineStart), { chunk: c, vector: Math.max(0, c.score), keyword: 0, similarity: 0 });
    const maxKeyword = keyword.reduce((m, c) => Math.max(m, c.score), 0);
    for (const c of keyword) {
      const k = maxKeyword > 0 ? c.score / maxKeyword : 0;
      const entry = this.candidates.get(keyOf(c.page, c.lineStart));
      if (entry) entry.keyword = k;
      else this.candidates.set(keyOf(c.page, c.lineStart), { chunk: c, vector: 0, keyword: k, similarity: 0 });
    }
    const bestVector = vector.reduce((m, c) => Math.max(m, c.score), 0);
    this.confident = bestVector >= weights.minSimilarity;
    const w = weights;
    [this.wv, this.wk] = this.confident || maxKeyword === 0 ? [w.vector, w.keyword] : [Math.min(w.vector, w.keyword), Math.max(w.vector, w.keyword)];
    for (const c of this.candidates.values()) c.similarity = this.wv * c.vector + this.wk * c.keyword;
  }

  /** A conversation message written within a date the query names (notes' dates are edit times). */
  private isDated(chunk: ScoredChunk): boolean {
    if (!chunk.page.startsWith('log/')) return false;
    const t = Date.parse(chunk.updated);
    return !Number.isNaN(t) && this.dates.some((d) => inSpan(t, d));
  }

  rank(boostOf: (page: string) => number, now: Date, limit: number): RecallHit[] {
    const w = this.weights;
    const boosts = new Map<string, number>();
    const entities = new Map<string, boolean>();
    const named = (entity: string) => {
      let hit = entities.get(entity);
      if (hit === undefined) entities.set(entity, (hit = entity !== '' && terms(entity).some((t) => this.queryTerms.has(t))));
      return hit;
    };
    const hits: RecallHit[] = [];
    for (const { chunk, vector, keyword, similarity } of this.candidates.values()) {
      let boost = boosts.get(chunk.page);
      if (boost === undefined) boosts.set(chunk.page, (boost = Math.min(1, Math.max(0, boostOf(chunk.page)))));
      const recency = recencyOf(chunk.updated, chunk.staleness, now);
      const entity = named(chunk.entity) ? w.entity : 0;
      const prior = brevityPrior(chunk, w.brevity);
      const dated = w.dated > 0 && this.dates.length > 0 && this.isDated(chunk) ? w.dated : 0;
      const score = similarity * prior * (1 + dated) * (1 + entity) * (1 + boost * w.usage) * (1 - w.recency + w.recency * recency);
      if (score < w.minScore) continue;
      const why: string[] = [];
      if (vector >= w.minSimilarity) why.push('vector');
      if (keyword > 0) why.push(this.confident ? 'keyword' : 'keyword-fallback');
      if (entity > 0) why.push('entity');
      if (dated > 0) why.push('date');
      if (boost >= 0.05) why.push('usage');
      if (w.recency > 0 && recency >= 0.5) why.push('recent');
      hits.push({
        page: chunk.page,
        heading: chunk.heading,
        lineStart: chunk.lineStart,
        lineEnd: chunk.lineEnd,
        text: chunk.text,
        updated: chunk.updated,
        staleness: chunk.staleness,
        score,
        parts: { vector, keyword, usage: boost, recency },
        why,
      });
    }
    hits.sort((a, b) => b.score - a.score || a.page.localeCompare(b.page) || a.lineStart - b.lineStart);
    return hits.slice(0, limit);
  }
}
