/**
 * Splits a project page into chunks: Markdown pages by headings and paragraphs, the
 * conversation archive (`log/YYYY-MM-DD.md`) by message, each message carrying its
 * neighbouring messages as context. Every chunk keeps page, heading, line range and a
 * content hash (which keys its vector, so an unchanged chunk is never re-embedded).
 */
import { createHash } from 'node:crypto';
import { escapeSpeaker, LOG_FILE, parseLog } from '../archive-format.js';
import { z } from 'zod';
import { parseYamlLimited, splitFrontMatter } from '../markdown/front-matter.js';
import { isSensitive, labelText, parseSensitivity, sensitivityOf, labelOf } from '../../core/privacy/sensitivity.js';

/** A heading (or heading path) labelled sensitive by its markers or the rules. */
const headingLabelled = (heading: string): boolean => isSensitive(labelText(heading));
import type { Sensitivity } from '../../core/ports/index.js';

export interface Chunk {
  /** Page path relative to the project folder. */
  page: string;
  heading: string;
  /** 1-based, inclusive. */
  lineStart: number;
  lineEnd: number;
  /** The text shown to the reader. */
  text: string;
  /** Neighbouring text that helps matching (previous and next messages of a log entry). */
  context: string;
  /** Who or what the chunk is about: a message's speaker, a note's title and aliases. */
  entity: string;
  /** ISO time: the entry time for log messages, the page's `updated` for notes. */
  updated: string;
  staleness: number;
  /** From the page's front matter, or the block's own `[sensitivity:: sensitive]` marker. */
  sensitivity: Sensitivity;
  /** Hash of heading + text + context + page (+ sensitivity when sensitive); keys the stored vector. */
  hash: string;
  /**
   * For a section of a long archive message: the message's header line (its whole-message
   * chunk would start there). Absent for a message kept whole and for notes.
   */
  message?: number;
}

export interface ChunkOptions {
  /** Soft upper bound of a Markdown chunk, in characters. */
  maxChars?: number;
  /** Messages before and after a log entry kept as its context. */
  neighbours?: number;
  /** Fallback `updated` (the file's mtime) when the page says nothing. */
  mtime?: Date;
}

export function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

/** Text a chunk is embedded from: heading, the text, then a little context. */
export function embeddingText(chunk: Pick<Chunk, 'page' | 'heading' | 'entity' | 'text' | 'context'>): string {
  const ctx = chunk.context ? `\n(${chunk.context.slice(0, 400)})` : '';
  return `${chunk.heading}\n${chunk.text}${ctx}`;
}

export function chunkPage(page: string, content: string, options: ChunkOptions = {}): Chunk[] {
  const name = page.split('/').pop() ?? page;
  const log = page.startsWith('log/') ? LOG_FILE.exec(name) : null;
  if (log) return chunkLog(page, log[1]!, content, options);
  return page === 'decisions.md' ? chunkDecisions(page, content, options) : chunkMarkdown(page, content, options);
}

const DECISION_ITEM = /^[-*+]\s+(?:(?:\*\*|__)?(\d{4}-\d{2}-\d{2})(?:\*\*|__)?)?/;

/**
 * `decisions.md` one decision a chunk, dated by the day it was decided (not the file's edit
 * time), so "what did we decide last week?" can match the decisions of that week.
 */
function chunkDecisions(page: string, content: string, options: ChunkOptions): Chunk[] {
  const fallback = (options.mtime ?? new Date(0)).toISOString();
  const chunks: Chunk[] = [];
  let item: { start: number; end: number; date: string; text: string[] } | null = null;
  const flush = () => {
    if (!item) return;
    const text = item.text.join('\n').trim();
    const heading = 'Decisions';
    const updated = item.date ? `${item.date}T12:00:00.000Z` : fallback;
    const sensitivity = sensitivityOf(text);
    const mark = sensitivity === 'sensitive' ? '\nsensitive' : '';
    chunks.push({
      page,
      heading,
      lineStart: item.start,
      lineEnd: item.end,
      text,
      context: '',
      entity: '',
      updated,
      staleness: 2,
      sensitivity,
      hash: sha1(`${page}\n${heading}\n${text}\n${updated}${mark}`),
    });
    item = null;
  };
  content
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .forEach((line, i) => {
      const m = DECISION_ITEM.exec(line);
      if (m) {
        flush();
        item = { start: i + 1, end: i + 1, date: m[1] ?? '', text: [line] };
      } else if (item && /^\s+\S/.test(line)) {
        item.text.push(line);
        item.end = i + 1;
      } else flush();
    });
  flush();
  return chunks;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "8 May 2023" for 2023-05-08: dates as people write them, so "in May 2023" can match. */
export function spokenDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1] ?? ''} ${y}`;
}

/**
 * Words of each neighbouring message kept in a message's context: enough for what a chat turn
 * says or asks (LoCoMo's average 23 words), not a long reply's whole text, which would match
 * almost any question and lift every message next to it.
 */
const CONTEXT_WORDS = 40;

/** The first `n` words of `text`. */
function opening(text: string, n: number): string {
  const m = new RegExp(`^\\s*(?:\\S+\\s+){0,${n - 1}}\\S+`).exec(text);
  return m ? m[0] : text;
}

/**
 * A message longer than this (in characters) is sectioned: by its own headings, then into
 * blocks of about LONG_MESSAGE_SECTION characters, fenced code kept whole where it fits.
 */
export const LONG_MESSAGE = 4000;
const LONG_MESSAGE_SECTION = 2000;

function chunkLog(page: string, date: string, content: string, options: ChunkOptions): Chunk[] {
  const entries = parseLog(content, date);
  // each entry's label, read once: the label it was stored with, and the rules
  const labels = entries.map((e) => labelOf(e).sensitivity);
  const n = options.neighbours ?? 2;
  const said = (i: number) => `${entries[i]!.speaker}: ${opening(entries[i]!.text, CONTEXT_WORDS)}`;
  return entries.flatMap((e, i) => {
    const context: string[] = [];
    // a neighbour labelled sensitive lends no words to another message's context (which a hosted embedder receives)
    for (let j = Math.max(0, i - n); j <= Math.min(entries.length - 1, i + n); j++) if (j !== i && labels[j] !== 'sensitive') context.push(said(j));
    // the speaker as the archive writes it, so only the assistant's own entries end in " (reply)" (fusion.ts)
    const heading = `${spokenDate(date)} ${e.time.slice(11, 16)} · ${escapeSpeaker(e.speaker)}${e.role === 'assistant' ? ' (reply)' : ''}`;
    // the label the message was stored with (and the rules) covers every section of it
    const sensitivity = labels[i] ?? 'sensitive';
    const mark = sensitivity === 'sensitive' ? '\nsensitive' : '';
    const base = { page, context: context.join('\n'), entity: e.speaker, updated: e.time, staleness: 5, sensitivity };
    const sections = e.text.length > LONG_MESSAGE ? messageSections(e.text, e.endLine) : [];
    if (sections.length < 2) {
      const chunk = { ...base, heading, lineStart: e.line, lineEnd: e.endLine, text: e.text };
      return [{ ...chunk, hash: sha1(`${page}\n${heading}\n${e.text}\n${chunk.context}${mark}`) }];
    }
    return sections.map((sec, k) => {
      const h = sec.path.length ? `${heading} › ${sec.path.join(' › ')}` : heading;
      // the first section starts at the header line and the last ends with the message, so the
      // neighbouring messages find them (thread); every section names its message
      const lineStart = k === 0 ? e.line : sec.start;
      const lineEnd = k === sections.length - 1 ? e.endLine : sec.end;
      return { ...base, heading: h, lineStart, lineEnd, text: sec.text, message: e.line, hash: sha1(`${page}\n${h}\n${sec.text}\n${base.context}${mark}`) };
    });
  });
}

/**
 * The sections of a long message's text (its last line is file line `endLine`): split at its
 * Markdown headings (outside code fences), then at blank lines once a block holds about
 * LONG_MESSAGE_SECTION characters. Each keeps its heading path and its file lines.
 */
function messageSections(text: string, endLine: number): { path: string[]; start: number; end: number; text: string }[] {
  const lines = text.split('\n');
  const first = endLine - lines.length + 1;
  const out: { path: string[]; start: number; end: number; text: string }[] = [];
  const path: string[] = [];
  let block: { start: number; end: number; lines: string[]; size: number } | null = null;
  let inFence = false;
  const flush = () => {
    const body = block?.lines.join('\n').trim();
    if (block && body) out.push({ path: path.filter(Boolean), start: block.start, end: block.end, text: body });
    block = null;
  };
  lines.forEach((line, i) => {
    const lineNo = first + i;
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const h = inFence ? null : heading(line);
    if (h) {
      flush();
      path.length = Math.min(path.length, h.level - 1);
      path[h.level - 1] = h.text;
      for (let k = 0; k < path.length; k++) path[k] ??= '';
      // the heading stays in the section's text too: it is what the message says
      block = { start: lineNo, end: lineNo, lines: [line], size: line.length };
      return;
    }
    const blank = line.trim() === '';
    if (!block) {
      if (!blank) block = { start: lineNo, end: lineNo, lines: [line], size: line.length };
      return;
    }
    if (blank && !inFence && block.size >= LONG_MESSAGE_SECTION) {
      flush();
      return;
    }
    block.lines.push(line);
    block.size += line.length + 1;
    if (!blank) block.end = lineNo;
  });
  flush();
  return out;
}

interface FrontMatter {
  title?: string;
  updated?: string;
  staleness?: number;
  sensitivity?: Sensitivity;
  tags: string[];
  aliases: string[];
  /** `status: held` in front matter: the whole page stays out of search. */
  held?: boolean;
  /** Number of lines the front matter block occupies (0 when absent). */
  lines: number;
}

const list = z.preprocess((v) => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []), z.array(z.string()));
/** What the index reads of a page's front matter; a field of the wrong type is ignored, never fatal. */
const indexedFields = z.object({
  title: z.string().optional().catch(undefined),
  name: z.string().optional().catch(undefined),
  updated: z
    .union([z.date().transform((d) => d.toISOString()), z.string()])
    .optional()
    .catch(undefined),
  staleness: z.number().optional().catch(undefined),
  sensitivity: z.string().optional().catch(undefined),
  kind: z.string().optional().catch(undefined),
  status: z.unknown().optional(),
  tags: list,
  aliases: list,
});

/** The shared front-matter split (src/memory/markdown/front-matter.ts), read leniently: the note store reports what is broken. */
function readFrontMatter(content: string): FrontMatter {
  const split = splitFrontMatter(content);
  if (split === null || split === 'unterminated') return { tags: [], aliases: [], lines: 0 };
  const read = parseYamlLimited(split.yaml, { intAsBigInt: false });
  const fields = indexedFields.safeParse('data' in read ? read.data : {});
  const data = fields.success ? fields.data : indexedFields.parse({});
  // fails closed: a front matter that does not parse but names a sensitivity is indexed as sensitive
  const unreadable = !('data' in read) && split.yaml.split('\n').some((l) => /^\s*(?:sensitivity|kind)\s*:\s*\S/i.test(l) && !/^\s*sensitivity\s*:\s*['"]?(?:public|personal)['"]?\s*$/i.test(l));
  const sensitivity = unreadable ? 'sensitive' : (parseSensitivity(data.sensitivity)?.sensitivity ?? (data.kind?.trim() ? 'sensitive' : undefined));
  return {
    title: data.title ?? data.name,
    updated: data.updated,
    staleness: data.staleness,
    sensitivity,
    tags: data.tags,
    aliases: data.aliases,
    ...(data.status === 'held' ? { held: true } : {}),
    lines: split.bodyLine - 1,
  };
}

/**
 * A Markdown heading (`## Title ##`), read without a backtracking pattern: the former
 * `(.*?)\s*#*\s*$` took 6 s on a heading line with 2,000 spaces and grew cubically.
 */
function heading(line: string): { level: number; text: string } | null {
  const m = /^(#{1,6})\s/.exec(line);
  if (!m?.[1]) return null;
  let text = line.slice(m[1].length).trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  text = text.slice(0, end).trimEnd();
  return { level: m[1].length, text };
}

function chunkMarkdown(page: string, content: string, options: ChunkOptions): Chunk[] {
  const maxChars = options.maxChars ?? 1200;
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  const fm = readFrontMatter(lines.join('\n'));
  // a page a person put on hold is kept for the record but never found
  if (fm.held) return [];
  const title = fm.title ?? (page.split('/').pop() ?? page).replace(/\.md$/, '').replace(/-/g, ' ');
  const updated = fm.updated ?? (options.mtime ?? new Date(0)).toISOString();
  const staleness = fm.staleness ?? (page.startsWith('notes/') ? 3 : 2);
  const extra = [...fm.aliases, ...fm.tags.map((t) => `#${t}`)].join(' ');
  const entity = page.startsWith('notes/') ? [title, ...fm.aliases].join(' · ') : '';
  const chunks: Chunk[] = [];
  const path: string[] = [];
  let block: { start: number; end: number; text: string[] } | null = null;
  let inFence = false;
  let sectionMarked = false;

  const flush = () => {
    if (!block) return;
    const text = block.text.join('\n').trim();
    if (text) {
      const heading = [title, ...path.filter((h) => h && h !== title)].join(' › ');
      const context = chunks.length === 0 ? extra : '';
      // the heading path (the page's title, every heading above) is said with the text: a breadcrumb and the embedded text carry it,
      // so a heading the rules or a marker label makes its whole section sensitive, however ordinary the lines under it
      const sensitivity: Sensitivity = fm.sensitivity === 'sensitive' || sectionMarked || headingLabelled(heading) ? 'sensitive' : sensitivityOf(text, fm.sensitivity ?? 'personal');
      const mark = sensitivity === 'sensitive' ? '\nsensitive' : '';
      chunks.push({ page, heading, lineStart: block.start, lineEnd: block.end, text, context, entity, updated, staleness, sensitivity, hash: sha1(`${page}\n${heading}\n${text}\n${context}${mark}`) });
    }
    block = null;
  };

  for (let i = fm.lines; i < lines.length; i++) {
    const line = lines[i]!;
    const lineNo = i + 1;
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const h = inFence ? null : heading(line);
    if (h) {
      flush();
      sectionMarked = headingLabelled(h.text) || sensitivityOf(line) === 'sensitive';
      path.length = Math.min(path.length, h.level - 1);
      path[h.level - 1] = h.text;
      for (let k = 0; k < path.length; k++) path[k] ??= '';
      continue;
    }
    const blank = line.trim() === '';
    if (!block) {
      if (blank) continue;
      block = { start: lineNo, end: lineNo, text: [line] };
      continue;
    }
    const size = block.text.reduce((a, t) => a + t.length + 1, 0);
    if (blank && !inFence && size >= maxChars / 2) {
      flush();
      continue;
    }
    if (!blank && size + line.length > maxChars && !inFence) {
      flush();
      block = { start: lineNo, end: lineNo, text: [line] };
      continue;
    }
    block.text.push(line);
    if (!blank) block.end = lineNo;
  }
  flush();
  return chunks;
}
