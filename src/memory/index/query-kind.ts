/**
 * A light, model-free classifier of what a question asks for: a question about when something
 * happened prefers dated entries and episodes, one about a person their identity records, one
 * about tastes preferences (PREFERRED_CATEGORIES). The per-kind weight factors it once chose
 * measured no better than none on LoCoMo and BEAM dev (docs/retrieval.md) and are gone.
 */
import { dateSpans } from './text.js';
import { RECENTLY, timeAnchors, type TimeWindow } from './time-anchors.js';
import type { DateSpan } from './text.js';

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
  /** Whether the asker speaks of themselves ("what did I say", "my budget"): their own messages count more than the assistant's replies. */
  firstPerson?: boolean;
  /** Whether it asks what the assistant said ("what did you recommend", "your advice"): then its replies are not ranked below the asker's messages. */
  asksAssistant?: boolean;
  /** Whether it asks for a summary ("summarize", "an overview of"): then hits are spread over the conversation. */
  summary?: boolean;
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
  return {
    kind,
    query,
    windows,
    dates,
    namesTime,
    recent,
    asksWhen: ASKS_WHEN.test(query),
    firstPerson: firstPerson(query),
    asksAssistant: asksAssistant(query),
    summary: asksSummary(query),
  };
}

/** Whether `query` speaks in the first person: "I" (capital, so not a Roman numeral in "part i"), "me", "my", "mine", "myself". */
export function firstPerson(query: string): boolean {
  return /\bI(?:['’](?:m|ve|d|ll))?\b/u.test(query) || /\b(?:me|my|mine|myself)\b/i.test(query);
}

/**
 * Verbs of advice and telling, in the past ("you recommended", "did you suggest"): a question in
 * the present ("can you give me…", "could you tell me…") is a request, not about what was said.
 * Each entry is [base form, past form].
 */
export const ASSISTANT_VERBS: readonly (readonly [string, string])[] = [
  ['recommend', 'recommended'],
  ['suggest', 'suggested'],
  ['advise', 'advised'],
  ['tell', 'told'],
  ['say', 'said'],
  ['explain', 'explained'],
  ['mention', 'mentioned'],
  ['propose', 'proposed'],
  ['show', 'showed'],
  ['give', 'gave'],
  ['outline', 'outlined'],
  ['describe', 'described'],
];
/** What the assistant gave, named as its own: "your suggestion", "the advice you gave". */
export const ASSISTANT_NOUNS: readonly string[] = ['suggestion', 'advice', 'recommendation', 'explanation', 'tip', 'answer', 'reply', 'idea', 'feedback'];
/** Words that ask for a summary of a conversation. */
export const SUMMARY_WORDS: readonly string[] = ['summary', 'summaries', 'summarize', 'summarise', 'summarizing', 'summarising', 'recap', 'overview', 'sum up'];

const alt = (xs: readonly string[]) => xs.map((x) => x.replace(/ /g, '\\s+')).join('|');
const ASKS_ASSISTANT = new RegExp(
  `\\b(?:did\\s+you\\s+(?:${alt(ASSISTANT_VERBS.map((v) => v[0]))})|you(?:['’]ve|\\s+have|\\s+had)?\\s+(?:${alt(ASSISTANT_VERBS.map((v) => v[1]))})|your\\s+(?:${alt(ASSISTANT_NOUNS)})s?)\\b`,
  'i',
);
const SUMMARY = new RegExp(`\\b(?:${alt(SUMMARY_WORDS)})\\b`, 'i');

/** Whether `query` asks about what the assistant said or advised ("what did you recommend", "your suggestion"). */
export function asksAssistant(query: string): boolean {
  return ASKS_ASSISTANT.test(query);
}

/** Whether `query` asks for a summary ("summarize how my project went", "an overview of"). */
export function asksSummary(query: string): boolean {
  return SUMMARY.test(query);
}
