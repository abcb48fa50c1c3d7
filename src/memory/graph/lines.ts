/**
 * The two kinds of structured lines on a page, Obsidian-compatible (Dataview inline fields
 * `[key:: value]`, block ids `^id`):
 *
 *     ## Facts
 *     - Leads the design team at Acme. [type:: identity] [said:: 2026-06-20] [source:: [msg](https://discord.com/channels/1/2/3)] ^r-7f3a
 *
 *     ## Related
 *     - [[Work/Acme]] (employer) [source:: [msg](https://discord.com/channels/1/2/3)]
 *
 * Facts keep the record format of DESIGN.md so later fields (confidence, status, due) slot in.
 */
import { createHash } from 'node:crypto';

export interface InlineField {
  key: string;
  value: string;
}

/** `[key:: value]` fields of a line (values may hold `[text](url)` or `[[Page]]`), and the rest of the text. */
export function parseFields(text: string): { fields: InlineField[]; rest: string } {
  const fields: InlineField[] = [];
  let rest = '';
  let i = 0;
  while (i < text.length) {
    const m = /^\[([A-Za-z][\w-]*)::[ \t]*/.exec(text.slice(i));
    if (!m) {
      rest += text[i];
      i++;
      continue;
    }
    let depth = 1;
    let j = i + m[0].length;
    for (; j < text.length && depth > 0; j++) {
      if (text[j] === '[') depth++;
      else if (text[j] === ']') depth--;
    }
    if (depth > 0) {
      rest += text.slice(i);
      break;
    }
    fields.push({ key: m[1]!.toLowerCase(), value: text.slice(i + m[0].length, j - 1).trim() });
    i = j;
  }
  return { fields, rest: rest.replace(/\s+/g, ' ').trim() };
}

export function field(fields: InlineField[], key: string): string | undefined {
  return fields.find((f) => f.key === key)?.value;
}

/** A source as a field value: links as `[msg](url)`, other provenance (`voice:…`, `inbox/…`) as text. */
export function renderSource(source: string): string {
  if (/^\[\[[^\]\r\n]+\]\]$/.test(source.trim())) return source.trim();
  const clean = source.replace(/[\r\n[\]]+/g, ' ').trim();
  return /^https?:\/\/\S+$/.test(clean) ? `[msg](${clean})` : clean;
}

/** The source a field value points to: the URL of `[msg](url)`, the page of `[[Page]]`, or the text. */
export function sourceOf(value: string): string {
  const md = /^\[[^\]]*\]\(<?([^)>]+)>?\)$/.exec(value);
  if (md) return md[1]!;
  const wiki = /^\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]$/.exec(value);
  return wiki ? wiki[1]! : value;
}

// ───────────── facts ─────────────

export interface FactLine {
  /** 1-based line in the file. */
  line: number;
  text: string;
  fields: InlineField[];
  blockId?: string;
}

const BLOCK_ID = /\s\^([A-Za-z0-9-]+)\s*$/;

export function parseFactLine(raw: string, line: number): FactLine | null {
  const item = /^\s*[-*+]\s+(.*)$/.exec(raw);
  if (!item) return null;
  let body = item[1]!;
  const id = BLOCK_ID.exec(` ${body}`);
  if (id) body = ` ${body}`.slice(0, id.index).trim();
  const { fields, rest } = parseFields(body);
  return { line, text: rest, fields, ...(id ? { blockId: id[1] } : {}) };
}

export interface FactDraft {
  text: string;
  type?: string;
  /** YYYY-MM-DD: when it was said. */
  said: string;
  source: string;
  /** Only when it differs from the page's. */
  staleness?: number;
}

/** Block ids are stable: derived from the page and the fact's text. */
export function blockIdFor(page: string, text: string): string {
  return `r-${createHash('sha1').update(`${page}\n${text}`).digest('hex').slice(0, 6)}`;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/\s+/g, ' ').trim();
}

export function renderFact(page: string, fact: FactDraft): string {
  const text = oneLine(fact.text).replace(/\[(\w[\w-]*)::/g, '[$1 :');
  const parts = [`- ${text}`];
  if (fact.type) parts.push(`[type:: ${oneLine(fact.type).replace(/[[\]]/g, '')}]`);
  if (fact.staleness !== undefined) parts.push(`[staleness:: ${fact.staleness}]`);
  parts.push(`[said:: ${fact.said}]`, `[source:: ${renderSource(fact.source)}]`, `^${blockIdFor(page, text)}`);
  return parts.join(' ');
}

/** The fact line with its `said` date replaced (restating a fact refreshes it). */
export function withSaid(raw: string, said: string): string {
  if (/\[said::[^\]]*\]/.test(raw)) return raw.replace(/\[said::[^\]]*\]/, `[said:: ${said}]`);
  const id = BLOCK_ID.exec(raw);
  return id ? `${raw.slice(0, id.index)} [said:: ${said}]${raw.slice(id.index)}` : `${raw.trimEnd()} [said:: ${said}]`;
}

// ───────────── links ─────────────

export interface LinkLine {
  line: number;
  /** The target as written, without `.md`, `#heading` or `|display`. */
  target: string;
  label: string;
  fields: InlineField[];
}

const LINK = /^\s*[-*+]\s+\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\](.*)$/;

export function parseLinkLine(raw: string, line: number): LinkLine | null {
  const m = LINK.exec(raw);
  if (!m) return null;
  let rest = m[2]!.trim();
  const label = /^\(([^)]*)\)/.exec(rest);
  if (label) rest = rest.slice(label[0].length);
  return { line, target: m[1]!.trim().replace(/\.md$/i, ''), label: label ? label[1]!.trim() : '', fields: parseFields(rest).fields };
}

export function renderLink(target: string, label: string, source?: string): string {
  const l = oneLine(label).replace(/[()[\]]/g, '');
  return `- [[${target.replace(/\.md$/i, '')}]]${l ? ` (${l})` : ''}${source ? ` [source:: ${renderSource(source)}]` : ''}`;
}
