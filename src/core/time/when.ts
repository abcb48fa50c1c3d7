/**
 * "When" as people say it, resolved in their time zone: one-off times by chrono-node ("Friday at
 * 6", "in 20 minutes", "tomorrow at 9am", "on 5 December at 18:30") and recurring ones by a
 * small table of our own ("every first Monday", "every weekday at 8", "every 15 minutes") that
 * becomes a cron rule — chrono reads dates, not recurrences, and no kept library turns English
 * recurrence phrases into RFC 5545 or cron. The result is checked (zone, rule, not in the past).
 */
import * as chrono from 'chrono-node/en';
import { DateTime } from 'luxon';
import { atLocal, dayIn, nextOfRule, validCron, validZone } from './recurrence.js';

export interface When {
  /** The (first) occurrence. */
  at: Date;
  rule?: { cron: string };
  tz: string;
}

export type WhenResult = ({ ok: true } & When) | { ok: false; error: string };

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const NTH: Record<string, string> = { first: '#1', '1st': '#1', second: '#2', '2nd': '#2', third: '#3', '3rd': '#3', fourth: '#4', '4th': '#4', last: 'L' };
const DEFAULT_HOUR = 9;

const UNITS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SPELLED = new RegExp(`\\b(?:(${TENS.slice(2).join('|')})(?:[- ](${UNITS.slice(1, 10).join('|')}))?|(${UNITS.join('|')}))\\b`, 'g');

/**
 * Numbers said in words ("in twenty minutes", "every two hours", "at six"), as speech to text
 * and people write them, become digits; "a couple of" is 2 and "a fortnight" 2 weeks. chrono
 * reads only some number words and the recurrence table none.
 */
function withDigits(text: string): string {
  return text
    .replace(/\ba couple of\b/g, '2')
    .replace(/\b(?:a|one) fortnight\b/g, '2 weeks')
    .replace(/\bfortnights?\b/g, 'weeks')
    .replace(SPELLED, (_, tens: string | undefined, unit: string | undefined, alone: string | undefined) =>
      String(tens ? TENS.indexOf(tens) * 10 + (unit ? UNITS.indexOf(unit) : 0) : UNITS.indexOf(alone ?? 'zero')),
    );
}

/** "at 6", "at 18:30", "at 7pm", "at noon" → hour and minute; an hour 1–6 without am/pm is the evening. */
function timeOf(text: string): { hour: number; minute: number } | null {
  if (/\b(at )?noon\b/.test(text)) return { hour: 12, minute: 0 };
  if (/\b(at )?midnight\b/.test(text)) return { hour: 0, minute: 0 };
  const m = /\bat (\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?/.exec(text);
  if (!m) return null;
  let hour = Number(m[1]);
  const minute = Number(m[2] ?? 0);
  const meridiem = m[3]?.replace(/\./g, '');
  if (meridiem === 'pm' && hour < 12) hour += 12;
  else if (meridiem === 'am' && hour === 12) hour = 0;
  else if (!meridiem && hour >= 1 && hour <= 6) hour += 12;
  return hour < 24 && minute < 60 ? { hour, minute } : null;
}

/** The recurrence table: a phrase starting with "every" (or "daily", "weekly", "hourly") → cron. */
function ruleOf(text: string, now: Date, tz: string): { cron: string } | 'bad' | null {
  if (!/^(every|each|daily|weekly|hourly|monthly)\b/.test(text)) return null;
  const t = timeOf(text) ?? { hour: DEFAULT_HOUR, minute: 0 };
  const hm = `${t.minute} ${t.hour}`;
  let m: RegExpExecArray | null;
  if ((m = /^every (\d{1,2}) minutes?\b/.exec(text))) return Number(m[1]) >= 1 && Number(m[1]) <= 59 ? { cron: `*/${Number(m[1])} * * * *` } : 'bad';
  if (/^(every hour|hourly)\b/.test(text)) return { cron: '0 * * * *' };
  if ((m = /^every (\d{1,2}) hours?\b/.exec(text))) return Number(m[1]) >= 1 && Number(m[1]) <= 23 ? { cron: `0 */${Number(m[1])} * * *` } : 'bad';
  if (/^(every day|each day|daily|every morning|every evening|every night)\b/.test(text)) {
    const fallback = /evening|night/.test(text) ? 19 : DEFAULT_HOUR;
    const tt = timeOf(text) ?? { hour: fallback, minute: 0 };
    return { cron: `${tt.minute} ${tt.hour} * * *` };
  }
  if (/^every (weekday|work ?day)s?\b/.test(text)) return { cron: `${hm} * * 1-5` };
  if (/^every weekend\b/.test(text)) return { cron: `${hm} * * 0,6` };
  if ((m = new RegExp(`^(?:every|each) (first|1st|second|2nd|third|3rd|fourth|4th|last) (${DAYS.join('|')})\\b`).exec(text))) {
    return { cron: `${hm} * * ${DAYS.indexOf(m[2]!)}${NTH[m[1]!]}` };
  }
  if ((m = new RegExp(`^(?:every|each) (${DAYS.join('|')})s?\\b`).exec(text))) return { cron: `${hm} * * ${DAYS.indexOf(m[1]!)}` };
  if (/^(every week|weekly)\b/.test(text)) return { cron: `${hm} * * ${DateTime.fromJSDate(now, { zone: tz }).weekday % 7}` };
  if ((m = /^(?:every month on the|monthly on the|every) (\d{1,2})(?:st|nd|rd|th)?(?: of the month| of every month)?\b/.exec(text))) {
    const day = Number(m[1]);
    return day >= 1 && day <= 31 ? { cron: `${hm} ${day} * *` } : 'bad';
  }
  if (/^(every month|monthly)\b/.test(text)) return { cron: `${hm} ${DateTime.fromJSDate(now, { zone: tz }).day} * *` };
  return 'bad';
}

/** Resolves `phrase` at `now` in `tz` (IANA). */
export function parseWhen(phrase: string, now: Date, tz: string): WhenResult {
  if (!validZone(tz)) return { ok: false, error: `unknown time zone ${tz}` };
  const text = withDigits(phrase.toLowerCase().replace(/\s+/g, ' ').trim());
  const rule = ruleOf(text, now, tz);
  if (rule === 'bad') return { ok: false, error: `I can't read "${phrase}" as a repeating time (try "every Monday at 9", "every first Monday", "every day at 8")` };
  if (rule) {
    const at = validCron(rule.cron, tz) ? nextOfRule(rule.cron, tz, now) : null;
    return at ? { ok: true, at, rule, tz } : { ok: false, error: `"${phrase}" never happens` };
  }
  const offset = DateTime.fromJSDate(now, { zone: tz }).offset;
  const [found] = chrono.parse(text, { instant: now, timezone: offset }, { forwardDate: true });
  if (!found) return { ok: false, error: `I can't read "${phrase}" as a time (try "Friday at 6", "in 20 minutes", "tomorrow at 9am")` };
  let at: Date;
  if (/^in (\d|an?\b|half)/.test(text)) at = found.start.date();
  else {
    const s = found.start;
    const dated = s.isCertain('day') || s.isCertain('weekday');
    // a time alone ("at 6") is today's, or tomorrow's once passed
    const day = dated ? (DateTime.fromObject({ year: s.get('year') ?? 0, month: s.get('month') ?? 1, day: s.get('day') ?? 1 }).toISODate() ?? dayIn(now, tz)) : dayIn(now, tz);
    const spoken = timeOf(text);
    const hour = spoken?.hour ?? (s.isCertain('hour') ? (s.get('hour') ?? DEFAULT_HOUR) : DEFAULT_HOUR);
    const minute = spoken?.minute ?? (s.isCertain('minute') ? (s.get('minute') ?? 0) : 0);
    at = atLocal(day, hour, minute, tz);
    // "at 9" said at 10:00 today means tomorrow
    if (at.getTime() <= now.getTime() && !dated) at = atLocal(dayIn(new Date(now.getTime() + 86_400_000), tz), hour, minute, tz);
  }
  if (at.getTime() <= now.getTime()) return { ok: false, error: `"${phrase}" is in the past` };
  return { ok: true, at, tz };
}
