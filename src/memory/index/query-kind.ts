/**
 * A light, model-free classifier of what a question asks for, which picks the weights of
 * recall's passes: a question about when something happened leans on time, one about a
 * person on who they are and what they did, one about tastes on preferences.
 */
import { dateSpans } from './text.js';
import { RECENTLY, timeAnchors, type TimeWindow } from './time-anchors.js';
import type { DateSpan } from './text.js';
import type { RecallWeights } from './fusion.js';

export type QueryKind = 'temporal' | 'person' | 'preference' | 'general';

/** Record categories (DESIGN.md "Knowledge layer") a kind of question prefers, best first. */
export const PREFERRED_CATEGORIES: Record<QueryKind, readonly string[]> = {
  temporal: ['episode', 'commitment', 'decision'],
  person: ['identity', 'episode', 'relationship'],
  preference: ['preference', 'rule'],
  general: [],
};

export interface QueryShape {
  kind: QueryKind;
  /** The question itself (for words that name a record type, e.g. "decide"). */
  query?: string;
  /** Windows resolved from relative anchors ("last week") against the conversation's time. */
  windows: TimeWindow[];
  /** Calendar dates named outright ("13 October 2023", "in May 2023"). */
  dates: DateSpan[];
  /** Whether the question names a time at all (then recency is not preferred). */
  namesTime: boolean;
  /** Whether it asks for what is recent ("recently", "lately", "latest"): recency counts more. */
  recent?: boolean;
  /** Whether it asks when, how long or how often: messages that tell a time count more. */
  asksWhen?: boolean;
}

const PREFERENCE = /\b(?:like[sd]?|love[sd]?|enjoys?|prefers?|preferences?|favou?rites?|hates?|dislikes?|into|fan of|tastes?|wants?|wish(?:es)?)\b/i;
const TEMPORAL = /\b(?:when|what (?:date|day|time|year|month)|how long ago|since when)\b/i;
const ASKS_WHEN = /\b(?:when|what (?:date|day|time|year|month)|how long|how often|since when)\b/i;
const PERSON = /\b(?:who(?:'s| is| was)?|about (?:him|her|them)|what does \p{Lu}\p{L}+ do|(?:his|her|their) (?:job|work|role|family|partner|wife|husband|kids?|children|name|age|birthday))\b/iu;

export function classifyQuery(query: string, now: Date): QueryShape {
  const windows = timeAnchors(query, now);
  const dates = dateSpans(query);
  const namesTime = windows.length > 0 || dates.length > 0;
  let kind: QueryKind = 'general';
  const recent = !namesTime && RECENTLY.test(query);
  if (namesTime || recent || TEMPORAL.test(query)) kind = 'temporal';
  else if (PREFERENCE.test(query)) kind = 'preference';
  else if (PERSON.test(query)) kind = 'person';
  return { kind, query, windows, dates, namesTime, recent, asksWhen: ASKS_WHEN.test(query) };
}

/** Factors on some of the weights, for one kind of question. */
export type WeightFactors = Partial<Record<keyof RecallWeights, number>>;

/**
 * Recall's weights per kind of question (the classifier in query-kind.ts picks the row), as
 * factors on the configured ones, so a setting still scales every kind. Measured on the LoCoMo
 * dev split with `npm run tune:locomo -- --by-kind`, each kind's weights chosen on four
 * conversations and scored on the fifth:
 * - a question about *when* leans harder on who said it: "when did Melanie go camping?" is
 *   answered in Melanie's own words, while the other person's "how was the trip?" shares
 *   as many of its words;
 * - a question about *tastes* leans harder on the thread: "what do you love about it?" is asked
 *   in one message and answered in the next, in words the question does not use.
 */
export const KIND_WEIGHTS: Record<QueryKind, WeightFactors> = {
  temporal: { entity: 5 / 3 },
  preference: { thread: 1.5 },
  person: {},
  general: {},
};

/** The weights for one kind of question: the configured ones times that kind's factors. */
export function weightsForKind(weights: RecallWeights, kind: QueryKind, byKind: Record<QueryKind, WeightFactors> = KIND_WEIGHTS): RecallWeights {
  const out = { ...weights };
  for (const [field, factor] of Object.entries(byKind[kind]) as [keyof RecallWeights, number][]) out[field] = weights[field] * factor;
  return out;
}
