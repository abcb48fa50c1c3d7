/**
 * A note (entity page) on disk, as read: front matter + Markdown body. The knowledge graph writes
 * schema 2 (`## Facts` records, src/memory/graph/page.ts); pages written by earlier versions
 * (schema 1, a body of dated entries) are still read, and the graph adds records to them:
 *
 *     ---
 *     schema: 1
 *     title: Sarah Chen
 *     aliases: [Sarah]
 *     tags: [team]
 *     category: People
 *     created: 2026-11-29T18:20:11.000Z
 *     updated: 2026-11-29T18:20:11.000Z
 *     staleness: 5
 *     confidence: 0.8
 *     sensitivity: personal
 *     sources: [https://discord.com/channels/1/2/3]
 *     status: active
 *     ---
 *
 *     ### 2026-11-29
 *
 *     Leads the auth migration.
 *
 * A Markdown file without front matter is a valid note (title from its file name, defaults
 * for the rest), so people can drop plain pages in. Front matter that fails the schema is a
 * problem: the note is skipped and never rewritten.
 */
import { z } from 'zod';
import type { FileProblem, Note } from '../../core/ports/index.js';
import { parseFrontMatter } from './front-matter.js';
import { parseSensitivity, strictest, type SensitivityValue } from '../../core/privacy/sensitivity.js';
import { titleFromPath } from '../../util/one-line.js';

const num = z.union([z.number(), z.bigint()]).transform(Number);
const text = z.union([z.string(), z.number(), z.bigint()]).transform(String);
const list = z
  .union([z.array(text), text])
  .nullish()
  .transform((v) => (v == null ? [] : Array.isArray(v) ? v : [v]));

/** A value the parser reads as what it says; anything else is reported (the index reads it as sensitive meanwhile). */
const knownSpelling = (v: string | null | undefined) => !v?.trim() || /^(public|personal|sensitive)$|^(sensitive\s*[/:,\s]\s*)?(phi|credential|financial)$/i.test(v.trim());
const SPELLING_ERROR = 'expected public, personal, sensitive or sensitive/phi|credential|financial';

export const noteSchema = z.looseObject({
  schema: num.pipe(z.union([z.literal(1), z.literal(2)], { error: 'expected 1 or 2 (this Charlie reads schemas 1 and 2)' })).optional(),
  title: text.pipe(z.string().min(1)).optional(),
  aliases: list,
  tags: list,
  category: text.nullish(),
  created: text.nullish(),
  updated: text.nullish(),
  staleness: num.pipe(z.number().int().min(0).max(10)).nullish(),
  confidence: num.pipe(z.number().min(0).max(1)).nullish(),
  // every spelling (`sensitive/phi`, `PHI`, `confidential`…) is read by the one parser, failing closed
  sensitivity: text
    .nullish()
    .refine(knownSpelling, SPELLING_ERROR)
    .transform((v) => parseSensitivity(v)),
  kind: text
    .nullish()
    .refine(knownSpelling, SPELLING_ERROR)
    .transform((v) => parseSensitivity(v)),
  sources: z.array(z.union([text, z.record(z.string(), z.unknown())])).nullish(),
  status: z.enum(['active', 'review', 'held']).nullish(),
  /** Schema 2: the Discord user id of a person who talks to Charlie (their own page). */
  discord_id: text.nullish(),
  /** The name a person who talks to Charlie signs in to the web app with (their own page). */
  web_user: text.nullish(),
});

/** A page's sensitivity: the stricter of its `sensitivity` and `kind` fields, else personal. */
export function pageSensitivity(fm: { sensitivity?: SensitivityValue | null; kind?: SensitivityValue | null }): SensitivityValue {
  return strictest(fm.sensitivity, fm.kind) ?? { sensitivity: NOTE_DEFAULTS.sensitivity };
}

export const NOTE_DEFAULTS = { staleness: 5, confidence: 0.8, sensitivity: 'personal', status: 'active' } as const;

export type ParsedNote = { ok: true; note: Note } | { ok: false; problem: FileProblem };

/** `path` is relative to notes/; `shownPath` is what problems report. */
export function parseNote(content: string, path: string, shownPath: string): ParsedNote {
  const result = parseFrontMatter(content, noteSchema, shownPath);
  if (result.kind === 'invalid') return { ok: false, problem: result.problem };
  const fm = result.kind === 'ok' ? result.data : noteSchema.parse({});
  const body = result.kind === 'ok' ? result.split.body.replace(/^\r?\n/, '') : result.body;
  const category = fm.category ?? (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : undefined);
  const note: Note = {
    path,
    title: fm.title ?? titleFromPath(path),
    tags: fm.tags,
    updated: fm.updated ?? '',
    body,
    aliases: fm.aliases,
    ...(category ? { category } : {}),
    staleness: fm.staleness ?? NOTE_DEFAULTS.staleness,
    confidence: fm.confidence ?? NOTE_DEFAULTS.confidence,
    sensitivity: pageSensitivity(fm).sensitivity,
    sources: (fm.sources ?? []).map((s) => (typeof s === 'string' ? s : JSON.stringify(s))),
    ...(fm.status ? { status: fm.status } : {}),
  };
  return { ok: true, note };
}
