/**
 * Lines a person writes by hand into a page (notes/**.md: `USER.md`, a person's page, an Obsidian
 * edit) get the memory lane's word too (fourth outside sweep: "Cosmo picked up hep C from sharing
 * needles years ago", on a hand-written page, went to hosted MCP clients 750 times and to the
 * hosted chat model — the rules table does not know the wording, and the lane judged only people's
 * messages). When the precheck applies (core/turn/precheck.ts textPrecheck), each hand-written line
 * the rules let pass is judged; a line the lane names (or could not judge: fails closed) gets the
 * label as an inline field on the line itself, `[sensitivity:: sensitive/phi]`, the spelling every
 * reader already honours (the index, records, pages for a hosted model or MCP client) — so the
 * label is kept with the text, survives a restart and travels with the file.
 *
 * Hand-written: every line but a record Charlie wrote (its block id and `said` day: it was
 * labelled when written) — a line with no `source`, `[source:: manual]`, a source a person typed
 * (fifth outside sweep: "[source:: her sister]" was never judged), and headings; and the page's
 * title (its file name or front matter `title`), which is said wherever the page is named: a
 * title the lane names labels the page as a whole in its front matter. A line judged ordinary is remembered by a
 * hash of its words (data/hand-lines.json, private), so it is not asked about again; an edited line
 * is new words and is asked again. The file is rewritten only if it did not change meanwhile.
 *
 * A line the lane could not judge (no answer in time, a malformed reply) is labelled
 * provisionally, `[sensitivity:: sensitive/unjudged]`, which every reader honours as sensitive,
 * and asked about again at the next scan of its page (a change, or the next start): judged
 * ordinary, the label comes off; named, it becomes the named kind. A slow lane at the first scan
 * of a large vault so leaves no line labelled for good that the lane would have let pass.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { firstFieldValue, withoutField, withoutFields } from '../../core/records/line-syntax.js';
import type { Logger } from '../../core/ports/index.js';
import { formatSensitivity, isSensitive, isUnjudgedLabel, labelText, strictest, type SensitivityValue } from '../../core/privacy/sensitivity.js';
import type { TextPrecheck } from '../../core/turn/precheck.js';
import { entriesIfExists, fileVersion, readIfExists, sha256, writeFileAtomic, writeFileAtomicSync } from '../../files/atomic-write.js';
import { parseYamlLimited, splitFrontMatter } from '../markdown/front-matter.js';
import { SourceLabels } from './source-labels.js';

/** The layer files a person may write by hand too (sixth outside sweep: a line written into `decisions.md` went to the hosted chat model, the embedder and MCP clients): the summary (project.md's body), decisions, quotes. */
export const HAND_LAYER_FILES: readonly string[] = ['project.md', 'decisions.md', 'quotes.md'];
const LAYER_FILES = HAND_LAYER_FILES;
/** A decision's or quote's source link at the end of its line. */
const SOURCE_LINK = /\s\(\[source\]\([^\n]*\)\)\s*$/;

/** At most this many ordinary lines are remembered (oldest forgotten first: asked again). */
const KEEP_HASHES = 50_000;

export interface HandLabelsDeps {
  projectsDir: string;
  /** data/hand-lines.json: hashes of hand-written lines the lane judged ordinary. */
  ledgerPath: string;
  /** data/record-labels.json: the projects whose records were checked against their messages' labels (default: beside `ledgerPath`). */
  checkedPath?: string;
  precheck: TextPrecheck;
  logger: Logger;
}

export class HandLabels {
  private ordinary: Set<string> | null = null;
  /** Projects whose records were all checked against their messages' labels (data/record-labels.json). */
  private checked: Set<string> | null = null;

  constructor(private readonly deps: HandLabelsDeps) {}

  /** Every page of every project (at start: lines written while Charlie was not running). */
  async scanAll(): Promise<number> {
    let n = 0;
    for (const dir of await entriesIfExists(this.deps.projectsDir)) if (dir.isDirectory() && !dir.name.startsWith('.')) n += await this.scan(dir.name);
    return n;
  }

  /** `paths` of `project` (relative to it: `notes/…md`, a layer file), or all its pages and layer files; the number of lines labelled. */
  async scan(project: string, paths?: readonly string[]): Promise<number> {
    try {
      if (!this.deps.precheck.applies()) return 0;
    } catch {
      return 0;
    }
    const pages =
      paths ??
      (await entriesIfExists(join(this.deps.projectsDir, project, 'notes'), { recursive: true }))
        .filter((e) => e.isFile())
        .map((e) => `notes/${join(e.parentPath, e.name).slice(join(this.deps.projectsDir, project, 'notes').length + 1)}`);
    let n = 0;
    const judged = (p: string) => LAYER_FILES.includes(p) || (p.startsWith('notes/') && p.endsWith('.md') && !/(^|\/)[_.]/.test(p.slice('notes/'.length)));
    // records written before a record took its message's label (seventh sweep): checked once a project (a record
    // written since carries it, so a page that changes later is not looked up again: its ordinary records would
    // read their day files at every change)
    const checked = await this.recordsChecked();
    const sources = checked.has(project) ? null : new SourceLabels(join(this.deps.projectsDir, project));
    let failed = false;
    for (const page of [...pages, ...(paths ? [] : LAYER_FILES)].filter(judged)) {
      try {
        n += await this.labelPage(join(this.deps.projectsDir, project, page), LAYER_FILES.includes(page), sources);
      } catch (err) {
        failed = true;
        this.deps.logger.warn({ project, page, err }, 'hand-written lines not judged');
      }
    }
    if (!paths && sources && !failed) {
      checked.add(project);
      writeFileAtomicSync(this.checkedPath(), JSON.stringify([...checked]), { mode: 0o600 });
    }
    return n;
  }

  private checkedPath(): string {
    return this.deps.checkedPath ?? join(dirname(this.deps.ledgerPath), 'record-labels.json');
  }

  private async recordsChecked(): Promise<Set<string>> {
    if (this.checked) return this.checked;
    let parsed: unknown = [];
    try {
      parsed = JSON.parse((await readIfExists(this.checkedPath())) ?? '[]');
    } catch {
      // unreadable: every project is checked again, which changes nothing already labelled
    }
    this.checked = new Set(Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : []);
    return this.checked;
  }

  private async labelPage(path: string, layer: boolean, sources: SourceLabels | null = null): Promise<number> {
    const text = await readIfExists(path);
    if (text === null) return 0;
    const split = splitFrontMatter(text);
    if (split === 'unterminated') return 0;
    const head = split?.head ?? '';
    const lines = (split?.body ?? text).split('\n');
    const ordinary = await this.ledger();
    // a layer file (the summary, decisions, quotes) has no title of its own; a quote's attribution line is a name and a date
    const open = lines
      .map((line, i) => ({
        line,
        i,
        words: withoutFields(line.replace(SOURCE_LINK, ''))
          .replace(/\s\^[\w-]+\s*$/, '')
          .replace(/^\s*(?:[-*+>]|#{1,6})\s+/, '')
          .replace(/^(?:\*\*|__)?\d{4}-\d{2}-\d{2}(?:\*\*|__)?\s*(?:—|–|-{1,2}|:)\s*/, '')
          .trim()
          // the words said, not their quotation marks (seventh sweep: the judge by meaning labelled a sentence bare and missed it quoted)
          .replace(/^["“”„'‘’«»]+|["“”„'‘’«»]+$/g, '')
          .trim(),
      }))
      .filter((l) => !(layer && /^>\s*(?:—|–|-{1,2}|~)/.test(l.line)) && this.handWritten(l.line, l.words, ordinary));
    // the page's names (its front matter's title and its file name) are said wherever the page is
    // named: a title or file name the rules label makes the page sensitive as well as one the lane
    // names (sixth outside sweep: "Morwenna's probation reports", labelled by the rules, was never
    // written into the front matter, so search hits named it; a file name under another title was listed)
    const page = pageLabel(head);
    const names = layer || (page !== undefined && !isUnjudgedLabel(page)) ? [] : titlesOf(path, head);
    const byRules = names.map((name) => labelText(name)).find((label) => isSensitive(label)) ?? null;
    const namesOpen = byRules ? [] : names.filter((name) => this.handWritten(name, name, ordinary, head));
    // a record Charlie wrote carries the label of the message it was made from (its said day and source find it in the archive)
    let fromSources = 0;
    if (sources && !layer)
      for (const [i, line] of lines.entries()) {
        if (!charliesRecord(line) || isSensitive(firstFieldValue(line, 'sensitivity'))) continue;
        const label = await sources.of(firstFieldValue(line, 'said') ?? '', firstFieldValue(line, 'source') ?? '');
        if (!label) continue;
        lines[i] = withLabel(line, label);
        fromSources++;
      }
    if (open.length === 0 && namesOpen.length === 0 && !byRules && fromSources === 0) return 0;
    const version = sha256(text);
    const all = open.length + namesOpen.length ? await this.deps.precheck.labels([...open.map((l) => l.words), ...namesOpen]) : [];
    const labels = all.slice(0, open.length);
    const nameLabels = all.slice(open.length);
    namesOpen.forEach((name, k) => {
      if (!isSensitive(nameLabels[k])) ordinary.add(hashOf(name));
    });
    const titleLabel = byRules ?? (namesOpen.length ? (nameLabels.reduce<SensitivityValue | null>((a, b) => strictest(a, b), null) ?? null) : null);
    let labelled = fromSources;
    const known = ordinary.size;
    open.forEach((l, k) => {
      const label = labels[k]!;
      if (!isSensitive(label)) ordinary.add(hashOf(l.words));
      const next = withLabel(l.line, label);
      if (next === l.line) return;
      lines[l.i] = next;
      labelled++;
    });
    // the ledger (up to 50,000 hashes) is written only when it learned something
    if (ordinary.size !== known) this.saveLedger(ordinary);
    const newHead = titleLabel ? withPageLabel(head, titleLabel) : head;
    if (newHead !== head) labelled++;
    if (labelled === 0) return 0;
    // a person may have edited it meanwhile: then the next change report judges it again
    const written = (await fileVersion(path)) === version ? await writeFileAtomic(path, newHead + lines.join('\n'), version) : { ok: false };
    if (!written.ok) return 0;
    this.deps.logger.info({ lines: labelled }, `${this.deps.precheck.judge} labelled hand-written lines the rules missed`);
    return labelled;
  }

  /**
   * A line a person wrote (a heading too), with words, no label of its own (or a provisional one),
   * not labelled by the rules, not judged ordinary before. For the title, `head` is the front matter
   * (a page labelled as a whole is not asked about).
   */
  private handWritten(line: string, words: string, ordinary: Set<string>, head?: string): boolean {
    const own = head === undefined ? firstFieldValue(line, 'sensitivity') : pageLabel(head);
    if (words.length < 4 || (own !== undefined && !isUnjudgedLabel(own))) return false;
    if (head === undefined && charliesRecord(line)) return false;
    return !isSensitive(labelText(words)) && !ordinary.has(hashOf(words));
  }

  private async ledger(): Promise<Set<string>> {
    if (this.ordinary) return this.ordinary;
    let hashes: string[] = [];
    try {
      const parsed: unknown = JSON.parse(await readFile(this.deps.ledgerPath, 'utf8'));
      if (Array.isArray(parsed)) hashes = parsed.filter((h): h is string => typeof h === 'string');
    } catch {
      // absent or unreadable: every hand-written line is asked about again
    }
    this.ordinary = new Set(hashes);
    return this.ordinary;
  }

  private saveLedger(ordinary: Set<string>): void {
    const keep = [...ordinary].slice(-KEEP_HASHES);
    writeFileAtomicSync(this.deps.ledgerPath, JSON.stringify(keep), { mode: 0o600 });
  }
}

/** `line` with `label` as its inline field (before a block id `^r-…`), its provisional one taken out; ordinary: no field. */
function withLabel(line: string, label: SensitivityValue): string {
  const bare = isUnjudgedLabel(firstFieldValue(line, 'sensitivity') ?? '')
    ? withoutField(line, 'sensitivity')
        .replace(/ +(?= \^[\w-]+\s*$)/, '')
        .trimEnd()
    : line;
  if (!isSensitive(label)) return bare;
  // before a block id, or before a decision's source link (the layer's reader takes the link off the end)
  const at = /\s\^[\w-]+\s*$/.exec(bare) ?? SOURCE_LINK.exec(bare);
  const field = ` [sensitivity:: ${formatSensitivity(label)}]`;
  return at ? `${bare.slice(0, at.index)}${field}${bare.slice(at.index)}` : `${bare.trimEnd()}${field}`;
}

/**
 * A record Charlie wrote: it carries the block id and the day it was said that Charlie gives every
 * record it writes (its label was set from what it was made of). Any other line — no source, a
 * `[source:: manual]`, a source a person typed ("her sister"), a record a person edited in the web
 * app (`[via:: manual]`, which keeps its `said` and `source`: sixth outside sweep) — was written by a person.
 */
function charliesRecord(line: string): boolean {
  return /\s\^r-[\w-]+\s*$/.test(line) && firstFieldValue(line, 'said') !== undefined && firstFieldValue(line, 'source') !== 'manual' && firstFieldValue(line, 'via') !== 'manual';
}

/** The front matter's `title` and `sensitivity`, read with the YAML parser every page reader uses; one it cannot read keeps what it says (a label there is never touched). */
function frontFields(head: string): { title?: string; sensitivity?: string; names?: string[] } {
  const yaml = head ? splitFrontMatter(head) : null;
  if (!yaml || yaml === 'unterminated') return {};
  const read = parseYamlLimited(yaml.yaml, { intAsBigInt: false });
  if (!('data' in read)) return { sensitivity: 'sensitive' };
  const data = (read.data ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  // tags and aliases are shown with the page (read_note's header, links): names of it too
  const names = [data.tags, data.aliases]
    .flatMap((v): unknown[] => (Array.isArray(v) ? (v as unknown[]) : typeof v === 'string' ? v.split(',') : []))
    .flatMap((v) => (typeof v === 'string' && v.trim() ? [v.trim().replace(/[-_/]+/g, ' ')] : []));
  return {
    ...(text(data.title) ? { title: text(data.title)! } : {}),
    ...(data.sensitivity !== undefined ? { sensitivity: text(data.sensitivity) ?? 'sensitive' } : {}),
    ...(names.length ? { names } : {}),
  };
}

/** The page's names as they are shown: the front matter's `title` (as the index names it, chunker.ts), the file name (as page lists and paths show it), its tags and aliases, each of 4 characters or more. */
function titlesOf(path: string, head: string): string[] {
  const file = basename(path).replace(/\.md$/, '').replace(/-/g, ' ').trim();
  const fields = frontFields(head);
  return [...new Set([fields.title?.trim(), file, ...(fields.names ?? [])])].filter((t): t is string => t !== undefined && t.length >= 4);
}

/** The front matter's `sensitivity`, if it has one. */
function pageLabel(head: string): string | undefined {
  return frontFields(head).sensitivity;
}

/**
 * `head` (a front matter, or none) with `label` as the page's sensitivity: a title that says what is
 * sensitive makes the page so. A provisional label (the title could not be judged) is replaced by
 * the verdict, and taken out when the title is ordinary; a label a person set is never touched.
 */
function withPageLabel(head: string, label: SensitivityValue): string {
  const own = pageLabel(head);
  if (own !== undefined && !isUnjudgedLabel(own)) return head;
  const bare = own === undefined ? head : head.replace(/^sensitivity:.*\n/m, '');
  if (!isSensitive(label)) return bare === '---\n---\n' ? '' : bare;
  const line = `sensitivity: ${formatSensitivity(label)}\n`;
  if (!bare) return `---\n${line}---\n`;
  return bare.replace(/\n(---|\.\.\.)(\s*)$/, `\n${line}$1$2`);
}

const hashOf = (words: string) => createHash('sha256').update(words.replace(/\s+/g, ' ').toLowerCase()).digest('hex').slice(0, 24);
