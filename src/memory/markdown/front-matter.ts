/**
 * YAML front matter: split a Markdown file into its front matter block and body (byte-exact),
 * parse the YAML, validate it with a zod schema, and turn any failure into a FileProblem
 * with the line number in the file.
 *
 * Every file under projects/ may be hostile, so parsing has limits: size, alias count and
 * nesting depth. The `yaml` package guards alias expansion only by throwing from toJS()
 * (maxAliasCount), and has no size or depth option, so those are checked here and any
 * excess becomes a FileProblem like any other broken file.
 */
import { Document, LineCounter, isAlias, isMap, isPair, isSeq, parseDocument } from 'yaml';
import type { z } from 'zod';
import type { FileProblem } from '../../core/ports/index.js';

export interface FrontMatterSplit {
  /** The YAML text between the fences. */
  yaml: string;
  /** Everything up to and including the closing fence line, exactly as on disk. */
  head: string;
  /** Everything after the closing fence line, exactly as on disk. */
  body: string;
  /** 1-based line of the first body line. */
  bodyLine: number;
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;

function lineCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** null when the file has no front matter; `unterminated` when the opening fence is never closed. */
export function splitFrontMatter(text: string): FrontMatterSplit | 'unterminated' | null {
  const open = OPEN.exec(text);
  if (!open) return null;
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) return 'unterminated';
  const yaml = rest.slice(0, close.index);
  const headEnd = open[0].length + close.index + close[0].length;
  return { yaml, head: text.slice(0, headEnd), body: text.slice(headEnd), bodyLine: 3 + lineCount(yaml) };
}

export type FrontMatterResult<T> =
  { kind: 'ok'; data: T; doc: Document; split: FrontMatterSplit } | { kind: 'none'; body: string } | { kind: 'invalid'; problem: FileProblem; split: FrontMatterSplit | null };

export const YAML_OPTIONS = { intAsBigInt: true, uniqueKeys: true, prettyErrors: false } as const;

/** What a front matter block may hold; real ones are a few hundred bytes, a dozen keys, 3 levels. */
export const FRONT_MATTER_LIMITS = { maxChars: 64 * 1024, maxAliases: 20, maxDepth: 32 } as const;

export interface YamlProblem {
  /** 0-based offset in the YAML text, when known. */
  offset?: number;
  message: string;
}

/** Counts aliases and measures nesting without recursion; stops at the first excess. */
function checkShape(doc: Document): YamlProblem | null {
  let aliases = 0;
  const stack: { node: unknown; depth: number }[] = [{ node: doc.contents, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    const at = (node as { range?: [number, number, number] } | null)?.range?.[0];
    if (isAlias(node) && ++aliases > FRONT_MATTER_LIMITS.maxAliases) {
      return { ...(at !== undefined ? { offset: at } : {}), message: `front matter uses more than ${FRONT_MATTER_LIMITS.maxAliases} YAML aliases (*name); write the values out instead` };
    }
    if (isMap(node) || isSeq(node)) {
      if (depth + 1 > FRONT_MATTER_LIMITS.maxDepth) {
        return { ...(at !== undefined ? { offset: at } : {}), message: `front matter is nested more than ${FRONT_MATTER_LIMITS.maxDepth} levels deep` };
      }
      // Pushed in reverse, so nodes are visited (and the first excess reported) in document order.
      const items = node.items as unknown[];
      for (let i = items.length - 1; i >= 0; i--) stack.push({ node: items[i], depth: depth + 1 });
    } else if (isPair(node)) {
      stack.push({ node: node.value, depth }, { node: node.key, depth });
    }
  }
  return null;
}

/**
 * Parses YAML from a file under projects/ within FRONT_MATTER_LIMITS. Returns the document and
 * its plain data, or the first problem (syntax, size, aliases, nesting).
 */
export function parseYamlLimited(yaml: string, options: { lineCounter?: LineCounter; intAsBigInt?: boolean } = {}): { doc: Document; data: unknown } | { problem: YamlProblem } {
  if (yaml.length > FRONT_MATTER_LIMITS.maxChars) {
    return { problem: { offset: 0, message: `front matter is ${Math.ceil(yaml.length / 1024)} KB; Charlie reads at most ${FRONT_MATTER_LIMITS.maxChars / 1024} KB of it` } };
  }
  const doc = parseDocument(yaml, { ...YAML_OPTIONS, intAsBigInt: options.intAsBigInt ?? YAML_OPTIONS.intAsBigInt, ...(options.lineCounter ? { lineCounter: options.lineCounter } : {}) });
  const err = doc.errors[0];
  if (err) return { problem: { offset: err.pos[0], message: `front matter is not valid YAML: ${firstLine(err.message)}` } };
  const shape = checkShape(doc);
  if (shape) return { problem: shape };
  try {
    return { doc, data: doc.toJS({ maxAliasCount: FRONT_MATTER_LIMITS.maxAliases }) };
  } catch (error) {
    return { problem: { message: `front matter could not be read: ${error instanceof Error ? firstLine(error.message) : String(error)}` } };
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}

/** Parses and validates the front matter of `text`; `path` is only used in problems. */
export function parseFrontMatter<S extends z.ZodType>(text: string, schema: S, path: string): FrontMatterResult<z.output<S>> {
  const split = splitFrontMatter(text);
  if (split === null) return { kind: 'none', body: text };
  if (split === 'unterminated') {
    return { kind: 'invalid', split: null, problem: { path, line: 1, message: 'front matter is never closed: add a line with --- after it' } };
  }
  const counter = new LineCounter();
  const read = parseYamlLimited(split.yaml, { lineCounter: counter });
  if ('problem' in read) {
    // The YAML starts on line 2 of the file.
    const line = read.problem.offset === undefined ? 1 : counter.linePos(read.problem.offset).line + 1;
    return { kind: 'invalid', split, problem: { path, line, message: read.problem.message } };
  }
  const { doc } = read;
  if (doc.contents !== null && !isMap(doc.contents)) {
    return { kind: 'invalid', split, problem: { path, line: 2, message: 'front matter must be a YAML mapping of key: value lines' } };
  }
  const parsed = schema.safeParse(read.data ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.map(String).join('.') || '(front matter)';
    return { kind: 'invalid', split, problem: { path, line: lineOf(doc, counter, issue.path as (string | number)[]), message: `front matter field ${key}: ${issue.message}` } };
  }
  return { kind: 'ok', data: parsed.data, doc, split };
}

/** Line in the file (the YAML starts on line 2) of the deepest existing node on `path`. */
function lineOf(doc: Document, counter: LineCounter, path: (string | number)[]): number {
  for (let n = path.length; n > 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === 'object' && node.range) return counter.linePos(node.range[0]).line + 1;
  }
  return 1;
}

/** Serializes a YAML document back to a front matter block (`---\n…---\n`). */
export function frontMatterBlock(doc: Document): string {
  const yaml = doc.contents === null ? '' : doc.toString({ lineWidth: 0 });
  return `---\n${yaml}---\n`;
}

/** A fresh document for `data`, keys in insertion order. */
export function newDocument(data: Record<string, unknown>): Document {
  return new Document(data);
}
