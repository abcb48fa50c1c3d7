/**
 * Relative time anchors in a question ("yesterday", "last week", "two years ago", "last
 * semester", "in March"), resolved against the conversation's time into absolute windows.
 * Plain code, no model: the temporal pass of recall matches these windows against when a
 * thing was said or happened. Calendar dates with a day or year ("13 October 2023") are
 * read by `dateSpans` in text.ts; this file covers what needs a reference time.
 * Days, weeks (Monday first) and months are counted in UTC.
 */
import { CARDINALS } from '../../core/number-words.js';

export interface TimeWindow {
  /** Inclusive start, ms since the epoch. */
  start: number;
  /** Exclusive end, ms since the epoch. */
  end: number;
  /** The words that named it, for a hit's `why`. */
  label: string;
  /**
   * A year or more ("two years ago", "last year"): such a question asks when a thing happened,
   * and is matched only against records that say when it happened, not against when a message
   * was said (people tell of last year's move today).
   */
  long?: boolean;
}

const DAY = 86_400_000;
// "a week ago", "a couple of days", "a few weeks": the fuzzy quantities a conversation uses
const NUMBER_WORDS: Record<string, number> = { ...CARDINALS, a: 1, an: 1, couple: 2, few: 3, several: 4 };
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const SEASONS: Record<string, [number, number]> = { spring: [2, 5], summer: [5, 8], autumn: [8, 11], fall: [8, 11], winter: [11, 14] };

const startOfDay = (t: number) => Math.floor(t / DAY) * DAY;
const monthStart = (y: number, m: number) => Date.UTC(y, m, 1);
/** Monday 00:00 of the week that holds `t`. */
const weekStart = (t: number) => {
  const d = startOfDay(t);
  return d - ((new Date(d).getUTCDay() + 6) % 7) * DAY;
};

function amount(word: string): number | null {
  if (/^\d{1,3}$/.test(word)) return Number(word);
  return NUMBER_WORDS[word] ?? null;
}

type Rule = [RegExp, (m: RegExpExecArray, now: number) => Omit<TimeWindow, 'label'> | null];

/** Each rule reads one kind of phrase; the first that matches a stretch of the question wins it. */
const RULES: Rule[] = [
  [/\bday before yesterday\b/, (_m, now) => ({ start: startOfDay(now) - 2 * DAY, end: startOfDay(now) - DAY })],
  [/\byesterday\b/, (_m, now) => ({ start: startOfDay(now) - DAY, end: startOfDay(now) })],
  [/\b(?:today|tonight|this (?:morning|afternoon|evening))\b/, (_m, now) => ({ start: startOfDay(now), end: startOfDay(now) + DAY })],
  [
    /\b(\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(?:a )?(?:couple|few|several))(?: of)? (day|week|month|year)s? ago\b/,
    (m, now) => {
      const n = amount(m[1]!.replace(/^a /, ''));
      if (n === null) return null;
      const fuzzy = /couple|few|several/.test(m[1]!);
      return agoWindow(m[2]!, n, now, fuzzy);
    },
  ],
  [/\b(last|this|next) (week|month|year)\b/, (m, now) => calendarWindow(m[2]!, m[1] === 'last' ? -1 : m[1] === 'next' ? 1 : 0, now)],
  [
    /\b(?:last|this past|past) weekend\b/,
    (_m, now) => {
      const saturday = weekStart(now) - 2 * DAY;
      return { start: saturday, end: saturday + 2 * DAY };
    },
  ],
  [
    /\blast semester\b/,
    (_m, now) => {
      // two terms a year: January–June and July–December
      const d = new Date(now);
      const y = d.getUTCFullYear();
      return d.getUTCMonth() < 6 ? { start: monthStart(y - 1, 6), end: monthStart(y, 0) } : { start: monthStart(y, 0), end: monthStart(y, 6) };
    },
  ],
  [/\b(last|this) (spring|summer|autumn|fall|winter)\b/, (m, now) => seasonWindow(m[2]!, m[1] === 'last', now)],
  [
    /\b(?:last|on|this past) (sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/,
    (m, now) => {
      const want = WEEKDAYS.indexOf(m[1]!);
      let d = startOfDay(now) - DAY;
      while (new Date(d).getUTCDay() !== want) d -= DAY;
      return { start: d, end: d + DAY };
    },
  ],
  [
    /\bsince (january|february|march|april|may|june|july|august|september|october|november|december)\b(?!,? \d)/,
    (m, now) => {
      const w = mostRecentMonth(MONTHS.indexOf(m[1]!), now);
      return { start: w.start, end: now + 1 };
    },
  ],
  [/\b(?:in|during|last) (january|february|march|april|may|june|july|august|september|october|november|december)\b(?!,? \d)/, (m, now) => mostRecentMonth(MONTHS.indexOf(m[1]!), now)],
];

/** The most recent such month that has begun. */
function mostRecentMonth(month: number, now: number): Omit<TimeWindow, 'label'> {
  const d = new Date(now);
  const y = month <= d.getUTCMonth() ? d.getUTCFullYear() : d.getUTCFullYear() - 1;
  return { start: monthStart(y, month), end: monthStart(y, month + 1) };
}

function agoWindow(unit: string, n: number, now: number, fuzzy: boolean): Omit<TimeWindow, 'label'> {
  const d = new Date(now);
  switch (unit) {
    case 'day': {
      const day = startOfDay(now) - n * DAY;
      return fuzzy ? { start: day - DAY, end: startOfDay(now) } : { start: day, end: day + DAY };
    }
    case 'week': {
      const week = weekStart(now) - n * 7 * DAY;
      return fuzzy ? { start: week - 7 * DAY, end: weekStart(now) } : { start: week, end: week + 7 * DAY };
    }
    case 'month': {
      const m = d.getUTCMonth() - n;
      return { start: monthStart(d.getUTCFullYear(), m - (fuzzy ? 1 : 0)), end: monthStart(d.getUTCFullYear(), m + 1) };
    }
    default: {
      // "two years ago" means around then: the half-year either side
      const centre = Date.UTC(d.getUTCFullYear() - n, d.getUTCMonth(), d.getUTCDate());
      const half = (fuzzy ? 12 : 6) * 30 * DAY;
      return { start: centre - half, end: centre + half, long: true };
    }
  }
}

function calendarWindow(unit: string, offset: number, now: number): Omit<TimeWindow, 'label'> {
  const d = new Date(now);
  if (unit === 'week') {
    const start = weekStart(now) + offset * 7 * DAY;
    return { start, end: start + 7 * DAY };
  }
  if (unit === 'month') return { start: monthStart(d.getUTCFullYear(), d.getUTCMonth() + offset), end: monthStart(d.getUTCFullYear(), d.getUTCMonth() + offset + 1) };
  return { start: Date.UTC(d.getUTCFullYear() + offset, 0, 1), end: Date.UTC(d.getUTCFullYear() + offset + 1, 0, 1), long: true };
}

function seasonWindow(season: string, last: boolean, now: number): Omit<TimeWindow, 'label'> {
  const [from, to] = SEASONS[season]!;
  const d = new Date(now);
  let y = d.getUTCFullYear();
  // the season that has most recently begun; "last" one more back when we are in it now
  if (monthStart(y, from) > now) y--;
  if (last && monthStart(y, to) > now) y--;
  return { start: monthStart(y, from), end: monthStart(y, to) };
}

/** The time windows a question names relative to `now`, in the order they appear. */
export function timeAnchors(query: string, now: Date): TimeWindow[] {
  const text = query.toLowerCase().replace(/[’']/g, "'");
  const t = now.getTime();
  const found: (TimeWindow & { at: number })[] = [];
  const taken: [number, number][] = [];
  for (const [re, make] of RULES) {
    for (const m of text.matchAll(new RegExp(re.source, 'g'))) {
      const i = m.index;
      const j = i + m[0].length;
      if (taken.some(([a, b]) => i < b && j > a)) continue;
      const w = make(m, t);
      if (!w || !(w.end > w.start)) continue;
      taken.push([i, j]);
      found.push({ ...w, label: m[0], at: i });
    }
  }
  return found.sort((a, b) => a.at - b.at).map(({ at: _at, ...w }) => w);
}

/** "recently", "lately", "these days": no window, but a wish for what is recent. */
export const RECENTLY = /\b(?:recent(?:ly)?|lately|these days|the other day|latest|last time|most recent(?:ly)?|currently|now)\b/i;

export function inWindow(time: number, w: Pick<TimeWindow, 'start' | 'end'>): boolean {
  return time >= w.start && time < w.end;
}

const COUNT = String.raw`(?:\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|couple of|several)`;
const DAYNAME = String.raw`(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)`;
const MONTH_NOT_MAY = String.raw`(?:january|february|march|april|june|july|august|september|october|november|december)`;
/**
 * What a message says when something happened: years, "ago", "since", relative days, weeks,
 * months and seasons, weekdays, months ("may" only where it reads as the month), durations
 * ("for 3 years"), frequencies ("twice a week"). One pattern, so it is cheap enough to test
 * every candidate of a query (dateSpans and timeAnchors build theirs per call).
 */
const TOLD = new RegExp(
  [
    String.raw`(?:19|20)\d{2}`,
    'ago',
    'since',
    'yesterday',
    'today',
    'tonight',
    'tomorrow',
    'the other day',
    String.raw`(?:last|this|next|past) (?:night|morning|afternoon|evening|week|weekend|month|year|time|spring|summer|fall|autumn|winter|semester|${DAYNAME})`,
    String.raw`${COUNT} (?:days?|weeks?|months?|years?)`,
    DAYNAME,
    MONTH_NOT_MAY,
    String.raw`(?:in|on|early|late|mid|of) may`,
    String.raw`may \d{1,2}`,
    String.raw`\d{1,2}(?:st|nd|rd|th)? (?:of )?may`,
    String.raw`(?:once|twice|${COUNT} times) (?:a|per|every) (?:day|week|month|year)`,
    String.raw`every (?:day|night|morning|week|weekend|month|year|${DAYNAME})`,
    'daily|weekly|monthly|yearly',
  ]
    .map((p) => `\\b${p}\\b`)
    .join('|'),
  'i',
);

/** Whether a text says when something happened: a relative anchor, a calendar date, a year or a duration. */
export function tellsTime(text: string): boolean {
  return TOLD.test(text);
}
