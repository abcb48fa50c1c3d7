/**
 * FileProjectStore: the ProjectStore port on plain Markdown files (schema 1).
 *
 *     projects/<slug>/project.md     settings (front matter) + summary (body)
 *     projects/<slug>/decisions.md   layer 2        projects/<slug>/quotes.md   layer 3
 *     projects/<slug>/log/*.md       archive        projects/<slug>/notes/      entity pages (read here;
 *                                                    the knowledge graph writes them, and forgets them for this store)
 *
 * Writes are atomic and never replace a file whose bytes changed since it was read; files that
 * do not parse are reported (FileProblem) and never rewritten. Mutations of one project run one
 * at a time (a promise chain per slug in this instance).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { CharlieError, UnsafeNameError } from '../../core/errors.js';
import { silentLogger } from '../../core/ports/index.js';
import { KeyedQueue } from '../../core/keyed-queue.js';
import type {
  Clock,
  FileProblem,
  LayersSnapshot,
  LogCursor,
  LogEntry,
  LogTail,
  Logger,
  MemoryLayers,
  Note,
  NoteSummary,
  ProjectConfig,
  ProjectOrigin,
  ProjectStore,
  RaisedEntryLabel,
  TextHit,
  WriteOutcome,
} from '../../core/ports/index.js';
import { numberedSlug, slugify } from '../slug.js';
import { NoteFiles } from '../notes/note-files.js';
import type { PageEdits } from '../graph/page-removal.js';
import { ABSENT, openFile, readIfExists, sha256, writeFileAtomic, type OpenFile } from '../../files/atomic-write.js';
import { PROJECT_FILE, readLayerFiles, writeLayerFiles } from './layers-files.js';
import { LogArchive, plainEntry, type ReadObserver } from './log-archive.js';
import { MemoryFileError } from './memory-errors.js';
import { newProjectFile, parseProjectFile, patchSchema, ProjectFileReader, relabelSchema, withFields, type ParsedProject, type ProjectDefaults } from './project-file.js';
import { cursorToStore, type StoredLogCursor } from './log-cursor.js';
import { holdsMemory, orphanFor } from './orphans.js';
import { forgetDeps, forgetInProject } from './forget.js';
import { readTombstones, withoutForgotten } from '../tombstones.js';
import { type ForgetOutcome, type ForgetTarget, type Tombstone } from '../../core/inspector/tombstones.js';
import { realInsideChecker, resolveChild, resolveInside } from '../../files/safe-path.js';

export interface FileProjectStoreOptions {
  projectsDir: string;
  clock: Clock;
  logger?: Logger;
  defaults?: ProjectDefaults;
  /** Diagnostics: called for every read of a log file (path, byte position, bytes read). */
  onLogRead?: ReadObserver;
  /** The file-system edge for writes (tests script a full disk with it). */
  openFile?: OpenFile;
  /** The knowledge graph's page edits: forgetting a note, an entry or a record of one goes through its one writer. */
  pages?: PageEdits;
  /** Something was forgotten in the project: derived copies (the index) must let go of it too. */
  onForgotten?: (slug: string) => Promise<unknown>;
}

const MAX_ATTEMPTS = 3;
const ENSURE_LANE = '\u0000ensure';

export class FileProjectStore implements ProjectStore {
  private readonly root: string;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly defaults: ProjectDefaults;
  private readonly onLogRead: ReadObserver | undefined;
  private readonly openFile: OpenFile;
  private readonly pages: PageEdits | undefined;
  private readonly onForgotten: FileProjectStoreOptions['onForgotten'];
  /** origin key → slug, built lazily from project.md files and refreshed on a miss. */
  private keys: Map<string, string> | null = null;
  /** The symlink check under the projects folder, with the folder's own realpath taken once (it was half of every check). */
  private readonly assertInside: (full: string) => Promise<void>;
  private readonly projectFiles: ProjectFileReader;
  /** One file operation at a time per project (and one lane for creating projects). */
  private readonly lanes = new KeyedQueue();

  constructor(options: FileProjectStoreOptions) {
    this.root = options.projectsDir;
    this.assertInside = realInsideChecker(this.root);
    this.clock = options.clock;
    this.logger = (options.logger ?? silentLogger).child({ component: 'project-store' });
    this.defaults = options.defaults ?? { distillEvery: 5 };
    this.projectFiles = new ProjectFileReader(this.defaults);
    this.onLogRead = options.onLogRead;
    this.openFile = options.openFile ?? openFile;
    this.pages = options.pages;
    this.onForgotten = options.onForgotten;
  }

  private dir(slug: string): string {
    return resolveChild(this.root, slug);
  }

  private async archive(slug: string): Promise<LogArchive> {
    const logDir = resolveInside(this.dir(slug), 'log');
    await this.assertInside(logDir);
    return new LogArchive(logDir, this.onLogRead, this.openFile);
  }

  private notes(slug: string): NoteFiles {
    return new NoteFiles({ notesDir: resolveInside(this.dir(slug), 'notes'), shownPrefix: `${slug}/notes/` });
  }

  private report(problems: FileProblem[]): void {
    for (const p of problems) this.logger.warn({ path: p.path, line: p.line }, `memory file not understood, left untouched: ${p.message}`);
  }

  /** `fresh`: a parse of its own (patching edits the parsed document in place). */
  private async readProject(slug: string, fresh = false): Promise<{ text: string; parsed: ParsedProject } | null> {
    const path = resolveInside(this.dir(slug), PROJECT_FILE);
    await this.assertInside(path);
    return this.projectFiles.read(path, `${slug}/${PROJECT_FILE}`, slug, fresh);
  }

  /** Re-reads project.md and rewrites front matter fields, keeping everything else. */
  private async patchProjectFile(slug: string, fields: (parsed: ParsedProject) => Record<string, unknown>): Promise<ParsedProject> {
    const path = resolveInside(this.dir(slug), PROJECT_FILE);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const current = await this.readProject(slug, true);
      if (!current) throw new CharlieError(`no project "${slug}" (missing ${slug}/${PROJECT_FILE})`);
      const { parsed, text } = current;
      if (!parsed.doc || !parsed.split) throw new MemoryFileError(parsed.problems[0]!);
      const next = withFields(parsed.doc, parsed.split, fields(parsed));
      if (next === text) return parsed;
      if ((await writeFileAtomic(path, next, sha256(text), this.openFile)).ok) return parseProjectFile(next, slug, `${slug}/${PROJECT_FILE}`, this.defaults);
    }
    throw new CharlieError(`${slug}/${PROJECT_FILE} kept changing while Charlie tried to update it — try again`);
  }

  // ───────────── projects ─────────────

  private async scan(): Promise<{ keys: Map<string, string>; broken: string[]; orphans: string[] }> {
    await mkdir(this.root, { recursive: true });
    const keys = new Map<string, string>();
    const broken: string[] = [];
    const orphans: string[] = [];
    const dirs = (await readdir(this.root, { withFileTypes: true }))
      .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
      .map((d) => d.name)
      .sort();
    for (const slug of dirs) {
      let project;
      try {
        project = await this.readProject(slug);
      } catch (err) {
        if (err instanceof UnsafeNameError) continue;
        throw err;
      }
      if (!project) {
        if (await holdsMemory(this.dir(slug))) orphans.push(slug);
        continue;
      }
      if (project.parsed.problems.length) broken.push(slug);
      for (const key of project.parsed.config.keys) if (!keys.has(key)) keys.set(key, slug);
    }
    this.keys = keys;
    return { keys, broken, orphans };
  }

  private async findByKey(origin: ProjectOrigin): Promise<string | null> {
    const { key, name } = origin;
    const cached = this.keys?.get(key);
    if (cached) {
      const project = await this.readProject(cached).catch(() => null);
      if (project?.parsed.config.keys.includes(key)) return cached;
    }
    const { keys, broken, orphans } = await this.scan();
    const slug = keys.get(key);
    if (slug) return slug;
    // A broken project.md whose text still names the key, or which sits in the folder this
    // origin's name would get, is kept in use rather than splitting the memory into a new folder.
    const own = slugify(name);
    for (const pass of [0, 1]) {
      for (const b of broken) {
        const project = await this.readProject(b);
        if (!project) continue;
        if (pass === 0 ? project.text.includes(key) : b === own) {
          this.report(project.parsed.problems);
          return b;
        }
      }
    }
    // A folder whose project.md was deleted by hand: give it a new one, keep everything else.
    const orphan = await orphanFor(orphans, origin, own, (slug) => this.archive(slug));
    if (orphan) await this.writeNewProjectFile(orphan, origin, 'recovered project: project.md was missing; archive, decisions and notes kept');
    return orphan;
  }

  private async writeNewProjectFile(slug: string, origin: ProjectOrigin, what: string): Promise<string> {
    const text = newProjectFile({ id: randomUUID(), origin, now: this.clock.now().toISOString(), distillEvery: this.defaults.distillEvery });
    await writeFileAtomic(resolveInside(this.dir(slug), PROJECT_FILE), text, ABSENT, this.openFile);
    this.keys?.set(origin.key, slug);
    this.logger.info({ slug, key: origin.key }, what);
    return text;
  }

  async ensureProject(origin: ProjectOrigin): Promise<ProjectConfig> {
    // origins come from front doors at run time: a missing one is a named error, not a TypeError
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    if (typeof origin?.key !== 'string' || !origin.key.trim()) throw new UnsafeNameError('a project origin needs a non-empty key');
    return this.lanes.run(ENSURE_LANE, async () => {
      const found = await this.findByKey(origin);
      if (found) return (await this.getProject(found))!.config;
      return this.create(origin);
    });
  }

  private async create(origin: ProjectOrigin): Promise<ProjectConfig> {
    const base = slugify(origin.name);
    for (let n = 1; n < 10_000; n++) {
      const slug = numberedSlug(base, n);
      try {
        await mkdir(this.dir(slug));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw err;
      }
      const text = await this.writeNewProjectFile(slug, origin, 'created project');
      return parseProjectFile(text, slug, `${slug}/${PROJECT_FILE}`, this.defaults).config;
    }
    throw new CharlieError(`could not find a free folder name for project "${base}"`);
  }

  /** Every project with a readable project.md, by slug (the web app's sidebar). */
  async listProjects(): Promise<ProjectConfig[]> {
    await mkdir(this.root, { recursive: true });
    const dirs = (await readdir(this.root, { withFileTypes: true }))
      .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
      .map((d) => d.name)
      .sort();
    const out: ProjectConfig[] = [];
    for (const slug of dirs) {
      const project = await this.readProject(slug).catch(() => null);
      if (project) out.push(project.parsed.config);
    }
    return out;
  }

  /**
   * The raw Markdown of one page of a project (`project.md`, `decisions.md`, `notes/People/X.md`,
   * `log/2026-11-29.md`), or null when it does not exist. Only `.md` files inside the project.
   */
  async readPage(slug: string, page: string): Promise<string | null> {
    if (!/\.md$/i.test(page)) throw new UnsafeNameError(`"${page.slice(0, 80)}" is not a Markdown page`);
    const full = resolveInside(this.dir(slug), page);
    await this.assertInside(full);
    return readIfExists(full);
  }

  async getProject(slug: string): Promise<{ config: ProjectConfig; problems: FileProblem[] } | null> {
    const project = await this.readProject(slug);
    if (!project) return null;
    this.report(project.parsed.problems);
    return { config: project.parsed.config, problems: project.parsed.problems };
  }

  async updateProject(slug: string, patch: Partial<Pick<ProjectConfig, 'style' | 'distillEvery' | 'archive' | 'respond'>>): Promise<ProjectConfig> {
    const p = patchSchema.parse(patch);
    return this.lanes.run(slug, async () => {
      const parsed = await this.patchProjectFile(slug, () => ({
        ...(p.style !== undefined ? { style: p.style } : {}),
        ...(p.distillEvery !== undefined ? { distill_every: p.distillEvery } : {}),
        ...(p.archive !== undefined ? { archive: p.archive } : {}),
        ...(p.respond !== undefined ? { respond: p.respond } : {}),
        updated: this.clock.now().toISOString(),
      }));
      return parsed.config;
    });
  }

  /**
   * A project's display name and whether the web app lists it, in project.md's front matter. The
   * folder (slug) and the keys stay, so the channel mapping, the archive, links and the index keep
   * working: a rename never moves memory. The name is text in YAML, never a path.
   */
  async relabelProject(slug: string, change: { name?: string; archived?: boolean }): Promise<ProjectConfig> {
    const c = relabelSchema.parse(change);
    return this.lanes.run(slug, async () => {
      const parsed = await this.patchProjectFile(slug, () => ({
        ...(c.name !== undefined ? { name: c.name } : {}),
        ...(c.archived !== undefined ? { archived: c.archived } : {}),
        updated: this.clock.now().toISOString(),
      }));
      return parsed.config;
    });
  }

  // ───────────── layers ─────────────

  async readLayers(slug: string): Promise<LayersSnapshot> {
    const snapshot = await readLayerFiles(this.dir(slug), slug, this.defaults);
    this.report(snapshot.problems);
    return snapshot;
  }

  writeLayers(slug: string, layers: MemoryLayers, versions: Record<string, string>): Promise<WriteOutcome> {
    return this.lanes.run(slug, async () => {
      await this.assertInside(this.dir(slug));
      const outcome = await writeLayerFiles(this.dir(slug), slug, withoutForgotten(layers, await readTombstones(this.dir(slug))), versions, this.defaults, this.openFile);
      if (!outcome.ok) this.logger.warn({ slug, reason: outcome.reason, paths: outcome.paths }, outcome.message);
      return outcome;
    });
  }

  // ───────────── archive ─────────────

  appendLog(slug: string, entry: LogEntry): Promise<void> {
    return this.lanes.run(slug, async () => {
      const project = await this.readProject(slug);
      if (project && !project.parsed.config.archive) return;
      const valid = !Number.isNaN(new Date(entry.time).getTime());
      if (!valid) this.logger.warn({ slug, time: entry.time }, 'log entry has no valid time; using now');
      await (await this.archive(slug)).append(valid ? entry : { ...entry, time: this.clock.now().toISOString() });
    });
  }

  readLogSince(slug: string, cursor: LogCursor | null): Promise<LogTail> {
    return this.lanes.run(slug, async () => {
      const { entries, cursor: next, after } = await (await this.archive(slug)).readSince(cursor);
      return { entries: entries.map(plainEntry), cursor: next, after };
    });
  }

  recentLog(slug: string, limit: number): Promise<LogEntry[]> {
    return this.lanes.run(slug, async () => (await (await this.archive(slug)).recent(limit)).map(plainEntry));
  }

  logOn(slug: string, days: readonly string[]): Promise<LogEntry[]> {
    return this.lanes.run(slug, async () => (await (await this.archive(slug)).on(days)).map(plainEntry));
  }

  raiseLogLabels(slug: string, raised: readonly RaisedEntryLabel[]): Promise<number> {
    const move = (cursor: StoredLogCursor) => this.patchProjectFile(slug, () => ({ distill_cursor: cursor }));
    return this.lanes.run(slug, async () => (await this.archive(slug)).raiseLabels(raised, (await this.readProject(slug, true))?.parsed.cursor ?? null, move));
  }

  async getDistillCursor(slug: string): Promise<LogCursor | null> {
    return (await this.readProject(slug))?.parsed.cursor ?? null;
  }

  async setDistillCursor(slug: string, cursor: LogCursor): Promise<void> {
    const stored = cursorToStore(cursor);
    return this.lanes.run(slug, async () => {
      await this.patchProjectFile(slug, () => ({ distill_cursor: stored }));
    });
  }

  // ───────────── notes ─────────────

  /** Notes plus the files that could not be read (listNotes only logs those). */
  async unreadableNotes(slug: string): Promise<string[]> {
    const prefix = `${slug}/notes/`;
    return (await this.listNotesWithProblems(slug)).problems.map((p) => (p.path.startsWith(prefix) ? p.path.slice(prefix.length) : p.path));
  }

  async listNotesWithProblems(slug: string): Promise<{ notes: NoteSummary[]; problems: FileProblem[] }> {
    return this.notes(slug).list();
  }

  async listNotes(slug: string): Promise<NoteSummary[]> {
    const { notes, problems } = await this.notes(slug).list();
    this.report(problems);
    return notes;
  }

  readNote(slug: string, path: string): Promise<Note | null> {
    return this.notes(slug).read(path);
  }

  tombstones(slug: string): Promise<Tombstone[]> {
    return readTombstones(this.dir(slug));
  }

  forget(slug: string, target: ForgetTarget, by: string, options: { removeMessages: boolean }): Promise<ForgetOutcome> {
    const dir = this.dir(slug);
    const outcome = this.lanes.run(slug, async () => {
      await this.assertInside(dir);
      const deps = { dir, slug, clock: this.clock, notes: this.notes(slug), pages: this.pages, defaults: this.defaults, openFile: this.openFile };
      return forgetInProject(forgetDeps(deps, by), target, by, options);
    });
    return outcome.then(async (out) => {
      if (out.forgotten && this.onForgotten) await this.onForgotten(slug).catch((err: unknown) => this.logger.warn({ slug, err }, 'the index still holds a forgotten item until its next clean-up'));
      return out;
    });
  }

  grepNotes(slug: string, query: string, limit: number): Promise<TextHit[]> {
    return this.notes(slug).grep(query, limit);
  }
}
