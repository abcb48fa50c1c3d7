/**
 * Tokenising for keyword search and the built-in embedder: lower-case words, stop words
 * removed, Porter-stemmed; plus picking the few meaningful terms of a query.
 */
import { stemmer } from 'stemmer';
import { STOP_WORDS } from './stop-words.js';

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** Lower-cased words of `text`, apostrophes normalised, possessive 's dropped. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const word = m[0];
    // most words have no apostrophe: skip the two replacements (a third of the time of indexing a large table)
    const w = word.includes("'") || word.includes('’') ? word.replace(/’/g, "'").replace(/'s$/, '') : word;
    if (w) out.push(w);
  }
  return out;
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word) || (word.length === 1 && !/\d/.test(word));
}

export function stem(word: string): string {
  return /^\d+$/.test(word) || word.includes("'") ? word : stemmer(word);
}

/** Words of `text` without stop words, stemmed; `stems` (a caller's memo, word → stem) saves re-stemming a word seen before. */
export function terms(text: string, stems?: Map<string, string>): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (isStopWord(w)) continue;
    let s = stems?.get(w);
    if (s === undefined) {
      s = stem(w);
      if (stems) {
        if (stems.size >= STEM_MEMO) stems.clear();
        stems.set(w, s);
      }
    }
    out.push(s);
  }
  return out;
}

/** Words a stem memo holds at most (a household's vocabulary fits; a flood of random tokens does not grow it). */
const STEM_MEMO = 100_000;

/**
 * The meaningful words of a query, stop words removed, at most `max`, longest (rarest-looking)
 * kept first when there are too many, original order preserved. Unstemmed, so they can be
 * handed to a full-text engine that stems on its own.
 */
export function keyTerms(query: string, max = 8): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const w of words(query)) {
    if (isStopWord(w)) continue;
    const s = stem(w);
    if (seen.has(s)) continue;
    seen.add(s);
    kept.push(w.replace(/'/g, ''));
  }
  if (kept.length <= max) return kept;
  const chosen = new Set([...kept].sort((a, b) => b.length - a.length).slice(0, max));
  return kept.filter((w) => chosen.has(w));
}

const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const DAY = `(\\d{1,2})(?:st|nd|rd|th)?`;
const YEAR = `((?:19|20)\\d{2})`;
const monthOf = (name: string) => MONTH_NAMES.findIndex((m) => m.startsWith(name.toLowerCase().slice(0, 3)));

/** A calendar date a query names: a day or a whole month (0-based); no `year` = any year. */
export interface DateSpan {
  month: number;
  year?: number;
  day?: number;
}

/**
 * Calendar dates a query names, as people write them: "13 October 2023", "October 13, 2023",
 * "8th December, 2023", "May 2023", "in June". A month without day or year counts only after
 * "in", "during", "early", "mid", "late" or "of" (so the modal "may" is not a date); bare years are ignored.
 */
export function dateSpans(query: string): DateSpan[] {
  const out: DateSpan[] = [];
  const taken: [number, number][] = [];
  const free = (i: number, j: number) => taken.every(([a, b]) => j <= a || i >= b);
  const scan = (re: RegExp, make: (m: RegExpExecArray) => DateSpan | null) => {
    for (const m of query.matchAll(re)) {
      const i = m.index;
      const j = i + m[0].length;
      if (!free(i, j)) continue;
      const span = make(m);
      if (span && span.month >= 0 && (span.day === undefined || (span.day >= 1 && span.day <= 31))) {
        out.push(span);
        taken.push([i, j]);
      }
    }
  };
  scan(new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH}\\b,?\\s*${YEAR}?`, 'gi'), (m) => ({ day: Number(m[1]), month: monthOf(m[2]!), ...(m[3] ? { year: Number(m[3]) } : {}) }));
  scan(new RegExp(`\\b${MONTH}\\s+${DAY}\\b(?:,?\\s*${YEAR})?`, 'gi'), (m) => ({ day: Number(m[2]), month: monthOf(m[1]!), ...(m[3] ? { year: Number(m[3]) } : {}) }));
  scan(new RegExp(`\\b${MONTH},?\\s+${YEAR}\\b`, 'gi'), (m) => ({ month: monthOf(m[1]!), year: Number(m[2]) }));
  scan(new RegExp(`\\b(?:in|during|early|late|mid|of)\\s+${MONTH}\\b`, 'gi'), (m) => ({ month: monthOf(m[1]!) }));
  return out;
}

const DAY_MS = 86_400_000;

/** Whether `time` (ms) falls in `span`: within 36 h of the day's noon (time zones), or in the month. */
export function inSpan(time: number, span: DateSpan): boolean {
  const d = new Date(time);
  if (span.day !== undefined) {
    const years = span.year !== undefined ? [span.year] : [d.getUTCFullYear() - 1, d.getUTCFullYear(), d.getUTCFullYear() + 1];
    return years.some((y) => Math.abs(time - Date.UTC(y, span.month, span.day, 12)) <= 1.5 * DAY_MS);
  }
  return d.getUTCMonth() === span.month && (span.year === undefined || d.getUTCFullYear() === span.year);
}
