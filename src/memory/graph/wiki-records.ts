/**
 * What a person does to the typed records of entity pages by hand, through a front door
 * rather than an editor: read them all with their decay, rewrite one statement, rewrite a page's
 * text. Both rewrites read afterwards as a hand edit does (records/record.ts): provenance
 * `manual`, confidence 1, and the rest of the page byte for byte as it was.
 */
import type { RecordView } from '../../core/ports/index.js';
import { decay } from '../../core/records/decay.js';
import { toRecordView } from '../../core/records/view.js';
import { recordsOf } from '../records/record.js';
import { formatConfidence, parseFactLine, setField } from '../markdown/lines.js';
import { setFrontMatter } from './page-edit.js';
import { readPage, type WikiPage } from './page.js';
import { reviewAgainst } from '../records/review.js';

export function recordViews(pages: Iterable<WikiPage>, now: Date): RecordView[] {
  const out: RecordView[] = [];
  for (const page of pages) {
    for (const r of recordsOf(page)) {
      const d = decay(r, now);
      out.push(
        toRecordView(r, {
          page: r.page,
          pageTitle: page.title,
          pageCategory: page.category,
          line: r.line,
          provenance: r.provenance,
          effective: d.effective,
          decay: d.state,
          sensitivity: r.sensitivity,
          sensitiveKind: r.sensitiveKind,
          handEdited: r.handEdited,
        }),
      );
    }
  }
  return out;
}

/** The index of record `id`'s line, or -1. */
const lineOf = (lines: readonly string[], id: string) => lines.findIndex((raw, i) => parseFactLine(raw, i + 1)?.blockId === id);

/** One line, no inline-field markers: a statement a person typed cannot forge a field. */
export function plainStatement(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\[(\w[\w-]*)::/g, '[$1 :')
    .replace(/\s\^[A-Za-z0-9-]+$/, '')
    .trim();
}

/**
 * The page's text with record `id`'s statement replaced (its fields and block id kept, so the
 * statement no longer hashes to the id: a hand edit), `via:: manual` and confidence 1; null when
 * the page has no such record or the statement is empty.
 */
function withStatement(content: string, id: string, statement: string): string | null {
  const text = plainStatement(statement);
  if (!text) return null;
  const lines = content.split('\n');
  const at = lineOf(lines, id);
  const raw = lines[at];
  const fact = raw === undefined ? null : parseFactLine(raw, at + 1);
  if (raw === undefined || !fact) return null;
  const bullet = /^\s*[-*+]\s+/.exec(raw)?.[0] ?? '- ';
  const fields = fact.fields.map((f) => `[${f.key}:: ${f.value}]`).join(' ');
  let line = `${bullet}${text}${fields ? ` ${fields}` : ''} ^${id}`;
  line = setField(setField(line, 'via', 'manual'), 'confidence', formatConfidence(1));
  lines[at] = raw.endsWith('\r') ? `${line}\r` : line;
  return lines.join('\n');
}

/**
 * `withStatement`, then the edited record set against the page's other open records like a new
 * one (records/review.ts): a hand correction that says the old state ended ("now at Globex")
 * supersedes the record it contradicts; one that merely disagrees puts both into review.
 */
export function withStatementSettled(content: string, path: string, id: string, statement: string, today: string): string | null {
  const next = withStatement(content, id, statement);
  if (next === null) return null;
  const read = readPage(next, path, path);
  if (!read.ok) return next;
  const lines = next.split('\n');
  const at = lineOf(lines, id);
  const edited = lines[at];
  if (edited === undefined) return next;
  const r = reviewAgainst(path, read.page.facts.concat(read.page.unsourced), lines, edited.replace(/\r$/, ''), today);
  for (const [n, l] of r.edits) lines[n - 1] = l;
  lines[at] = edited.endsWith('\r') ? `${r.line}\r` : r.line;
  return lines.join('\n');
}

/** The page with one field of record `id` set (the rest of the line byte for byte), or null when the page has no such record. */
export function withField(content: string, id: string, key: string, value: string): string | null {
  const lines = content.split('\n');
  const raw = lines[lineOf(lines, id)];
  if (raw === undefined) return null;
  lines[lineOf(lines, id)] = setField(raw, key, value);
  return lines.join('\n');
}

/** The page with its text after the front matter replaced by `body`; the front matter says a person wrote it. */
export function withBody(content: string, page: WikiPage, body: string, now: Date): string {
  const text = `\n${body.replace(/\r\n?/g, '\n').trim()}\n`;
  const head = setFrontMatter(content, { confidence: 1, updated: now.toISOString(), sources: (old: unknown) => [...new Set([...(Array.isArray(old) ? (old as unknown[]) : []), 'manual'])] }, () => ({
    schema: 1,
    title: page.title,
  }));
  const close = /^---\s*$/m;
  const lines = head.split('\n');
  const end = lines.findIndex((l, i) => i > 0 && close.test(l));
  return `${lines.slice(0, end + 1).join('\n')}\n${text}`;
}
