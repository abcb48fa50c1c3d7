/**
 * What two statements must share exactly before one may be merged into the other: their
 * numbers ("3 cats" ≠ "2 cats", "three" = "3"), their dates and times ("on Friday" ≠ "on
 * Monday", "2026-06-20"), their names (capitalised words after the first: "at Acme" ≠ "at
 * Globex") and their polarity ("is allergic" ≠ "is not allergic"). The first check of the fact
 * comparer (reflection/fact-difference.ts), which reflection's duplicate finder, its check of
 * the model's proposals and the page guard all use. Pure.
 */
import { CARDINALS } from '../number-words.js';
import { UNITS } from '../reflection/lexicon.js';

export interface StatementFacts {
  numbers: string[];
  dates: string[];
  names: string[];
  negated: boolean;
}

const NUMBER_WORDS: Record<string, number> = {
  ...CARDINALS,
  none: 0,
  once: 1,
  single: 1,
  twice: 2,
  pair: 2,
  couple: 2,
  thrice: 3,
  dozen: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
  thousand: 1000,
  million: 1_000_000,
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  half: 0.5,
};

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = /^(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)$/;
const WEEKDAY = /^(mon|tue|wed|thu|fri|sat|sun)(?:day|s|nesday|rsday|urday|sday)?s?$/;
const RELATIVE_DAY = new Set([
  'today',
  'tonight',
  'tomorrow',
  'yesterday',
  'weekend',
  'weekends',
  'morning',
  'mornings',
  'evening',
  'evenings',
  'noon',
  'midnight',
  'spring',
  'summer',
  'autumn',
  'fall',
  'winter',
  'christmas',
  'easter',
]);
const NEGATION = /\b(?:not|no|never|none|nobody|nothing|neither|nor|without|cannot|no longer|any ?more)\b|n['’]t\b/i;
/** Capitalised words that are not names (pronouns, the start of a clause after a colon). */
const NOT_NAMES = new Set(['i', "i'm", 'i’m', 'ok', 'tv']);

const fold = (s: string) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');

/** Raw word tokens with their original case (accents folded), possessives dropped. */
function rawTokens(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}'’.:,/-]+/u)
    .flatMap((t) => t.split(/(?<=\p{L})[-/](?=\p{L})/u))
    .map((t) => t.replace(/['’]s$/u, '').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);
}

/** A number word or numeral as its digits ("three" → "3", "1,200" → "1200", "5km" → "5"), or undefined. */
export function numberOf(token: string): string | undefined {
  const t = token.toLowerCase().replace(/,(?=\d{3}\b)/g, '');
  const digits = /^(\d+(?:\.\d+)?)(?:st|nd|rd|th|s|k|m|x|%|am|pm|h|yo|kg|km|cm|mm|lb|lbs|g|ml|l)?$/.exec(t);
  if (digits?.[1]) return String(Number(digits[1]));
  const word = NUMBER_WORDS[t];
  return word === undefined ? undefined : String(word);
}

/** The exact parts of a statement (see the module comment). */
export function statementFacts(statement: string): StatementFacts {
  const text = statement.replace(/(\d),(?=\d{3}\b)/g, '$1');
  const numbers: string[] = [];
  const dates: string[] = [];
  const names = new Set<string>();
  for (const iso of fold(text).match(/\b\d{4}-\d{2}(?:-\d{2})?\b/g) ?? []) dates.push(iso);
  const withoutIso = fold(text).replace(/\b\d{4}-\d{2}(?:-\d{2})?\b/g, ' ');
  // a clock time (10:30) or a day/month (9/12) is split into its numbers
  const sentences = withoutIso.split(/(?<=[.!?;:])\s+|\n+/);
  for (const sentence of sentences) {
    rawTokens(sentence).forEach((token, i) => {
      for (const part of token.split(/[:/.,](?=\d)/)) {
        const n = numberOf(part);
        if (n !== undefined) numbers.push(n);
      }
      const lower = token.toLowerCase();
      const month = MONTH.exec(lower);
      // "may" is a month only when capitalised
      if (month?.[1] && (lower !== 'may' || token[0] === 'M')) dates.push(MONTHS[MONTHS.findIndex((m) => month[1]?.startsWith(m))] ?? lower);
      else if (WEEKDAY.test(lower)) dates.push(lower.slice(0, 3));
      else if (RELATIVE_DAY.has(lower)) dates.push(lower.replace(/s$/, ''));
      else if (i > 0 && /^\p{Lu}/u.test(token) && !NOT_NAMES.has(lower) && !(lower in UNITS)) names.add(lower);
    });
  }
  return { numbers: numbers.sort(), dates: [...new Set(dates)].sort(), names: [...names].sort(), negated: NEGATION.test(fold(text)) };
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** How two statements differ in an exact part, or null when they agree on all of them. */
export function exactDifference(a: string, b: string): string | null {
  const x = statementFacts(a);
  const y = statementFacts(b);
  if (!same(x.numbers, y.numbers)) return `numbers ${x.numbers.join(', ') || 'none'} vs ${y.numbers.join(', ') || 'none'}`;
  if (!same(x.dates, y.dates)) return `dates ${x.dates.join(', ') || 'none'} vs ${y.dates.join(', ') || 'none'}`;
  // a name is the same name when the other statement has the word too, at its start or not capitalised ("Anna is Sam's sister" / "Sam's sister is Anna")
  const words = (t: string) => new Set(rawTokens(t).map((w) => w.toLowerCase()));
  const xw = words(a);
  const yw = words(b);
  if (x.names.some((n) => !yw.has(n)) || y.names.some((n) => !xw.has(n))) return `names ${x.names.join(', ') || 'none'} vs ${y.names.join(', ') || 'none'}`;
  if (x.negated !== y.negated) return 'one says not';
  return null;
}
