/**
 * `decisions.md` (layer 2) and `quotes.md` (layer 3): human-readable Markdown lists.
 *
 *     - **2026-11-29** — Use JWT refresh tokens ([source](https://discord.com/channels/1/2/3))
 *
 *     > "We ship on Friday."
 *     > — Alice, 2026-11-29 ([source](https://discord.com/channels/1/2/4))
 *
 * Parsing round-trips what is serialized and tolerates hand edits: `*`/`+` bullets, no bold,
 * `-`/`–`/`:` instead of `—`, missing dates or sources, wrapped lines. Lines that are none of
 * these are reported as problems (the file is then not rewritten, so no prose is lost).
 */
import type { Decision, FileProblem, Quote } from '../../core/ports/index.js';
import { oneLine } from '../../util/one-line.js';

// Every pattern below is anchored and cannot backtrack over a run of spaces more than once:
// the former one-regex-per-line patterns (`(.*?)…\s*$`) took 48 s on a line of 150,000 spaces.
const DATE_PREFIX = /^(?:\*\*|__)?(\d{4}-\d{2}-\d{2})(?:\*\*|__)?\s*(?:—|–|-{1,2}|:)\s*/;
const BULLET = /^[-*+]\s+/;
const ATTRIBUTION_LEAD = /^(?:—|–|-{1,2}|~)/;
const SOURCE_OPEN = '([source](';

/** Blank lines, headings and HTML comments: allowed anywhere. */
function ignorable(line: string): boolean {
  const t = line.trim();
  return t === '' || t.startsWith('#') || (t.length >= 7 && t.startsWith('<!--') && t.endsWith('-->'));
}

/** Splits a trailing ` ([source](link))` off `text` (already trimmed at the end). */
function splitSource(text: string): { rest: string; source: string } {
  const at = text.lastIndexOf(SOURCE_OPEN);
  if (at < 0 || !text.endsWith('))') || at + SOURCE_OPEN.length > text.length - 2) return { rest: text, source: '' };
  let link = text.slice(at + SOURCE_OPEN.length, -2);
  if (link.startsWith('<')) link = link.slice(1);
  if (link.endsWith('>')) link = link.slice(0, -1);
  if (link.includes(')') || link.includes('>')) return { rest: text, source: '' };
  return { rest: text.slice(0, at), source: link.trim() };
}

function parseDecisionLine(line: string): Decision | null {
  const bullet = BULLET.exec(line);
  if (!bullet) return null;
  const { rest, source } = splitSource(line.slice(bullet[0].length).trimEnd());
  const date = DATE_PREFIX.exec(rest);
  return { date: date?.[1] ?? '', text: (date ? rest.slice(date[0].length) : rest).trim(), source };
}

function parseAttribution(line: string): { speaker: string; date: string; source: string } | null {
  const lead = ATTRIBUTION_LEAD.exec(line);
  if (!lead) return null;
  const { rest, source } = splitSource(line.slice(lead[0].length).trim());
  let speaker = rest.trimEnd();
  let date = '';
  const tail = speaker.slice(-10);
  if (/^\d{4}-\d{2}-\d{2}$/.test(tail)) {
    const before = speaker.slice(0, -10).trimEnd();
    if (before.endsWith(',')) {
      date = tail;
      speaker = before.slice(0, -1);
    }
  }
  return { speaker: speaker.trim(), date, source };
}

export const DECISIONS_HEADING = '# Decisions';
export const QUOTES_HEADING = '# Quotes';

/** The YYYY-MM-DD part of a date, or '' (so what is written always reads back). */
function day(date: string): string {
  return /^\s*(\d{4}-\d{2}-\d{2})/.exec(date)?.[1] ?? '';
}

function sourceLink(source: string): string {
  const s = source.trim();
  if (!s) return '';
  return /[\s()<>]/.test(s) ? ` ([source](<${s.replace(/[<>\r\n]/g, '')}>))` : ` ([source](${s}))`;
}

export function serializeDecisions(decisions: Decision[]): string {
  const items = decisions.map((d) => {
    const date = day(d.date) ? `**${day(d.date)}** — ` : '';
    return `- ${date}${oneLine(d.text)}${sourceLink(d.source)}`;
  });
  return `${DECISIONS_HEADING}\n\n${items.join('\n')}${items.length ? '\n' : ''}`;
}

export function parseDecisions(text: string, path: string): { decisions: Decision[]; problems: FileProblem[] } {
  const decisions: Decision[] = [];
  const problems: FileProblem[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const decision = parseDecisionLine(line);
    const last = decisions[decisions.length - 1];
    if (decision) {
      decisions.push(decision);
    } else if (last && /^\s/.test(line) && line.trim() !== '') {
      last.text = `${last.text} ${line.trim()}`.trim();
    } else if (!ignorable(line)) {
      problems.push({ path, line: i + 1, message: `not understood as a decision (expected "- **YYYY-MM-DD** — text ([source](link))"): ${line.slice(0, 80)}` });
    }
  });
  return { decisions, problems };
}

export function serializeQuotes(quotes: Quote[]): string {
  const blocks = quotes.map((q) => {
    const lines = q.text.replace(/\r\n?/g, '\n').trim().split('\n');
    lines[0] = `"${lines[0]}`;
    lines[lines.length - 1] = `${lines[lines.length - 1]}"`;
    const body = lines.map((l) => (l ? `> ${l}` : '>')).join('\n');
    const speaker = oneLine(q.speaker) || 'someone';
    const date = day(q.date) ? `, ${day(q.date)}` : '';
    return `${body}\n> — ${speaker}${date}${sourceLink(q.source)}`;
  });
  return `${QUOTES_HEADING}\n\n${blocks.join('\n\n')}${blocks.length ? '\n' : ''}`;
}

function unquote(text: string): string {
  const m = /^["“”](.*)["“”]$/s.exec(text);
  return m ? m[1]! : text;
}

export function parseQuotes(text: string, path: string): { quotes: Quote[]; problems: FileProblem[] } {
  const quotes: Quote[] = [];
  const problems: FileProblem[] = [];
  let block: string[] = [];
  const flush = () => {
    if (block.length === 0) return;
    const attribution = block.length > 1 ? parseAttribution(block[block.length - 1] ?? '') : null;
    const body = attribution ? block.slice(0, -1) : block;
    quotes.push({
      text: unquote(body.join('\n').trim()),
      speaker: attribution?.speaker ?? '',
      date: attribution?.date ?? '',
      source: attribution?.source ?? '',
    });
    block = [];
  };
  text.split(/\r?\n/).forEach((line, i) => {
    const m = /^\s*>\s?(.*)$/.exec(line);
    if (m) {
      block.push(m[1]!);
      return;
    }
    flush();
    if (!ignorable(line)) {
      problems.push({ path, line: i + 1, message: `not understood as part of a quote (expected lines starting with ">"): ${line.slice(0, 80)}` });
    }
  });
  flush();
  return { quotes, problems };
}
