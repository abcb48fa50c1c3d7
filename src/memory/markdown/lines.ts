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
 * Facts are typed records (DESIGN.md record format; src/memory/records/record.ts reads them):
 * fields a line leaves out take defaults, and `setField` edits one field in place so the rest
 * of a line a person wrote stays byte for byte as it was.
 */
import { blockIdFor } from '../../core/records/block-id.js';
import { listItemText } from '../../core/records/line-syntax.js';
import { oneLine } from '../../util/one-line.js';

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
      rest += text.charAt(i);
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
  const item = listItemText(raw);
  if (item === null) return null;
  let body = item;
  const id = BLOCK_ID.exec(` ${body}`);
  if (id) body = ` ${body}`.slice(0, id.index).trim();
  const { fields, rest } = parseFields(body);
  return { line, text: rest, fields, ...(id ? { blockId: id[1] } : {}) };
}

export interface FactDraft {
  text: string;
  type?: string;
  /** YYYY-MM-DD: when a commitment is due. */
  due?: string;
  /** YYYY-MM-DD: when an episode took place (apart from when it was said). */
  happened?: string;
  /** 0–1; left out = 1. */
  confidence?: number;
  /** `public`, `personal`, `sensitive` or `sensitive/phi|credential|financial`; left out = the page's. */
  sensitivity?: string;
  /** Only when not `active`. */
  status?: string;
  /** YYYY-MM-DD: when said. */
  said: string;
  source: string;
  /** How it reached Charlie (chat, voice, ingest, manual, reflection); left out = read from the source. */
  via?: string;
  /** The attribute it is about (employer, home …); left out = read from the statement. */
  about?: string;
  /** Only when it differs from the page's. */
  staleness?: number;
  /** The centre pages (`Users/Ann/USER`) of the people it names: `[person:: [[Users/Ann/USER]]]`. */
  person?: readonly string[];
}

export function renderFact(page: string, fact: FactDraft): string {
  const text = oneLine(fact.text).replace(/\[(\w[\w-]*)::/g, '[$1 :');
  const parts = [`- ${text}`];
  const plain = (v: string) => oneLine(v).replace(/[[\]]/g, '');
  if (fact.type) parts.push(`[type:: ${plain(fact.type)}]`);
  if (fact.due) parts.push(`[due:: ${plain(fact.due)}]`);
  if (fact.happened) parts.push(`[happened:: ${plain(fact.happened)}]`);
  if (fact.status && fact.status !== 'active') parts.push(`[status:: ${plain(fact.status)}]`);
  if (fact.confidence !== undefined) parts.push(`[confidence:: ${formatConfidence(fact.confidence)}]`);
  if (fact.sensitivity) parts.push(`[sensitivity:: ${plain(fact.sensitivity)}]`);
  if (fact.about) parts.push(`[about:: ${plain(fact.about)}]`);
  if (fact.staleness !== undefined) parts.push(`[staleness:: ${fact.staleness}]`);
  for (const person of fact.person ?? []) parts.push(`[person:: [[${plain(person)}]]]`);
  parts.push(`[said:: ${fact.said}]`, `[source:: ${renderSource(fact.source)}]`);
  if (fact.via) parts.push(`[via:: ${plain(fact.via)}]`);
  parts.push(`^${blockIdFor(page, text)}`);
  return parts.join(' ');
}

export function formatConfidence(c: number): string {
  return String(Math.round(Math.min(1, Math.max(0, c)) * 100) / 100);
}

/** Where `[key:: …]` sits in a line (brackets in its value balanced), or null. */
function fieldSpan(raw: string, key: string): { start: number; end: number } | null {
  const re = new RegExp(`\\[${key}::`, 'gi');
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    let depth = 1;
    let j = m.index + m[0].length;
    for (; j < raw.length && depth > 0; j++) {
      if (raw[j] === '[') depth++;
      else if (raw[j] === ']') depth--;
    }
    if (depth === 0) return { start: m.index, end: j };
  }
  return null;
}

/**
 * The line with one field set (`value`) or removed (null), everything else left as written:
 * an existing field is replaced where it stands, a new one goes before the block id.
 */
export function setField(raw: string, key: string, value: string | null): string {
  const span = fieldSpan(raw, key);
  if (span) {
    if (value !== null) return `${raw.slice(0, span.start)}[${key}:: ${value}]${raw.slice(span.end)}`;
    const before = raw.slice(0, span.start).replace(/[ \t]+$/, '');
    const after = raw.slice(span.end);
    return before + (after.startsWith(' ') || after === '' ? after : ` ${after}`);
  }
  return value === null ? raw : addField(raw, key, value);
}

/** The line with one more `[key:: value]` before its block id, even when the key is there already (a list, as Dataview reads repeated keys). */
export function addField(raw: string, key: string, value: string): string {
  const id = BLOCK_ID.exec(raw);
  return id ? `${raw.slice(0, id.index)} [${key}:: ${value}]${raw.slice(id.index)}` : `${raw.trimEnd()} [${key}:: ${value}]`;
}

/** The fact line with its `said` date replaced (restating a fact refreshes it). */
export function withSaid(raw: string, said: string): string {
  return setField(raw, 'said', said);
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

/** The source a field value points to: the URL of `[msg](url)`, the page of `[[Page]]`, or the text. */
export function sourceOf(value: string): string {
  const md = /^\[[^\]]*\]\(<?([^)>]+)>?\)$/.exec(value);
  if (md) return md[1]!;
  const wiki = /^\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]$/.exec(value);
  return wiki ? wiki[1]! : value;
}
