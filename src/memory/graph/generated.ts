/**
 * The files Charlie generates next to the pages: `notes/_index.md` (from the pages' front
 * matter), `notes/_log.md` (append-only, one line per change) and the project's `review.md`
 * (the pairs of records in review). This module is their only writer.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Clock } from '../../core/ports/index.js';
import { formatLogLine, INDEX_FILE, LOG_FILE_NAME, LOG_HEADING, type LogAction } from '../notes/note-index.js';
import { ABSENT, fileVersion, sha256, writeFileAtomic } from '../../files/atomic-write.js';
import { resolveInside } from '../../files/safe-path.js';
import { GeneratedRender } from './generated-render.js';
import { LogState } from './log-state.js';
import type { PageStore } from './page-store.js';
import type { WikiSnapshot } from './wiki-pages.js';

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
  /** Per project: what the log holds for the hand-edit check, read as it grows. */
  private readonly logStates = new Map<string, LogState>();

  constructor(
    private readonly store: PageStore,
    private readonly clock: Clock,
  ) {}

  /** `_index.md` from the pages' front matter (and the project's `review.md`); written only when its bytes change. */
  async regenerateIndex(project: string): Promise<boolean> {
    const snap = await this.store.load(project);
    const { index: text, review: reviewText, inReview } = this.render(project).render(snap.pages, snap.problems);
    const reviewFile = resolveInside(this.store.projectDir(project), REVIEW_FILE);
    const reviewVersion = await fileVersion(reviewFile);
    if ((inReview || reviewVersion !== ABSENT) && reviewVersion !== sha256(reviewText)) await writeFileAtomic(reviewFile, reviewText);
    const full = resolveInside(this.store.notesDir(project), INDEX_FILE);
    if ((await fileVersion(full)) === sha256(text)) return false;
    await mkdir(dirname(full), { recursive: true });
    await writeFileAtomic(full, text);
    return true;
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
  prime(project: string, snap: Pick<WikiSnapshot, 'pages' | 'problems'>): void {
    this.render(project).render(snap.pages, snap.problems);
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
