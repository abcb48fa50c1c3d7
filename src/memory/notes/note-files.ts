/**
 * The notes/ folder of one project, read-only: list, read and grep entity pages (schema 1 and 2).
 * Every path goes through resolveInside. The knowledge graph (src/memory/graph) is the only
 * writer of these pages and of `_index.md` and `_log.md`.
 */
import type { FileProblem, Note, NoteSummary, Sensitivity, TextHit } from '../../core/ports/index.js';
import { parseSensitivity } from '../../core/privacy/sensitivity.js';
import { entriesIfExists, readTextOrProblem } from '../../files/atomic-write.js';
import { splitFrontMatter } from '../markdown/front-matter.js';
import { MemoryFileError } from '../store/memory-errors.js';
import { assertRealInside, resolveInside } from '../../files/safe-path.js';
import { parseNote } from '../markdown/note-format.js';
import { INDEX_FILE, LOG_FILE_NAME } from './note-index.js';

export interface NoteFilesOptions {
  notesDir: string;
  /** Prefix for paths in problems, e.g. `my-project/notes/`. */
  shownPrefix: string;
}

export class NoteFiles {
  constructor(private readonly o: NoteFilesOptions) {}

  /** Validated absolute path of a note; `.md` is added when missing. */
  private async locate(path: string): Promise<{ rel: string; full: string }> {
    const trimmed =
      typeof path === 'string'
        ? path
            .trim()
            .replace(/^\.\//, '')
            .replace(/^notes\//, '')
        : path;
    resolveInside(this.o.notesDir, trimmed); // validates the name as given, before `.md` is added
    const rel = /\.md$/i.test(trimmed) ? trimmed : `${trimmed}.md`;
    const full = resolveInside(this.o.notesDir, rel);
    await assertRealInside(this.o.notesDir, full);
    return { rel, full };
  }

  private isSpecial(rel: string): boolean {
    return rel === INDEX_FILE || rel === LOG_FILE_NAME;
  }

  /** Relative paths of every note file (no dotfiles, no _index/_log, no symlinks), sorted. */
  async files(dir = ''): Promise<string[]> {
    const entries = await entriesIfExists(dir ? resolveInside(this.o.notesDir, dir) : this.o.notesDir);
    const out: string[] = [];
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) out.push(...(await this.files(rel)));
      else if (e.isFile() && /\.md$/i.test(e.name) && !this.isSpecial(rel)) out.push(rel);
    }
    return out.sort();
  }

  /** The note's text, null when absent; MemoryFileError when it is not UTF-8. */
  private async readText(full: string, rel: string): Promise<string | null> {
    const read = await readTextOrProblem(full, this.o.shownPrefix + rel);
    if (read !== null && 'problem' in read) throw new MemoryFileError(read.problem);
    return read?.text ?? null;
  }

  async list(): Promise<{ notes: NoteSummary[]; problems: FileProblem[] }> {
    const notes: NoteSummary[] = [];
    const problems: FileProblem[] = [];
    for (const rel of await this.files()) {
      const read = await readTextOrProblem(resolveInside(this.o.notesDir, rel), this.o.shownPrefix + rel);
      if (read === null) continue;
      if ('problem' in read) {
        problems.push(read.problem);
        continue;
      }
      const parsed = parseNote(read.text, rel, this.o.shownPrefix + rel);
      if (!parsed.ok) problems.push(parsed.problem);
      else notes.push({ path: rel, title: parsed.note.title, tags: parsed.note.tags, updated: parsed.note.updated });
    }
    return { notes, problems };
  }

  /** null when absent; throws MemoryFileError when its front matter is broken. */
  async read(path: string): Promise<Note | null> {
    const { rel, full } = await this.locate(path);
    const content = await this.readText(full, rel);
    if (content === null) return null;
    const parsed = parseNote(content, rel, this.o.shownPrefix + rel);
    if (!parsed.ok) throw new MemoryFileError(parsed.problem);
    return parsed.note;
  }

  /** Lines containing the phrase or every word of `query` (case-insensitive), in file order. */
  async grep(query: string, limit: number): Promise<TextHit[]> {
    const phrase = query.trim().toLowerCase();
    const words = phrase.split(/\s+/).filter(Boolean);
    if (words.length === 0 || limit <= 0) return [];
    const hits: TextHit[] = [];
    for (const rel of await this.files()) {
      const read = await readTextOrProblem(resolveInside(this.o.notesDir, rel), this.o.shownPrefix + rel);
      if (read === null || 'problem' in read) continue;
      const content = read.text;
      const split = splitFrontMatter(content);
      const bodyLine = split && split !== 'unterminated' ? split.bodyLine : 1;
      const lines = content.split(/\r?\n/);
      const sensitivity = rawPageSensitivity(lines.slice(0, bodyLine - 1));
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i]!;
        const searchable = i + 1 >= bodyLine || /^\s*(title|aliases|tags):/.test(line);
        if (!searchable) continue;
        const lower = line.toLowerCase();
        if (lower.includes(phrase) || words.every((w) => lower.includes(w))) {
          hits.push({ path: rel, line: i + 1, text: line.trim(), sensitivity });
          if (hits.length >= limit) return hits;
        }
      }
    }
    return hits;
  }
}

/** A page's sensitivity from its raw front matter lines, failing closed: a value the parser does not know is sensitive. */
function rawPageSensitivity(frontMatter: string[]): Sensitivity {
  let page: Sensitivity = 'personal';
  for (const l of frontMatter) {
    const m = /^\s*(sensitivity|kind)\s*:\s*['"]?([^'"#]*)/i.exec(l);
    const value = parseSensitivity(m?.[2]);
    if (value && (value.sensitivity === 'sensitive' || m?.[1]?.toLowerCase() === 'sensitivity'))
      page = value.sensitivity === 'sensitive' ? 'sensitive' : page === 'sensitive' ? page : value.sensitivity;
  }
  return page;
}
