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
import type { Decision, FileProblem, Quote } from '../../core/ports.js';

const DATE = '(\\d{4}-\\d{2}-\\d{2})';
const SOURCE = '(?:\\s*\\(\\[source\\]\\(<?([^)>]*)>?\\)\\))?';
const DECISION = new RegExp(`^[-*+]\\s+(?:(?:\\*\\*|__)?${DATE}(?:\\*\\*|__)?\\s*(?:—|–|-{1,2}|:)\\s*)?(.*?)${SOURCE}\\s*$`);
const ATTRIBUTION = new RegExp(`^(?:—|–|-{1,2}|~)\\s*(.*?)(?:,\\s*${DATE})?${SOURCE}\\s*$`);
const IGNORABLE = /^\s*(?:#.*|<!--.*-->)?\s*$/;

export const DECISIONS_HEADING = '# Decisions';
export const QUOTES_HEADING = '# Quotes';

/** The YYYY-MM-DD part of a date, or '' (so what is written always reads back). */
function day(date: string): string {
  return /^\s*(\d{4}-\d{2}-\d{2})/.exec(date)?.[1] ?? '';
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
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
    const m = DECISION.exec(line);
    if (m) {
      decisions.push({ date: m[1] ?? '', text: m[2]!.trim(), source: m[3]?.trim() ?? '' });
    } else if (/^\s+\S/.test(line) && decisions.length > 0) {
      const last = decisions[decisions.length - 1]!;
      last.text = `${last.text} ${line.trim()}`.trim();
    } else if (!IGNORABLE.test(line)) {
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
    const last = block[block.length - 1]!;
    const m = ATTRIBUTION.exec(last);
    const body = m && block.length > 1 ? block.slice(0, -1) : block;
    quotes.push({
      text: unquote(body.join('\n').trim()),
      speaker: m && block.length > 1 ? m[1]!.trim() : '',
      date: m && block.length > 1 ? (m[2] ?? '') : '',
      source: m && block.length > 1 ? (m[3]?.trim() ?? '') : '',
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
    if (!IGNORABLE.test(line)) {
      problems.push({ path, line: i + 1, message: `not understood as part of a quote (expected lines starting with ">"): ${line.slice(0, 80)}` });
    }
  });
  flush();
  return { quotes, problems };
}
