/**
 * The files Charlie generates next to the pages: `notes/_index.md` (from the pages' front
 * matter), `notes/_log.md` (append-only, one line per change) and the project's `review.md`
 * (the pairs of records in review). This module is their only writer.
 */
import { appendFile, mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Clock } from '../../core/ports/index.js';
import { formatLogLine, INDEX_FILE, LOG_FILE_NAME, LOG_HEADING, type LogAction } from '../notes/note-index.js';
import { ABSENT, fileVersion, sha256, writeFileAtomic } from '../../files/atomic-write.js';
import { resolveInside } from '../../files/safe-path.js';
import { GeneratedRender } from './generated-render.js';
import { LogState } from './log-state.js';
import type { PageStore } from './page-store.js';
import type { WikiSnapshot } from './wiki-pages.js';

interface FileStat {
  size: number;
  mtimeMs: number;
  ino: number;
}

/** A file's size, mtime and inode; null when it is absent. */
async function statOf(file: string): Promise<FileStat | null> {
  try {
    const s = await stat(file);
    return { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

const sameFile = (a: FileStat | null, b: FileStat | null) => (a === null || b === null ? a === b : a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino);

/** Generated at the project's root: the pairs of records in review. */
export const REVIEW_FILE = 'review.md';

/** Every file this module generates, relative to a project's folder: it is their only writer (test/unit/one-writer.test.ts). */
export const GENERATED_FILES = [`notes/${INDEX_FILE}`, `notes/${LOG_FILE_NAME}`, REVIEW_FILE] as const;

export interface LogEntry {
  action: LogAction;
  path: string;
  source?: string;
  detail?: string;
}

export class GeneratedFiles {
  /** Per project: the index and review texts, kept up to date page by page. */
  private readonly renders = new Map<string, GeneratedRender>();
  /** Per generated file: the render version it was last found or written to hold, and its stat then. */
  private readonly stood = new Map<string, { version: number; stat: FileStat | null }>();
  /** Per project: what the log holds for the hand-edit check, read as it grows. */
  private readonly logStates = new Map<string, LogState>();

  constructor(
    private readonly store: PageStore,
    private readonly clock: Clock,
  ) {}

  /**
   * `_index.md` from the pages' front matter (and the project's `review.md`); written only when its
   * bytes change. A text whose render version is the one last written or checked, in a file whose
   * size, mtime and inode are as they were then, is not read and hashed again: a hand edit of one
   * page's body at 10,000 pages costs its page's render, and two stats.
   */
  async regenerateIndex(project: string): Promise<boolean> {
    const snap = await this.store.load(project);
    const render = this.render(project);
    const { index: text, review: reviewText, inReview } = render.render(snap.pages, snap.problems, snap);
    const reviewFile = resolveInside(this.store.projectDir(project), REVIEW_FILE);
    if (!(await this.standing(reviewFile, render.reviewVersion))) {
      const reviewVersion = await fileVersion(reviewFile);
      if ((inReview || reviewVersion !== ABSENT) && reviewVersion !== sha256(reviewText)) await writeFileAtomic(reviewFile, reviewText);
      await this.stand(reviewFile, render.reviewVersion);
    }
    const full = resolveInside(this.store.notesDir(project), INDEX_FILE);
    if (await this.standing(full, render.indexVersion)) return false;
    const written = (await fileVersion(full)) !== sha256(text);
    if (written) {
      await mkdir(dirname(full), { recursive: true });
      await writeFileAtomic(full, text);
    }
    await this.stand(full, render.indexVersion);
    return written;
  }

  /** Whether `file` still holds what the render of `version` gave (as last written or checked, unchanged on disk since). */
  private async standing(file: string, version: number): Promise<boolean> {
    const known = this.stood.get(file);
    if (known?.version !== version) return false;
    return sameFile(known.stat, await statOf(file));
  }

  /** `file` now holds the render of `version` (or is absent by the same render): remembered by its stat. */
  private async stand(file: string, version: number): Promise<void> {
    this.stood.set(file, { version, stat: await statOf(file) });
  }

  async log(project: string, lines: readonly LogEntry[]): Promise<void> {
    if (!lines.length) return;
    const full = resolveInside(this.store.notesDir(project), LOG_FILE_NAME);
    await mkdir(dirname(full), { recursive: true });
    const exists = (await fileVersion(full)) !== ABSENT;
    const now = this.clock.now().toISOString();
    const text = lines.map((l) => formatLogLine({ time: now, ...l })).join('');
    await appendFile(full, (exists ? '' : LOG_HEADING) + text, 'utf8');
  }

  /** Renders a project's index once ahead of its first change (at start, in the background), so that change renders only its page. */
  prime(project: string, snap: WikiSnapshot): void {
    this.render(project).render(snap.pages, snap.problems, snap);
  }

  private render(project: string): GeneratedRender {
    let render = this.renders.get(project);
    if (!render) this.renders.set(project, (render = new GeneratedRender()));
    return render;
  }

  /** The hand edits the log already holds and its page renames, reading only what was appended since the last call. */
  logState(project: string): ReturnType<LogState['read']> {
    let state = this.logStates.get(project);
    if (!state) this.logStates.set(project, (state = new LogState(resolveInside(this.store.notesDir(project), LOG_FILE_NAME))));
    return state.read();
  }

  /** The log's text ('' when there is none yet). */
  async readLog(project: string): Promise<string> {
    return await readFile(resolveInside(this.store.notesDir(project), LOG_FILE_NAME), 'utf8').catch(() => '');
  }
}
