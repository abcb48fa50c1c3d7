/** Ports owned by the core: project memory. Adapters implement them; nothing here imports infrastructure. */
import type { ForgetOutcome, ForgetTarget, Tombstone } from '../inspector/tombstone-types.js';
import type { Sensitivity, SensitiveKind, SensitivityValue } from '../privacy/sensitivity.js';

/** Identifies where a project came from; ids are strings (Discord snowflakes etc.). */
export interface ProjectOrigin {
  /** Human name, e.g. the Discord channel name or `--project NAME`. */
  name: string;
  /** A stable key that survives renames, e.g. `discord:<guildId>:<channelId>` or `terminal:general`. */
  key: string;
  discord?: { guildId: string; channelId: string };
}

export interface ProjectConfig {
  slug: string;
  name: string;
  /** Free-text response style applied to every reply in this project. */
  style: string;
  distillEvery: number;
  /** Whether every message is appended to the log/ archive. */
  archive: boolean;
  /** `always` answers every message; `mention` only when addressed (Discord). */
  respond: 'always' | 'mention';
  keys: string[];
  discord?: { guildId: string; channelIds: string[] };
  /** Hidden from the web app's project list (front matter `archived: true`); memory and channel mapping stay. */
  archived?: boolean;
  created: string;
  updated: string;
}

export interface Decision {
  /** YYYY-MM-DD */
  date: string;
  text: string;
  /** Source link of the message that made the decision. */
  source: string;
}

export interface Quote {
  date: string;
  speaker: string;
  text: string;
  source: string;
}

export interface MemoryLayers {
  summary: string;
  decisions: Decision[];
  quotes: Quote[];
}

/** A problem found while reading a Markdown file: the file is left untouched. */
export interface FileProblem {
  path: string;
  line?: number;
  message: string;
}

/** One message in the conversation archive (`log/YYYY-MM-DD.md`). */
export interface LogEntry {
  /** ISO timestamp. */
  time: string;
  speaker: string;
  /** A link or URI that points back to the message (discord URL, `terminal:…`, `voice:…`, `locomo:D1:3`). */
  source: string;
  text: string;
  /** `user` for people, `assistant` for Charlie's own replies. */
  role: 'user' | 'assistant';
  /**
   * The label it was stored with (the archive's trailing `[sensitivity:: …]` line, a DM row's
   * column), set when it was written; read it with `labelOf`, which also applies the rules.
   */
  sensitivity?: Sensitivity;
  /** The kind of a sensitive label (`phi`, `credential`, `financial`). */
  kind?: SensitiveKind;
  /**
   * Labelled sensitive because the memory lane could not judge it before anything left (its
   * precheck failed closed): provisional, the lane's next whole verdict on it settles it
   * (`sensitive/unjudged` on disk; every other reader reads it as sensitive).
   */
  unjudged?: true;
}

/** A stricter label for an entry already stored (the memory lane's verdict), and the entry as it was read. */
export interface RaisedEntryLabel {
  entry: LogEntry;
  label: SensitivityValue;
}

/** Position in the archive: the log file name and a byte offset into it. */
export interface LogCursor {
  file: string;
  offset: number;
}

export interface LogTail {
  entries: LogEntry[];
  /** Cursor just after the last entry returned. */
  cursor: LogCursor | null;
  /** Cursor just after each entry (same order), so a reader can stop part-way. */
  after: LogCursor[];
}

/** Versions of the three layer files as read, so a write can detect hand edits made since. */
export interface LayersSnapshot {
  layers: MemoryLayers;
  /** Opaque content hashes per file; passed back to `writeLayers`. */
  versions: Record<string, string>;
  problems: FileProblem[];
}

export type WriteOutcome = { ok: true } | { ok: false; reason: 'conflict' | 'invalid'; paths: string[]; message: string };

export interface NoteSummary {
  /** Path relative to the project's notes/ folder, e.g. `People/Sarah-Chen.md`. */
  path: string;
  title: string;
  tags: string[];
  updated: string;
}

export interface Note extends NoteSummary {
  body: string;
  aliases: string[];
  category?: string;
  staleness: number;
  confidence: number;
  sensitivity: Sensitivity;
  /** The front matter's provenance (message links, `manual`, …), as written. */
  sources?: string[];
  /** The front matter's `status` (active, review, held); absent = active. */
  status?: string;
}

/** What the `remember` tool (or the memory lane) asks to file; the knowledge graph writes it as records. */
export interface NoteDraft {
  title: string;
  body: string;
  category?: string;
  tags?: string[];
  aliases?: string[];
  source: string;
}

export interface TextHit {
  path: string;
  line: number;
  text: string;
  /** The page's, read from its front matter failing closed (an unreadable value is sensitive). */
  sensitivity?: Sensitivity;
}

/** The Markdown project memory. Paths given to it are always relative and validated by the adapter. */
export interface ProjectStore {
  /** Find or create the project for an origin; names become safe slugs. */
  ensureProject(origin: ProjectOrigin): Promise<ProjectConfig>;
  getProject(slug: string): Promise<{ config: ProjectConfig; problems: FileProblem[] } | null>;
  /** Every project with a readable project.md, by slug. */
  listProjects(): Promise<ProjectConfig[]>;
  /** A project's display name and whether it is listed (the folder and keys stay). */
  relabelProject(slug: string, change: { name?: string; archived?: boolean }): Promise<ProjectConfig>;
  /** The raw Markdown of one page of a project (`project.md`, `notes/People/X.md`, `log/…`), or null; only `.md` files inside it. */
  readPage(slug: string, page: string): Promise<string | null>;
  updateProject(slug: string, patch: Partial<Pick<ProjectConfig, 'style' | 'distillEvery' | 'archive' | 'respond'>>): Promise<ProjectConfig>;
  readLayers(slug: string): Promise<LayersSnapshot>;
  /** Atomic; refuses (`conflict`) when a file changed since `versions` were read. */
  writeLayers(slug: string, layers: MemoryLayers, versions: Record<string, string>): Promise<WriteOutcome>;
  appendLog(slug: string, entry: LogEntry): Promise<void>;
  /** Entries after `cursor` (null = from the beginning), reading only the tail of the archive. */
  readLogSince(slug: string, cursor: LogCursor | null): Promise<LogTail>;
  /** The last `limit` entries of the archive (conversation context for a turn). */
  recentLog(slug: string, limit: number): Promise<LogEntry[]>;
  /** The archive's entries of `days` (YYYY-MM-DD): "why?" reads the messages that said its best records. */
  logOn(slug: string, days: readonly string[]): Promise<LogEntry[]>;
  /** Writes stricter labels into archived entries (never a laxer one); the distil cursor keeps its place. Returns how many were raised. */
  raiseLogLabels(slug: string, raised: readonly RaisedEntryLabel[]): Promise<number>;
  getDistillCursor(slug: string): Promise<LogCursor | null>;
  setDistillCursor(slug: string, cursor: LogCursor): Promise<void>;
  listNotes(slug: string): Promise<NoteSummary[]>;
  /** Notes that cannot be read (their front matter does not parse), as paths relative to notes/. */
  unreadableNotes(slug: string): Promise<string[]>;
  readNote(slug: string, path: string): Promise<Note | null>;
  /** Plain case-insensitive text search over notes (the hybrid engine lives in recall). */
  grepNotes(slug: string, query: string, limit: number): Promise<TextHit[]>;
  /** The project's tombstones (forgotten.md). Notes and layers that match one are never written. */
  tombstones(slug: string): Promise<Tombstone[]>;
  /** Removes the item, leaves a tombstone, and optionally redacts the archive entries that said it. */
  forget(slug: string, target: ForgetTarget, by: string, options: { removeMessages: boolean }): Promise<ForgetOutcome>;
}
