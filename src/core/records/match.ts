/**
 * Which records answer a question ("why do you think that?", `/memory why where does Sarah
 * work`): the records themselves are searched — their statement, their subject (the page's title
 * and aliases) and the attribute they are about — never passages, so the answer does not drown
 * as the project's archive grows. BM25 over the records (inverse document frequency taken from
 * the records at hand, so a word every record shares counts for little), scaled by how much of
 * the question's weight the record holds (coverage), a bonus when the question asks for the
 * attribute a record is about ("where does … work" → employer), and the current record first: a
 * superseded or held one ranks below the current one it gave way to, and is shown as such. Cues
 * of the question count too: the person it names (their records before another's that mention
 * them), the day or month it names ("on 7 July, 2023", "in August 2023", "in August": the
 * records said then), the kind of answer it asks for (a name for "where", a person for "who", a
 * number for "how many", a name or title for "what book", "which restaurant") and a plan asked
 * about a plan. "What kind of …" asks for a thing, not for kindness. A record's source message,
 * when the holder passes it (`context`), is searched too at half weight, and the message before
 * it (`preceding`: what it answered) at a quarter (inspector/why.ts reads both for a project).
 * A question that shares no word with any record has no answer. Pure (what it read of a record is
 * remembered, bounded). Each weight's effect on LoCoMo dev is in docs/memory.md.
 */
import { stemmer } from 'stemmer';
import { foldAccents } from '../names.js';
import { isDated } from '../writing/gate-significance.js';
import { attributeOf } from './review.js';

/** What the ranking reads of a record (RecordView and a DM's row both have it). */
export interface MatchableRecord {
  statement: string;
  /** The subject: a page's title, a DM record's entity. */
  pageTitle: string;
  status: string;
  /** The record's `[about:: …]`, when it has one. */
  about?: string;
  /** When it was said (YYYY-MM-DD…), for a question that names a day or a month. */
  said?: string;
  /**
   * The text of the message that said it (its source), when the holder has it: searched too, at
   * CONTEXT_WEIGHT, for the words a distilled statement leaves out ("We even had a picnic").
   */
  context?: string;
  /**
   * The message just before that one in the archive (what it answered, mostly: "Where will you
   * stay?" before "Galway!"), searched too at PRECEDING_WEIGHT.
   */
  preceding?: string;
}

const STOP = new Set(
  (
    'a an the and or but if of to in on at by for with about from into over as is are was were be been being am do does did doing ' +
    'what which who whom whose where when why how that this these those there here it its he she they them his her their we us our you your i me my ' +
    'any some all not no so than then too very can could will would shall should may might must just also ever tell know think say charlie'
  ).split(' '),
);

/** Irregular forms Porter does not join ("has" → "ha", "have" → "have"). */
const IRREGULAR: Record<string, string> = {
  has: 'have',
  had: 'have',
  having: 'have',
  went: 'go',
  goes: 'go',
  gone: 'go',
  got: 'get',
  gotten: 'get',
  made: 'make',
  saw: 'see',
  seen: 'see',
  took: 'take',
  taken: 'take',
  bought: 'buy',
  met: 'meet',
  ran: 'run',
  told: 'tell',
  gave: 'give',
  given: 'give',
  came: 'come',
  felt: 'feel',
  left: 'leave',
  kept: 'keep',
  found: 'find',
  began: 'begin',
  begun: 'begin',
  wrote: 'write',
  written: 'write',
  won: 'win',
  lost: 'lose',
  children: 'child',
  kids: 'kid',
  people: 'person',
};

/** Content terms of a text: folded, lower-case, stop words out, stemmed. */
export function matchTerms(text: string): string[] {
  const out: string[] = [];
  for (const raw of foldAccents(text)
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .split(/[^\p{L}\p{N}]+/u)) {
    if (!raw || STOP.has(raw) || (raw.length === 1 && !/\d/.test(raw))) continue;
    out.push(IRREGULAR[raw] ?? (/^\d+$/.test(raw) ? raw : stemmer(raw)));
  }
  return out;
}

/**
 * What was read of a record before (its statement, subject and attribute): the same records are
 * read at every question, and reading (folding, splitting, stemming, the attribute's patterns) is
 * most of a question's time. Only records' own words are kept — they are in memory anyway, on
 * their pages — never the messages a holder passes, which are read afresh each time, nor a
 * DM's records (`remember: false`: they live only in private.db, and a wipe must leave nothing). Bounded:
 * emptied when full, so a large project reads again rather than holding more.
 */
const OWN_KEPT = 20_000;
const OWN = new Map<string, { words: readonly string[]; attribute: string; subject: readonly string[] }>();
function ownWords(record: MatchableRecord, remember: boolean): { words: readonly string[]; attribute: string; subject: readonly string[] } {
  const key = `${record.statement}\n${record.pageTitle}\n${record.about ?? ''}`;
  let own = OWN.get(key);
  if (own === undefined) {
    const attribute = attributeOf(record.statement, record.about);
    const subject = matchTerms(record.pageTitle);
    own = { words: [...matchTerms(record.statement), ...subject, ...matchTerms(attribute)], attribute, subject };
    if (remember) {
      if (OWN.size >= OWN_KEPT) OWN.clear();
      OWN.set(key, own);
    }
  }
  return own;
}

/** How many records' words are remembered (a DM's never are: a wipe leaves nothing of them in memory). */
export const rememberedRecords = () => OWN.size;

/** The attribute a question asks for, read from its words (the same names as review.ts's attributes). */
const ASKS: [string, RegExp][] = [
  ['employer', /\b(?:work(?:s|ing)?|job|employer|employed|company|hired)\b/i],
  ['home', /\b(?:live[sd]?|living|home|based|moved?|address)\b/i],
  ['partner', /\b(?:married|partner|wife|husband|dating|engaged|spouse)\b/i],
  ['birthday', /\b(?:birthday|born)\b/i],
  ['role', /\b(?:role|title|position)\b/i],
];

function askedAttributes(question: string): Set<string> {
  return new Set(ASKS.filter(([, re]) => re.test(question)).map(([a]) => a));
}

/** The current record first: active, then in review, then held, then superseded (a mild weight; see `currentFirst`). */
const STANDING: Record<string, number> = { active: 1, review: 0.95, held: 0.85, superseded: 0.8 };

const K1 = 1.2;
/** Length normalisation: records are one sentence each, so a long one is barely discounted (0.75 → 0.5: +0.7 pt on dev). */
const B = 0.5;
/** A word of the record's source message counts this much of a word of its statement (0.25: +4.0 pt on dev, 0.5: +5.8, 1: +4.9). */
const CONTEXT_WEIGHT = 0.5;
/** … and a word of the message before it (0.1: +1.9 pt on dev, 0.25: +2.8, 0.5: +1.3; the message after it as well: +1.5). */
const PRECEDING_WEIGHT = 0.25;
/**
 * The score is scaled by the share of the question's weight (IDF) the record holds, to this
 * power: a record that holds most of what is asked beats one that holds a single word many
 * times (0.25: +0.7 pt on dev, 0.5: +0.9, 1: +0.9).
 */
const COVERAGE = 0.5;
/** The bonus, in BM25 units, for a record about the attribute the question asks for. */
const ATTRIBUTE_BONUS = 1.5;
/** … for a record whose subject the question names ("what did Melanie paint": Melanie's records, not Caroline's that mention her). */
const SUBJECT_BONUS = 3;
/** … for a record that says when, asked "when …". */
const WHEN_BONUS = 0.5;
/** … for a record that holds what a "where", "who" or "how many" question asks for (a new name, a person, a number). */
const ANSWER_BONUS = 1;
/** … for a record that tells a plan, asked about one ("When is Melanie planning on going camping?"). */
const PLAN_BONUS = 1;
/** … for a record said within the day (± DATE_DAYS) or the month the question names. */
const DATE_BONUS = 3;
const DATE_DAYS = 7;
const DAY_MS = 86_400_000;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?`;
const DAY_MONTH_YEAR = new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s+${MONTH},?\s+(\d{4})\b`, 'i');
const MONTH_DAY_YEAR = new RegExp(String.raw`\b${MONTH}\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`, 'i');
const MONTH_YEAR = new RegExp(String.raw`\b${MONTH},?\s+(\d{4})\b`, 'i');
/** A month named alone ("in August", "the second week of November"): "may" only after a preposition, where it is not the verb. */
const MONTH_ALONE = new RegExp(String.raw`\b(?:in|during|of|since|by|early|late|mid|last|this)\s+${MONTH}(?![\w-]|\s*\d|,\s*\d)`, 'i');

/** A question's time: the span it names (ms), or a month of any year (0–11) when it names the month alone. */
type Span = [number, number] | number;

/** The span of time a question names ("on 7 July, 2023", "November 9, 2022": that day ± a week; "in August 2023": the month; "in August": August of any year). */
function namedSpan(question: string): Span | null {
  const month = (m: string | undefined) => MONTHS.indexOf((m ?? '').slice(0, 3).toLowerCase());
  const dmy = DAY_MONTH_YEAR.exec(question);
  const mdy = dmy ? null : MONTH_DAY_YEAR.exec(question);
  const day = dmy ? { d: dmy[1], m: dmy[2], y: dmy[3] } : mdy ? { d: mdy[2], m: mdy[1], y: mdy[3] } : null;
  if (day) {
    const t = Date.UTC(Number(day.y), month(day.m), Number(day.d));
    return [t - DATE_DAYS * DAY_MS, t + DATE_DAYS * DAY_MS];
  }
  const my = MONTH_YEAR.exec(question);
  if (!my) {
    const alone = MONTH_ALONE.exec(question);
    return alone ? month(alone[1]) : null;
  }
  return [Date.UTC(Number(my[2]), month(my[1]), 1), Date.UTC(Number(my[2]), month(my[1]) + 1, 1) - 1];
}

const saidWithin = (r: MatchableRecord, span: Span | null) => {
  const t = span !== null && r.said ? Date.parse(r.said.slice(0, 10)) : NaN;
  if (Number.isNaN(t) || span === null) return false;
  return typeof span === 'number' ? new Date(t).getUTCMonth() === span : t >= span[0] && t <= span[1];
};

/** What a question's answer is (a place, a person, a number, a name), read from its first words. */
type AnswerKind = 'place' | 'person' | 'number' | 'name';
/** Things that have names or titles: "what book …", "which film …" ask for a title, not for the word "book". */
const NAMED_THING =
  'books?|novels?|movies?|films?|shows?|series|games?|songs?|albums?|bands?|singers?|artists?|authors?|restaurants?|cafes?|shops?|stores?|apps?|teams?|brands?|compan(?:y|ies)|schools?|pets?|dogs?|cats?|breeds?|dish(?:es)?|recipes?|instruments?|sports?|languages?|podcasts?';
const ANSWER_KINDS: [AnswerKind, RegExp][] = [
  ['place', /^\s*(?:where\b|(?:in )?(?:which|what) (?:city|cities|country|countries|state|states|place|places|town|spot|park|restaurant|location|island|beach)\b)/i],
  ['person', /^\s*(?:who|whom|whose)\b/i],
  ['name', new RegExp(String.raw`^\s*(?:(?:what|which)\s+(?:\w+\s+)?(?:${NAMED_THING})\b|what(?:'s| is| was) (?:the )?name\b|what(?:'s| is| was| are) \w+(?:'s|s') favou?rite\b)`, 'i')],
  ['number', /^\s*how (?:many|much|often|long)\b(?! ago)/i],
];
/** A title in quotes ("'Dune'", "“Little Women”"): a name the capitals alone may not show. */
const TITLE = /(?:^|\s)['"‘“][^'"‘“’”]{2,}['"’”]/;
const NUMBER_WORD = /\b(?:\d+|once|twice|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|hundred|thousand|several|couple|few)\b/i;
const KIN =
  /\b(?:friends?|mom|mother|dad|father|parents?|aunt|auntie|uncle|sister|brother|siblings?|grand(?:ma|pa|mother|father)|mentor|coach|teacher|partner|wife|husband|son|daughter|cousin|neighbou?r|boss|colleague|roommate)\b/i;
const CALENDAR = /^(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;

/** The names a statement holds that are neither its subject's nor the question's ("Rome", "Whispering Falls"). */
function newNames(statement: string, known: ReadonlySet<string>): boolean {
  const words = statement.split(/[^\p{L}\p{N}'’]+/u).slice(1);
  return words.some(
    (w) =>
      /^\p{Lu}/u.test(w) &&
      w !== 'I' &&
      !CALENDAR.test(w) &&
      !known.has(
        foldAccents(w)
          .toLowerCase()
          .replace(/['’]s$/, ''),
      ),
  );
}

/** Whether a record holds the kind of thing the question asks for. */
function offers(kind: AnswerKind | undefined, statement: string, known: ReadonlySet<string>): boolean {
  if (kind === 'number') return NUMBER_WORD.test(statement);
  if (kind === 'place') return newNames(statement, known);
  if (kind === 'name') return newNames(statement, known) || TITLE.test(statement);
  if (kind === 'person') return KIN.test(statement) || newNames(statement, known);
  return false;
}

/** A question about what is to come ("When is Melanie planning on going camping?") and a record that tells a plan. */
const ASKS_PLAN = /\b(?:plan(?:s|ning|ned)?|going to|will|next|upcoming|intend(?:s|ing)?)\b/i;
const TELLS_PLAN = /\b(?:plan(?:s|ning|ned)?|going to|will|next|upcoming|intend(?:s|ing)?|hop(?:e|es|ing) to|want(?:s|ing)? to|consider(?:s|ing)?|thinking (?:of|about)|looking forward|soon)\b/i;

/** "What kind of meal …" asks for a meal: the phrase's words would match "kind words". */
const KIND_OF = /\b(what|which)\s+(?:kinds?|types?|sorts?)\s+of\b/gi;

interface Doc<T> {
  record: T;
  terms: Map<string, number>;
  length: number;
  attribute: string;
  /** The question names the record's subject. */
  named: boolean;
}

/**
 * The records that answer `question`, best first (at most `limit`); none when no record shares
 * a content word with it. Ties keep the records' order.
 */
export function rankRecords<T extends MatchableRecord>(records: readonly T[], question: string, limit = 3, options: { remember?: boolean } = {}): T[] {
  return scoreRecords(records, question, options)
    .slice(0, limit)
    .map((s) => s.record);
}

/** Every record that shares a word with `question`, with its score, best first (the current record before those it replaced). */
export function scoreRecords<T extends MatchableRecord>(records: readonly T[], question: string, { remember = true }: { remember?: boolean } = {}): Scored<T>[] {
  const asked = [...new Set(matchTerms(question.replace(KIND_OF, '$1')))];
  if (asked.length === 0) return [];
  const span = namedSpan(question);
  const wanted = askedAttributes(question);
  const askedSet = new Set(asked);
  const kind = ANSWER_KINDS.find(([, re]) => re.test(question))?.[0];
  const known = new Set(
    [...records.map((r) => r.pageTitle), question].flatMap((t) =>
      foldAccents(t)
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u),
    ),
  );
  const plan = ASKS_PLAN.test(question);
  const when = /^\s*(?:when|what (?:date|day|year|month|time)|how long ago)\b/i.test(question);
  const docs: Doc<T>[] = records.map((record) => {
    const { words, attribute, subject } = ownWords(record, remember);
    const terms = new Map<string, number>();
    for (const w of words) terms.set(w, (terms.get(w) ?? 0) + 1);
    const context = record.context ? matchTerms(record.context) : [];
    for (const w of context) terms.set(w, (terms.get(w) ?? 0) + CONTEXT_WEIGHT);
    const preceding = record.preceding ? matchTerms(record.preceding) : [];
    for (const w of preceding) terms.set(w, (terms.get(w) ?? 0) + PRECEDING_WEIGHT);
    return {
      record,
      terms,
      length: words.length + CONTEXT_WEIGHT * context.length + PRECEDING_WEIGHT * preceding.length,
      attribute,
      named: subject.length > 0 && subject.every((w) => askedSet.has(w)),
    };
  });
  const n = docs.length;
  const avg = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, n);
  const idf = new Map(
    asked.map((t) => {
      const df = docs.filter((d) => d.terms.has(t)).length;
      return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
    }),
  );
  /** The question's whole weight: what a record holding every word of it holds. */
  const weight = [...idf.values()].reduce((a, b) => a + b, 0);
  const scored: Scored<T>[] = [];
  docs.forEach((d, i) => {
    let score = 0;
    let held = 0;
    for (const t of asked) {
      const tf = d.terms.get(t) ?? 0;
      if (tf === 0) continue;
      const w = idf.get(t) ?? 0;
      held += w;
      score += (w * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.length) / Math.max(1, avg)));
    }
    if (score === 0) return;
    score *= (held / Math.max(1e-9, weight)) ** COVERAGE;
    if (d.attribute && wanted.has(d.attribute)) score += ATTRIBUTE_BONUS;
    if (d.named) score += SUBJECT_BONUS;
    if (when && isDated(d.record.statement)) score += WHEN_BONUS;
    if (offers(kind, d.record.statement, known)) score += ANSWER_BONUS;
    if (plan && TELLS_PLAN.test(d.record.statement)) score += PLAN_BONUS;
    if (saidWithin(d.record, span)) score += DATE_BONUS;
    scored.push({ record: d.record, score: score * standing(d.record), i, group: groupOf(d) });
  });
  // a superseded or held record found brings the current record of its subject and attribute (what replaced it)
  const found = new Set(scored.map((x) => x.i));
  for (const x of [...scored]) {
    if (!x.group || standing(x.record) === 1) continue;
    docs.forEach((d, i) => {
      if (found.has(i) || groupOf(d) !== x.group || standing(d.record) <= standing(x.record)) return;
      found.add(i);
      scored.push({ record: d.record, score: x.score, i, group: x.group });
    });
  }
  return currentFirst(scored.sort((a, b) => b.score - a.score || a.i - b.i));
}

export interface Scored<T> {
  record: T;
  score: number;
  i: number;
  /** Subject and attribute ('' when the attribute is unknown): the records that replace one another. */
  group: string;
}

export const standing = (r: MatchableRecord) => STANDING[r.status] ?? 1;
const groupOf = <T extends MatchableRecord>(d: Doc<T>) => (d.attribute ? `${d.record.pageTitle.toLowerCase()}\n${d.attribute}` : '');

/**
 * Records of one subject and attribute (Sarah's employer: Acme, then Globex) keep the places the
 * ranking gave them, but the current one takes the first of those places: a superseded record
 * is shown right after the record that replaced it, never before it.
 */
export function currentFirst<T extends MatchableRecord>(ranked: Scored<T>[]): Scored<T>[] {
  const groups = new Map<string, number[]>();
  ranked.forEach((s, at) => {
    if (s.group) groups.set(s.group, [...(groups.get(s.group) ?? []), at]);
  });
  const out = [...ranked];
  for (const places of groups.values()) {
    if (places.length < 2) continue;
    const members = places.map((at) => ranked[at]).filter((s): s is Scored<T> => s !== undefined);
    members.sort((a, b) => standing(b.record) - standing(a.record) || b.score - a.score || a.i - b.i);
    places.forEach((at, k) => {
      const m = members[k];
      if (m) out[at] = m;
    });
  }
  return out;
}
