/**
 * Text edits of a page that keep everything a person wrote: add lines at the end of a
 * `## Facts` / `## Related` section (creating it when missing), replace or drop single lines,
 * and set front matter fields in place (comments and key order kept).
 */
import { isMap } from 'yaml';
import { newDocument, frontMatterBlock, parseFrontMatter, splitFrontMatter } from '../markdown/front-matter.js';
import { noteSchema } from '../markdown/note-format.js';

function sectionBounds(lines: string[], name: string): { heading: number; end: number } | null {
  const want = name.toLowerCase();
  let heading = -1;
  let inFence = false;
  const start = bodyStart(lines);
  for (let i = start; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i]!)) inFence = !inFence;
    if (inFence) continue;
    const h = /^(#{1,2})\s+(.*?)\s*#*\s*$/.exec(lines[i]!);
    if (!h) continue;
    if (heading >= 0) return { heading, end: i };
    if (h[2]!.trim().toLowerCase() === want) heading = i;
  }
  return heading >= 0 ? { heading, end: lines.length } : null;
}

function bodyStart(lines: string[]): number {
  if (!/^\uFEFF?---\s*$/.test(lines[0] ?? '')) return 0;
  const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
  return end < 0 ? 0 : end + 1;
}

/** Adds `items` at the end of section `name`; a missing section is created before `before` (or at the end). */
export function addToSection(content: string, name: string, items: string[], before?: string): string {
  if (items.length === 0) return content;
  const lines = content.replace(/\r\n?/g, '\n').replace(/\n*$/, '').split('\n');
  const section = sectionBounds(lines, name);
  if (section) {
    let at = section.end;
    while (at > section.heading + 1 && lines[at - 1]!.trim() === '') at--;
    const insert = at === section.heading + 1 ? ['', ...items] : items;
    lines.splice(at, 0, ...insert);
  } else {
    const next = before ? sectionBounds(lines, before) : null;
    const block = [`## ${name}`, '', ...items, ''];
    if (next) lines.splice(next.heading, 0, ...block);
    else {
      while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
      lines.push('', ...block);
    }
  }
  return `${lines.join('\n').replace(/\n*$/, '')}\n`;
}

/** Replaces (string) or removes (null) the given 1-based lines. */
export function editLines(content: string, edits: ReadonlyMap<number, string | null>): string {
  if (edits.size === 0) return content;
  const lines = content.split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    const edit = edits.get(i + 1);
    if (edit === undefined) out.push(line);
    else if (edit !== null) out.push(line.endsWith('\r') && !edit.endsWith('\r') ? `${edit}\r` : edit);
  });
  return out.join('\n');
}

/** A new value, or a function of the old one; undefined (or a function returning it) leaves the field alone. */
export type FieldUpdate = unknown;

/** Sets front matter fields; a page without front matter gets one (`fresh` gives its first fields). */
export function setFrontMatter(content: string, fields: Record<string, FieldUpdate>, fresh: () => Record<string, unknown>): string {
  const split = splitFrontMatter(content);
  if (split === null) {
    const base = fresh();
    const data = { ...base, ...resolve(fields, base) };
    return `${frontMatterBlock(newDocument(data))}\n${content.replace(/^\s*\n/, '')}`;
  }
  const parsed = parseFrontMatter(content, noteSchema, '');
  if (parsed.kind !== 'ok' || (parsed.doc.contents !== null && !isMap(parsed.doc.contents))) throw new Error('front matter does not parse');
  const doc = parsed.doc;
  const old = (doc.toJS() ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(resolve(fields, old))) doc.set(k, doc.createNode(v));
  return `${frontMatterBlock(doc)}${parsed.split.body}`;
}

function resolve(fields: Record<string, FieldUpdate>, old: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    const value: unknown = typeof v === 'function' ? (v as (o: unknown) => unknown)(old[k]) : v;
    if (value !== undefined) out[k] = value;
  }
  return out;
}
