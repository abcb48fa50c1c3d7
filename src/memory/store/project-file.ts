/**
 * `project.md`: the project's settings in front matter (schema 1) and its summary (layer 1)
 * in the body. Pure functions: parse to a ProjectConfig, render a new file, patch fields.
 */
import { z } from 'zod';
import { isScalar, type Document } from 'yaml';
import type { FileProblem, ProjectConfig, ProjectOrigin } from '../../core/ports/index.js';
import { LOG_FILE } from '../archive-format.js';
import type { StoredLogCursor } from './log-cursor.js';
import { readTextOrProblem } from '../../files/atomic-write.js';
import { frontMatterBlock, newDocument, parseFrontMatter, type FrontMatterSplit } from '../markdown/front-matter.js';

/** Integers arrive as bigint (so Discord snowflakes written without quotes keep every digit). */
const int = z.union([z.number(), z.bigint()]).transform(Number).pipe(z.number().int());
const text = z.union([z.string(), z.number(), z.bigint()]).transform(String);
const optionalText = z
  .union([text, z.null()])
  .optional()
  .transform((v) => v ?? '');

export const projectSchema = z.looseObject({
  schema: int.pipe(z.literal(1, { error: 'expected 1 (this Charlie reads schema 1)' })),
  id: text.pipe(z.string().min(1)),
  name: text.pipe(z.string().min(1)),
  keys: z
    .array(text)
    .nullish()
    .transform((v) => v ?? []),
  discord: z
    .object({
      guild_id: text,
      channel_ids: z
        .array(text)
        .nullish()
        .transform((v) => v ?? []),
    })
    .nullish(),
  style: optionalText,
  distill_every: int.pipe(z.number().min(1).max(1000)).nullish(),
  archive: z
    .boolean()
    .nullish()
    .transform((v) => v ?? true),
  respond: z.enum(['always', 'mention']).nullish(),
  archived: z.boolean().nullish(),
  distill_cursor: z
    .object({
      file: z.string().regex(LOG_FILE, 'expected a log file name like 2026-11-29.md'),
      offset: int.pipe(z.number().min(0)),
      time: z.string().optional(),
      /** How far the day before `file` was read: a late entry can still land there. */
      previous: z.object({ file: z.string().regex(LOG_FILE, 'expected a log file name like 2026-11-29.md'), offset: int.pipe(z.number().min(0)) }).nullish(),
    })
    .nullish(),
  created: optionalText,
  updated: optionalText,
});

export interface ParsedProject {
  config: ProjectConfig;
  cursor: StoredLogCursor | null;
  problems: FileProblem[];
  /** Present when the front matter is valid (and the file may be rewritten). */
  doc?: Document;
  split?: FrontMatterSplit;
  /** The summary (body) as on disk, even when the front matter is broken. */
  summary: string;
}

export interface ProjectDefaults {
  distillEvery: number;
}

/** The settings used when project.md is missing or broken. */
export function defaultConfig(slug: string, defaults: ProjectDefaults): ProjectConfig {
  return { slug, name: slug, style: '', distillEvery: defaults.distillEvery, archive: true, respond: 'always', keys: [], created: '', updated: '' };
}

export function summaryOf(body: string): string {
  return body.trim();
}

/** A project.md that could not even be read as text (see FileEncodingError). */
export function unreadableProject(slug: string, problem: FileProblem, defaults: ProjectDefaults): ParsedProject {
  return { config: defaultConfig(slug, defaults), cursor: null, summary: '', problems: [problem] };
}

export function parseProjectFile(text: string, slug: string, path: string, defaults: ProjectDefaults): ParsedProject {
  const result = parseFrontMatter(text, projectSchema, path);
  if (result.kind === 'none') {
    return {
      config: defaultConfig(slug, defaults),
      cursor: null,
      summary: summaryOf(text),
      problems: [{ path, line: 1, message: 'project.md has no front matter (a block between --- lines with schema: 1, id and name)' }],
    };
  }
  if (result.kind === 'invalid') {
    return { config: defaultConfig(slug, defaults), cursor: null, summary: result.split ? summaryOf(result.split.body) : '', problems: [result.problem] };
  }
  const fm = result.data;
  const config: ProjectConfig = {
    slug,
    name: fm.name,
    style: fm.style,
    distillEvery: fm.distill_every ?? defaults.distillEvery,
    archive: fm.archive,
    respond: fm.respond ?? 'always',
    keys: fm.keys,
    ...(fm.discord ? { discord: { guildId: fm.discord.guild_id, channelIds: fm.discord.channel_ids } } : {}),
    ...(fm.archived ? { archived: true } : {}),
    created: fm.created,
    updated: fm.updated,
  };
  const c = fm.distill_cursor;
  const cursor: StoredLogCursor | null = c
    ? { file: c.file, offset: c.offset, ...(c.time ? { time: c.time } : {}), ...(c.previous ? { previous: { file: c.previous.file, offset: c.previous.offset } } : {}) }
    : null;
  return { config, cursor, problems: [], doc: result.doc, split: result.split, summary: summaryOf(result.split.body) };
}

/** The text of a new project.md for an origin. Discord channels answer only when addressed by default. */
export function newProjectFile(options: { id: string; origin: ProjectOrigin; now: string; distillEvery: number }): string {
  const { origin } = options;
  const doc = newDocument({
    schema: 1,
    id: options.id,
    name: origin.name.replace(/[\r\n]+/g, ' ').trim() || 'project',
    keys: [origin.key],
    ...(origin.discord ? { discord: { guild_id: origin.discord.guildId, channel_ids: [origin.discord.channelId] } } : {}),
    style: '',
    distill_every: options.distillEvery,
    archive: true,
    respond: origin.discord ? 'mention' : 'always',
    distill_cursor: null,
    created: options.now,
    updated: options.now,
  });
  return `${frontMatterBlock(doc)}\n`;
}

/** Replaces the body, keeping the front matter block byte-for-byte. */
export function withSummary(split: FrontMatterSplit, summary: string): string {
  const body = summary.trim();
  return body ? `${split.head}\n${body}\n` : `${split.head}\n`;
}

/** Applies field changes to the parsed document, keeping other fields, comments and the body. */
export function withFields(doc: Document, split: FrontMatterSplit, fields: Record<string, unknown>): string {
  for (const [key, value] of Object.entries(fields)) {
    const node = doc.get(key, true);
    // Change a scalar in place so its comment and quoting style survive.
    if (isScalar(node) && (value === null || typeof value !== 'object')) {
      if (typeof node.value !== typeof value) delete node.type;
      node.value = value;
    } else doc.set(key, doc.createNode(value));
  }
  return `${frontMatterBlock(doc)}${split.body}`;
}

/** What updateProject may change in project.md. */
export const patchSchema = z.object({
  style: z.string().max(4000).optional(),
  distillEvery: z.number().int().min(1).max(1000).optional(),
  archive: z.boolean().optional(),
  respond: z.enum(['always', 'mention']).optional(),
});

/** A display name: one line of at most 80 visible characters (control characters become spaces). */
export const relabelSchema = z.object({
  name: z
    .string()
    .transform((n) =>
      n
        .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .pipe(z.string().min(1, 'a project needs a name').max(80, 'a project name has at most 80 characters'))
    .optional(),
  archived: z.boolean().optional(),
});

/** Reads project.md files, keeping the last parse of each by its text: a turn reads it several times, and parsing its YAML cost more than reading it. */
export class ProjectFileReader {
  private readonly parsed = new Map<string, { text: string; parsed: ParsedProject }>();
  constructor(private readonly defaults: ProjectDefaults) {}

  /** `fresh`: a parse of its own, not cached (patching edits the parsed document in place). */
  async read(path: string, shown: string, slug: string, fresh: boolean): Promise<{ text: string; parsed: ParsedProject } | null> {
    const read = await readTextOrProblem(path, shown);
    if (read === null) return null;
    // Not UTF-8: a broken project (defaults, never rewritten); its rough text still finds its key.
    if ('problem' in read) return { text: read.roughText, parsed: unreadableProject(slug, read.problem, this.defaults) };
    const known = this.parsed.get(slug);
    if (!fresh && known?.text === read.text) return known;
    const project = { text: read.text, parsed: parseProjectFile(read.text, slug, shown, this.defaults) };
    if (!fresh) this.parsed.set(slug, project);
    return project;
  }
}
