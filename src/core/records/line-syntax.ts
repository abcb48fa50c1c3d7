/**
 * The record format's syntax on a Markdown line (DESIGN.md's record format), in one place: a
 * list item, a heading, an inline field (`[key:: value]`, Dataview's), a record's block id
 * (`^r-…`) and an archive entry's header. src/memory/markdown parses and writes whole pages (front
 * matter, the note format, fact lines) and builds on these rules; the core, which imports no
 * infrastructure, asks them here instead of matching Markdown with patterns of its own.
 *
 *     ### 2026-06-20
 *     - Leads the design team at Acme. [type:: identity] [sensitivity:: sensitive] ^r-7f3a
 */

/** A list item: `-`, `*` or `+` and a space, after any indent. */
const LIST_ITEM = /^\s*[-*+]\s/;

export function isListItem(line: string): boolean {
  return LIST_ITEM.test(line);
}

/** What a list item says after its marker, or null when the line is not one. */
export function listItemText(line: string): string | null {
  return /^\s*[-*+]\s+(.*)$/.exec(line)?.[1] ?? null;
}

/** A heading: one to six `#` and a space. */
const HEADING = /^#{1,6}\s/;

export function isHeading(line: string): boolean {
  return HEADING.test(line);
}

/** A Markdown body cut before each heading: the text before the first heading, then each heading with what follows it. */
export function sectionsOf(body: string): string[] {
  return body.split(/\n(?=#{1,6}\s)/);
}

/** A section cut into its blocks: paragraphs (a blank line between) and list items, each whole. */
export function blocksOf(section: string): string[] {
  return section.split(/\n\s*\n|\n(?=\s*[-*+]\s)/);
}

/** The headings of a note's dated entries (`### 2026-06-20`, `### …`), in order, without their `###`. */
export function entryHeadings(body: string): string[] {
  return [...body.matchAll(/^###\s+(.*)$/gm)].map((m) => m[1] ?? '');
}

/** A record's id as records are written (`r-` and 4 to 12 hex digits: blockIdFor's form). */
export const RECORD_ID = /^r-[0-9a-f]{4,12}$/;

/** An id as a person or a model may write it (`^r-…` or `r-…`), without its block-id caret. */
export function bareId(id: string): string {
  return id.replace(/^\^/, '');
}

/** An id a record line may carry, as the page parser reads block ids (`r-` and letters, digits or `-`): hand-written and merged ids too. */
export function isBlockRecordId(id: string): boolean {
  return /^r-[A-Za-z0-9-]+$/.test(id);
}

/** The block ids of the record lines in a text (a list item ending in `^r-…`), each once, in order. */
export function recordIdsIn(text: string): string[] {
  return [...new Set([...text.matchAll(/^\s*[-*+]\s.*\s\^(r-[0-9a-f]{4,12})\s*$/gm)].map((m) => m[1] ?? ''))].filter(Boolean);
}

/** The first record block id (`^r-…`) anywhere in a text, or undefined. */
export function firstRecordId(text: string): string | undefined {
  return /\^(r-[0-9a-f]{4,})\b/.exec(text)?.[1];
}

const escapeKey = (key: string) => key.replace(/[^\w-]/g, '');

/** `[key:: …]` anywhere in a text, the value captured (the key in any case). */
function fieldPattern(key: string, flags: string): RegExp {
  return new RegExp(`\\[${escapeKey(key)}::\\s*([^\\]]*)\\]`, flags);
}

/** Every value of the inline field `key` in a text, as written (untrimmed), in order. */
export function fieldValues(text: string, key: string): string[] {
  return [...text.matchAll(fieldPattern(key, 'gi'))].map((m) => m[1] ?? '');
}

/** The first non-empty value of the inline field `key` in a text, trimmed, or undefined when it has none. */
export function firstFieldValue(text: string, key: string): string | undefined {
  return new RegExp(`\\[${escapeKey(key)}::\\s*([^\\]]+)\\]`, 'i').exec(text)?.[1]?.trim() || undefined;
}

/** The text with every `[key:: …]` field of that key taken out. */
export function withoutField(text: string, key: string): string {
  return text.replace(fieldPattern(key, 'gi'), '');
}

/** Whether a line holds the field `key` with one of `values` (any case, any spaces inside the brackets). */
export function hasFieldValue(line: string, key: string, values: readonly string[]): boolean {
  return new RegExp(`\\[${escapeKey(key)}::\\s*(?:${values.map(escapeKey).join('|')})\\s*\\]`, 'i').test(line);
}

/** Whether a line is nothing but one `[key:: …]` field (a label that marks its whole section or entry). */
export function isFieldOnlyLine(line: string, key: string): boolean {
  return new RegExp(`^\\s*\\[${escapeKey(key)}::[^\\]]*\\]\\s*$`, 'i').test(line);
}

/** The text with every lower-case inline field (`[key:: …]`) taken out, each left as a space. */
export function withoutFields(text: string): string {
  return text.replace(/\[[a-z_]+::[^\]]*\]/g, ' ');
}

/** The speakers of the archive entries in a text (`### 10:02:00 · Ann · [↗](…)`), each as written. */
export function entrySpeakers(text: string): string[] {
  return [...text.matchAll(/^#{2,4}\s+\d{1,2}:\d{2}(?::\d{2})?\s+·\s+([^·\n]+?)\s+·/gm)].map((m) => m[1]?.trim() ?? '');
}
