/**
 * Fuses the passes of recall — vector, keyword, temporal — into one ranked, explained list.
 *   similarity = wv·vector + wk·keyword          (keyword-led when vector similarity is not confident)
 *                + thread × mean similarity of the messages just before and after (archive messages)
 *   score      = (similarity + floor) × timely × brevity × (1 + dated) × (1 + told) × (1 + category)
 *                × (1 + entity) × (1 + own) × (1 + reply) × (1 + boost × usage) × (1 − wr + wr·recency)
 * where `entity` applies when the query names the chunk's speaker or note title; `dated` (the
 * temporal pass) when the chunk was said or happened within a time the query names — a calendar
 * date or a relative anchor ("last week") resolved against the conversation's time — and then
 * `floor` lifts it even when few of its words match, while `timely` discounts a dated entry
 * outside every relative window the query names; `category` when the chunk's record type is
 * one the kind of question prefers (see query-kind.ts); `brevity` discounts very short
 * conversation messages (see `brevityPrior`); `told` when the question asks when, how long or
 * how often and the text tells a time ("last Friday", "in 2019", "for three years", "twice a
 * week"); `own` when the question speaks in the first person ("when did I mention…") and the
 * chunk is a message a person wrote, not one of the assistant's replies — except when the question
 * asks what the assistant said ("how did you recommend…"; then `reply` lifts the replies) or
 * for a summary (then `spread` spreads the top hits over the archive's days, spreadOverPages).
 * `thread` is there because an answer
 * is a reply: the message after "What got you into running?" holds why, in words of its own.
 * Recency counts only when the query names no time. Each signal's measured effect on LoCoMo and
 * BEAM dev is in docs/retrieval.md; `rrf` is off by default, `brevity` is mild (1) and spares
 * the asker's own messages when the question is about themselves (then `own` applies).
 * A passage of typed records is then multiplied by their best effective confidence (decay by
 * category, src/memory/records/decay.ts); held and superseded records are cut from its text,
 * and a passage left with none is not returned.
 */
import type { RecallHit } from '../../core/ports/index.js';
import type { ScoredChunk } from './project-table.js';
import { PREFERRED_CATEGORIES, type QueryShape } from './query-kind.js';
import { inSpan, terms } from './text.js';
import { inWindow, tellsTime } from './time-anchors.js';
import { brevityPrior, categoryOf, entryTime, ownMessage, passageRecords, recencyOf } from './passage-facts.js';

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
  /** Boost of an entry said or happened within a time the query names ("on 13 October 2023", "last week"). */
  dated: number;
  /** Boost of an entry said or happened within a relative time the query names ("last week", "yesterday"). */
  window: number;
  /** Similarity added to such an entry, so it ranks even with few words in common. */
  windowFloor: number;
  /** Discount of a dated entry outside every time the query names (0 = none). */
  outside: number;
  /** Boost of a record whose type the kind of question prefers (identity for "who", preference for "what do I like"). */
  category: number;
  /** Entity hop: the most a matching note lifts the pages it links to (× (1 + hop)). */
  hop: number;
  /** Boost of a message that tells a time ("last Friday", "in 2019", "twice a week") for a question that asks when, how long or how often. */
  tellsTime: number;
  /** Share of the neighbouring messages' similarity a message borrows (see liftByThread). */
  thread: number;
  /**
   * Reciprocal rank fusion constant: when above 0, similarity = (wv / (rrf + vector rank) +
   * wk / (rrf + keyword rank)) scaled to 1 for a chunk first in both, instead of the weighted
   * sum of the scores (ranks are 1-based; a chunk a pass did not find adds nothing).
   */
  rrf: number;
  /**
   * Boost of a person's own archive message over the assistant's replies when the question speaks
   * in the first person ("when did I mention…", "my budget"): the asker's facts are in what they wrote.
   */
  own: number;
  /**
   * Boost of the assistant's replies when the question asks what the assistant said ("what did
   * you recommend", "your advice"); `own` does not apply to such a question, nor to a summary.
   */
  replies: number;
  /**
   * For a summary question, the discount of each further hit from a page (a day of the archive)
   * that already has one among the top hits: score × (1 − spread)^n, so hits spread over the conversation.
   */
  spread: number;
}

export const DEFAULT_WEIGHTS: RecallWeights = {
  vector: 0.7,
  keyword: 0.3,
  usage: 0.3,
  recency: 0.1,
  minSimilarity: 0.35,
  contextBoost: 0.8,
  entity: 0.6,
  minScore: 0.02,
  brevity: 1,
  dated: 0.5,
  window: 1,
  windowFloor: 0.3,
  outside: 0.5,
  category: 0.3,
  hop: 0.15,
  tellsTime: 0.7,
  thread: 0.4,
  rrf: 0,
  own: 0.7,
  replies: 0.3,
  spread: 0.15,
};

/** A question that names no time and asks no particular kind of thing. */
export const PLAIN_QUERY: QueryShape = { kind: 'general', windows: [], dates: [], namesTime: false };

const DECIDING = /\b(?:decid\w*|decision\w*|agree[ds]?|settled on|chose|chosen)\b/i;

interface Candidate {
  chunk: ScoredChunk;
  vector: number;
  keyword: number;
  similarity: number;
}

const keyOf = (page: string, line: number) => `${page}#${line}`;

/**
 * The first `limit` hits, best first, with one place per archive message: a long message's
 * sections after its best one are left out, so one message cannot crowd the top hits.
 */
export function onePerMessage(sorted: readonly RecallHit[], limit: number): RecallHit[] {
  const seen = new Set<string>();
  const out: RecallHit[] = [];
  for (const h of sorted) {
    if (out.length >= limit) break;
    if (h.message !== undefined) {
      const key = keyOf(h.page, h.message);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push(h);
  }
  return out;
}

export class Fusion {
  private readonly candidates = new Map<string, Candidate>();
  private readonly wv: number;
  private readonly wk: number;
  private readonly preferred: Set<string>;
  readonly confident: boolean;

  constructor(
    vector: ScoredChunk[],
    keyword: ScoredChunk[],
    private readonly weights: RecallWeights,
    /** Stemmed terms of the query, for the entity match. */
    private readonly queryTerms: ReadonlySet<string> = new Set(),
    /** What the question asks for and the times it names (see query-kind.ts). */
    private readonly shape: QueryShape = PLAIN_QUERY,
    /** Chunks said within the windows the question names (the temporal pass), scored by vector similarity. */
    temporal: ScoredChunk[] = [],
  ) {
    for (const c of vector) this.candidates.set(keyOf(c.page, c.lineStart), { chunk: c, vector: Math.max(0, c.score), keyword: 0, similarity: 0 });
    for (const c of temporal) {
      const key = keyOf(c.page, c.lineStart);
      if (!this.candidates.has(key)) this.candidates.set(key, { chunk: c, vector: Math.max(0, c.score), keyword: 0, similarity: 0 });
    }
    this.preferred = new Set(PREFERRED_CATEGORIES[shape.kind]);
    if (DECIDING.test(shape.query ?? '')) this.preferred.add('decision');
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
    if (weights.rrf > 0) this.fuseRanks(vector, keyword, weights.rrf);
    else for (const c of this.candidates.values()) c.similarity = this.wv * c.vector + this.wk * c.keyword;
    if (weights.thread > 0) this.liftByThread(weights.thread);
  }

  /** Reciprocal rank fusion of the vector and keyword passes (see RecallWeights.rrf). */
  private fuseRanks(vector: ScoredChunk[], keyword: ScoredChunk[], k: number): void {
    const top = (this.wv + this.wk) / (k + 1);
    const add = (list: ScoredChunk[], weight: number) =>
      [...list]
        .sort((a, b) => b.score - a.score)
        .forEach((c, i) => {
          const entry = this.candidates.get(keyOf(c.page, c.lineStart));
          if (entry) entry.similarity += weight / (k + i + 1) / top;
        });
    add(vector, this.wv);
    add(keyword, this.wk);
  }

  /**
   * A conversation message borrows from the messages just before and after it (the question it
   * answers, the reply it got): similarity += thread × mean of theirs. Messages of a log page are
   * one blank line apart, so the next one starts two lines after this one ends.
   */
  private liftByThread(thread: number): void {
    const ends = new Map<string, Candidate>();
    for (const c of this.candidates.values()) if (c.chunk.page.startsWith('log/')) ends.set(keyOf(c.chunk.page, c.chunk.lineEnd), c);
    const lifted = new Map<Candidate, number>();
    for (const c of this.candidates.values()) {
      if (!c.chunk.page.startsWith('log/')) continue;
      const prev = ends.get(keyOf(c.chunk.page, c.chunk.lineStart - 2))?.similarity ?? 0;
      const next = this.candidates.get(keyOf(c.chunk.page, c.chunk.lineEnd + 2))?.similarity ?? 0;
      lifted.set(c, c.similarity + (thread * (prev + next)) / 2);
    }
    for (const [c, s] of lifted) c.similarity = s;
  }

  /**
   * How an entry's time relates to the times the query names: within a relative window, on a
   * calendar date, 'outside' every relative window, or '' (no time named, or the text has no date).
   */
  private timeMatch(chunk: ScoredChunk): 'window' | 'date' | 'outside' | '' {
    if (!this.shape.namesTime) return '';
    const { time: t, happened } = entryTime(chunk);
    if (Number.isNaN(t)) return '';
    // a year-long window asks when a thing happened: a said time says nothing about that
    const windows = happened ? this.shape.windows : this.shape.windows.filter((w) => !w.long);
    if (windows.some((w) => inWindow(t, w))) return 'window';
    // calendar dates without a year match any year: only messages are dated that loosely
    if (chunk.page.startsWith('log/') && this.shape.dates.some((d) => inSpan(t, d))) return 'date';
    // a question that also names a calendar date is anchored on that date, not on today
    return windows.length > 0 && this.shape.dates.length === 0 ? 'outside' : '';
  }

  /** The candidates' pages, each once (their usage boosts are read at once before `rank`). */
  pages(): string[] {
    return [...new Set(Array.from(this.candidates.values(), (c) => c.chunk.page))];
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
      const time = this.timeMatch(chunk);
      const dated = time === 'window' ? w.window : time === 'date' ? w.dated : 0;
      const floor = time === 'window' ? w.windowFloor : 0;
      const timely = time === 'outside' ? 1 - w.outside : 1;
      const told = w.tellsTime > 0 && this.shape.asksWhen && tellsTime(chunk.text) ? w.tellsTime : 0;
      const aboutReplies = this.shape.asksAssistant === true || this.shape.summary === true;
      const own = w.own > 0 && this.shape.firstPerson && !aboutReplies && ownMessage(chunk) ? w.own : 0;
      const reply = w.replies > 0 && this.shape.asksAssistant && chunk.page.startsWith('log/') && !ownMessage(chunk) ? w.replies : 0;
      // the asker's own short message is a statement of theirs, not a chat turn between others
      const prior = own > 0 ? 1 : brevityPrior(chunk, w.brevity);
      const category = this.preferred.size > 0 && this.preferred.has(categoryOf(chunk)) ? w.category : 0;
      // a question that names a time wants that time, not the latest; one that asks what is recent wants it more
      const wr = this.shape.namesTime ? 0 : this.shape.recent ? Math.min(1, w.recency * 3) : w.recency;
      const records = passageRecords(chunk, now);
      // nothing left but held or superseded records: out of retrieval
      if (!records.text) continue;
      const trust = records.confidence ?? 1;
      const score =
        (similarity + floor) * timely * prior * (1 + dated) * (1 + told) * (1 + category) * (1 + entity) * (1 + own) * (1 + reply) * (1 + boost * w.usage) * (1 - wr + wr * recency) * trust;
      // the discount for being outside the time asked about reorders; it does not drop what would be kept
      if (score < w.minScore * timely) continue;
      const why: string[] = [];
      if (vector >= w.minSimilarity) why.push('vector');
      if (keyword > 0) why.push(this.confident ? 'keyword' : 'keyword-fallback');
      if (entity > 0) why.push('entity');
      if (dated > 0) why.push('temporal');
      if (category > 0) why.push('category');
      if (own > 0) why.push('own');
      if (reply > 0) why.push('reply');
      if (boost >= 0.05) why.push('usage');
      if (wr > 0 && recency >= 0.5) why.push('recent');
      why.push(...records.flags);
      hits.push({
        page: chunk.page,
        heading: chunk.heading,
        lineStart: chunk.lineStart,
        lineEnd: chunk.lineEnd,
        text: records.text,
        updated: chunk.updated,
        staleness: chunk.staleness,
        sensitivity: chunk.sensitivity,
        score,
        parts: { vector, keyword, usage: boost, recency },
        ...(records.confidence !== undefined ? { confidence: records.confidence } : {}),
        ...(chunk.message !== undefined ? { message: chunk.message } : {}),
        why,
      });
    }
    hits.sort((a, b) => b.score - a.score || a.page.localeCompare(b.page) || a.lineStart - b.lineStart);
    const top = onePerMessage(hits, this.shape.summary && w.spread > 0 ? limit * 4 : limit);
    return this.shape.summary && w.spread > 0 ? spreadOverPages(top, w.spread, limit) : top;
  }
}

/**
 * The first `limit` hits when each further hit of a page counts (1 − spread)^n of its score, n
 * the hits of that page already taken: a summary wants the whole conversation, not one day of it.
 * Greedy (maximal marginal relevance with "same page" as the similarity); hits keep their scores.
 */
export function spreadOverPages(sorted: readonly RecallHit[], spread: number, limit: number): RecallHit[] {
  const left = [...sorted];
  const taken = new Map<string, number>();
  const out: RecallHit[] = [];
  while (out.length < limit && left.length > 0) {
    let best = 0;
    let bestScore = -Infinity;
    left.forEach((h, i) => {
      const s = h.score * Math.pow(1 - spread, taken.get(h.page) ?? 0);
      if (s > bestScore) [best, bestScore] = [i, s];
    });
    const [h] = left.splice(best, 1);
    out.push(h!);
    taken.set(h!.page, (taken.get(h!.page) ?? 0) + 1);
  }
  return out;
}
