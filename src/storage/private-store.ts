/**
 * Private (DM) conversations in SQLite only: the message history and the distilled memory
 * (summary, decisions, quotes, style) per user. Never Markdown, never the shared index.
 * Tables are prefixed `dm_`; the file (data/private.db) is the one part of data/ that is not derived.
 */
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { MemoryUnavailableError } from '../core/errors.js';
import { isSensitive, labelOf, type SensitivityValue } from '../core/privacy/sensitivity.js';
import type { Clock, Decision, Embedder, LogEntry, MemoryLayers, PrivateStore, Quote } from '../core/ports/index.js';
import { forgottenBy, type Tombstone } from '../core/inspector/tombstones.js';
import { inheritMessageLabels, migrateRecords, SqlitePrivateRecords } from './private-records.js';
import { migrateConsents, SqliteConsentLedger } from './consent-ledger.js';
import { dropDeletedMessages, migrateRecall, SqlitePrivateRecall } from './private-recall.js';
import { privateFile, privateFolder } from './private-files.js';

type Row = Record<string, unknown>;

/** SQLITE_CORRUPT and SQLITE_NOTADB (primary codes; extended codes keep them in the low byte). */
const DAMAGED = new Set([11, 26]);

export function isDamagedDatabase(err: unknown): boolean {
  const e = err as { code?: unknown; errcode?: unknown } | null;
  return e?.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number' && DAMAGED.has(e.errcode & 0xff);
}

/**
 * private.db is damaged. The message is for the person who runs Charlie: which file, what still
 * works, and how to recover — and it says plainly which step would lose DM memory.
 */
export class PrivateMemoryError extends MemoryUnavailableError {
  constructor(
    readonly path: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      `My private memory file ${path} is damaged (${detail}), so I can't use private conversations (DMs) right now; projects keep working. ` +
        `To recover: stop Charlie and keep a copy of ${path}. ` +
        `Then rebuild it with the sqlite3 command-line tool: sqlite3 ${path} .recover | sqlite3 ${path}.recovered, and put ${path}.recovered in its place. ` +
        `If that fails, moving ${path} away lets DMs start again with an empty memory, and that loses the DM history and private memory in it (the copy keeps them).`,
      options,
    );
  }
}

interface Statements {
  insertMessage: StatementSync;
  selectRecent: StatementSync;
  selectSince: StatementSync;
  selectMemory: StatementSync;
  upsertLayers: StatementSync;
  upsertStyle: StatementSync;
}

function prepare(db: DatabaseSync): Statements {
  db.exec(`
    PRAGMA journal_mode = WAL;
    PRAGMA busy_timeout = 2000;
    PRAGMA secure_delete = ON;
    CREATE TABLE IF NOT EXISTS dm_messages (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      user_id TEXT NOT NULL, time TEXT NOT NULL, speaker TEXT NOT NULL,
      source TEXT NOT NULL, text TEXT NOT NULL, role TEXT NOT NULL CHECK (role IN ('user', 'assistant')));
    CREATE INDEX IF NOT EXISTS dm_messages_user ON dm_messages (user_id, id);
    CREATE TABLE IF NOT EXISTS dm_memory (
      user_id TEXT PRIMARY KEY,
      summary TEXT NOT NULL DEFAULT '', decisions TEXT NOT NULL DEFAULT '[]', quotes TEXT NOT NULL DEFAULT '[]',
      distilled_through INTEGER NOT NULL DEFAULT 0, style TEXT NOT NULL DEFAULT '', updated TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS dm_tombstones (
      id INTEGER PRIMARY KEY AUTOINCREMENT, user_id TEXT NOT NULL, kind TEXT NOT NULL,
      description TEXT NOT NULL, keys TEXT NOT NULL, time TEXT NOT NULL, by TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS dm_tombstones_user ON dm_tombstones (user_id);
  `);
  // Schema 2: every message row knows its sensitivity (older files gain the column, 'personal').
  const columns = (db.prepare('PRAGMA table_info(dm_messages)').all() as Row[]).map((c) => String(c.name));
  if (!columns.includes('sensitivity')) db.exec("ALTER TABLE dm_messages ADD COLUMN sensitivity TEXT NOT NULL DEFAULT 'personal'");
  // Schema 6: a provisional label (the lane could not judge the message in time), settled by its next verdict
  if (!columns.includes('unjudged')) db.exec('ALTER TABLE dm_messages ADD COLUMN unjudged INTEGER NOT NULL DEFAULT 0');
  // Schema 3: typed records and waiting candidates (private-records.ts)
  migrateRecords(db);
  // a record made from a message carries its label (seventh sweep): records written before that rule take it now
  inheritMessageLabels(db);
  // Schema 5: the per-user hybrid index of DM recall (private-recall.ts)
  migrateRecall(db);
  // the consent ledger of asking in the moment (consent-ledger.ts)
  migrateConsents(db);
  return {
    insertMessage: db.prepare('INSERT INTO dm_messages (user_id, time, speaker, source, text, role, sensitivity, unjudged) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    selectRecent: db.prepare('SELECT * FROM (SELECT * FROM dm_messages WHERE user_id = ? ORDER BY id DESC LIMIT ?) ORDER BY id ASC'),
    selectSince: db.prepare('SELECT * FROM dm_messages WHERE user_id = ? AND id > ? ORDER BY id ASC'),
    selectMemory: db.prepare('SELECT * FROM dm_memory WHERE user_id = ?'),
    upsertLayers: db.prepare(
      `INSERT INTO dm_memory (user_id, summary, decisions, quotes, distilled_through, updated) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET summary = excluded.summary, decisions = excluded.decisions, quotes = excluded.quotes,
         distilled_through = excluded.distilled_through, updated = excluded.updated`,
    ),
    upsertStyle: db.prepare(
      `INSERT INTO dm_memory (user_id, style, updated) VALUES (?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET style = excluded.style, updated = excluded.updated`,
    ),
  };
}

export class SqlitePrivateStore implements PrivateStore {
  private readonly db: DatabaseSync;
  /** null when the file could not be opened as a database at all (see `problem`). */
  private readonly q: Statements | null;
  /** Why the file could not be opened; every call then throws it. Shown at start-up. */
  readonly problem: PrivateMemoryError | null;
  /** The typed records and waiting candidates of each user's private conversation. */
  readonly records: SqlitePrivateRecords;
  /** Every consent its people gave to send a sensitive item to a hosted service (asking in the moment). */
  readonly consents: SqliteConsentLedger;
  /** The hybrid indexes handed out by `recall`, told when a user's rows are wiped. */
  private readonly recalls: SqlitePrivateRecall[] = [];

  /** `path` is a file (its folder is created) or `:memory:`. A damaged file is reported, never changed. */
  constructor(private readonly path: string) {
    if (path !== ':memory:') {
      // every DM lives here: 0600 in a 0700 folder before SQLite creates it
      privateFolder(dirname(path));
      privateFile(path);
    }
    this.db = new DatabaseSync(path);
    try {
      this.q = prepare(this.db);
      this.problem = null;
    } catch (err) {
      if (!isDamagedDatabase(err)) throw err;
      this.db.close();
      this.q = null;
      this.problem = this.damaged(err);
    }
    this.records = new SqlitePrivateRecords(this.db, <T>(fn: () => T) => this.use(fn));
    this.consents = new SqliteConsentLedger(this.db, <T>(fn: () => T) => this.use(fn));
  }

  /** The per-user hybrid index of DM recall in this file; `embedder` is used only when it is local. */
  recall(embedder: Embedder | null, clock: Clock): SqlitePrivateRecall {
    const index = new SqlitePrivateRecall(this.db, <T>(fn: () => T) => this.use(fn), embedder, clock);
    this.recalls.push(index);
    return index;
  }

  private damaged(err: unknown): PrivateMemoryError {
    const detail = (err as { errstr?: unknown }).errstr;
    return new PrivateMemoryError(this.path, typeof detail === 'string' ? detail : 'not readable', { cause: err });
  }

  /** Runs a query; a damaged database becomes a PrivateMemoryError that says how to recover. */
  private use<T>(fn: (q: Statements) => T): T {
    if (!this.q) throw this.problem ?? this.damaged(null);
    try {
      return fn(this.q);
    } catch (err) {
      if (isDamagedDatabase(err)) throw this.damaged(err);
      throw err;
    }
  }

  appendMessage(userId: string, entry: LogEntry): void {
    this.use((q) => q.insertMessage.run(userId, entry.time, entry.speaker, entry.source, entry.text, entry.role, labelOf(entry).sensitivity, entry.unjudged ? 1 : 0));
  }

  raiseMessageLabels(userId: string, raised: readonly { id: number; label: SensitivityValue }[]): void {
    const raise = this.db.prepare("UPDATE dm_messages SET sensitivity = 'sensitive', unjudged = 0 WHERE user_id = ? AND id = ?");
    // a provisional label the verdict settled as ordinary: only a row still provisional is lowered
    const settle = this.db.prepare('UPDATE dm_messages SET sensitivity = ?, unjudged = 0 WHERE user_id = ? AND id = ? AND unjudged = 1');
    // and the reply of a raised message's turn (same source, the next of Charlie's): its turn drew on the message
    const reply = this.db.prepare(
      "UPDATE dm_messages SET sensitivity = 'sensitive' WHERE id = (SELECT r.id FROM dm_messages m JOIN dm_messages r ON r.user_id = m.user_id AND r.id > m.id AND r.role = 'assistant' AND r.source = m.source WHERE m.user_id = ? AND m.id = ? AND m.role = 'user' ORDER BY r.id LIMIT 1)",
    );
    this.use(() => {
      for (const { id, label } of raised) {
        if (!isSensitive(label)) {
          settle.run(label.sensitivity, userId, id);
          continue;
        }
        raise.run(userId, id);
        reply.run(userId, id);
      }
    });
  }

  /** The newest messages labelled sensitive, of every user (to judge text whose place is not known). */
  sensitiveEverywhere(limit: number): LogEntry[] {
    return this.use(() => (this.db.prepare("SELECT * FROM dm_messages WHERE sensitivity = 'sensitive' ORDER BY id DESC LIMIT ?").all(limit) as Row[]).map(toEntry));
  }

  sensitiveMessages(userId: string): LogEntry[] {
    return this.use(() => (this.db.prepare("SELECT * FROM dm_messages WHERE user_id = ? AND sensitivity = 'sensitive' ORDER BY id").all(userId) as Row[]).map(toEntry));
  }

  messageStats(userId: string): { count: number; first: string | null; last: string | null } {
    const row = this.use(
      () => this.db.prepare('SELECT COUNT(*) AS n, MIN(time) AS first, MAX(time) AS last FROM dm_messages WHERE user_id = ?').get(userId) as { n: number; first: string | null; last: string | null },
    );
    return { count: row.n, first: row.first, last: row.last };
  }

  deleteMessages(userId: string, range: { sinceTime: string } | { lastN: number }): number {
    const result = this.use(() =>
      'sinceTime' in range
        ? this.db.prepare('DELETE FROM dm_messages WHERE user_id = ? AND time >= ?').run(userId, range.sinceTime)
        : this.db.prepare('DELETE FROM dm_messages WHERE id IN (SELECT id FROM dm_messages WHERE user_id = ? ORDER BY id DESC LIMIT ?)').run(userId, Math.max(0, Math.trunc(range.lastN))),
    );
    if (Number(result.changes) > 0)
      this.use(() => {
        dropDeletedMessages(this.db, userId);
        for (const r of this.recalls) r.drop(userId);
        this.scrubLog();
      });
    return Number(result.changes);
  }

  tombstones(userId: string): Tombstone[] {
    const rows = this.use(() => this.db.prepare('SELECT * FROM dm_tombstones WHERE user_id = ? ORDER BY id').all(userId) as Row[]);
    return rows.map((r) => ({ kind: String(r.kind) as Tombstone['kind'], description: String(r.description), keys: parseList<string>(r.keys), when: String(r.time), by: String(r.by) }));
  }

  addTombstone(userId: string, t: Tombstone): void {
    this.use(() =>
      this.db.prepare('INSERT INTO dm_tombstones (user_id, kind, description, keys, time, by) VALUES (?, ?, ?, ?, ?, ?)').run(userId, t.kind, t.description, JSON.stringify(t.keys), t.when, t.by),
    );
  }

  /** Every row of this user, in one transaction; other users are untouched. */
  wipe(userId: string): void {
    this.use(() => {
      this.db.exec('BEGIN');
      try {
        for (const table of ['dm_messages', 'dm_memory', 'dm_tombstones', 'dm_records', 'dm_candidates', 'dm_record_events', 'dm_recall', 'dm_consents'])
          this.db.prepare(`DELETE FROM ${table} WHERE user_id = ?`).run(userId);
        this.db.exec('COMMIT');
      } catch (error) {
        this.db.exec('ROLLBACK');
        throw error;
      }
      for (const r of this.recalls) r.drop(userId);
      // secure_delete zeroes the freed pages; VACUUM rebuilds the file and the checkpoint empties the
      // write-ahead log, which still holds the old pages until then
      this.db.exec('VACUUM');
      this.scrubLog();
    });
  }

  /** Copies the write-ahead log into the file and truncates it, so deleted rows live on in neither. */
  private scrubLog(): void {
    this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }

  recentMessages(userId: string, limit: number): LogEntry[] {
    if (limit <= 0) return [];
    return this.use((q) => (q.selectRecent.all(userId, limit) as Row[]).map(toEntry));
  }

  messagesSince(userId: string, afterId: number): { id: number; entry: LogEntry }[] {
    return this.use((q) => (q.selectSince.all(userId, afterId) as Row[]).map((r) => ({ id: Number(r.id), entry: toEntry(r) })));
  }

  searchMessages(userId: string, terms: string[], limit: number): LogEntry[] {
    const words = [...new Set(terms.map((t) => t.toLowerCase().trim()).filter(Boolean))].slice(0, 8);
    if (words.length === 0 || limit <= 0) return [];
    const like = (w: string) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const matches = words.map(() => "(lower(text) LIKE ? ESCAPE '\\')").join(' + ');
    const rows = this.use(
      () =>
        this.db
          .prepare(`SELECT *, (${matches}) AS hits FROM dm_messages WHERE user_id = ? AND (${matches}) > 0 ORDER BY hits DESC, id DESC LIMIT ?`)
          .all(...words.map(like), userId, ...words.map(like), limit) as Row[],
    );
    return rows.map(toEntry);
  }

  readLayers(userId: string): MemoryLayers & { distilledThrough: number; style: string } {
    const row = this.use((q) => q.selectMemory.get(userId) as Row | undefined);
    if (!row) return { summary: '', decisions: [], quotes: [], distilledThrough: 0, style: '' };
    return {
      summary: String(row.summary),
      decisions: parseList<Decision>(row.decisions),
      quotes: parseList<Quote>(row.quotes),
      distilledThrough: Number(row.distilled_through),
      style: String(row.style),
    };
  }

  writeLayers(userId: string, layers: MemoryLayers, distilledThrough: number): void {
    // What the user forgot is never written back, by distillation or anyone.
    const tombs = this.tombstones(userId);
    const decisions = layers.decisions.filter((d) => !forgottenBy(tombs, { text: d.text }));
    const quotes = layers.quotes.filter((q) => !forgottenBy(tombs, { text: q.text }));
    this.use((q) => {
      q.upsertLayers.run(userId, layers.summary, JSON.stringify(decisions), JSON.stringify(quotes), distilledThrough, new Date().toISOString());
      // what an item forgot (or a rewrite dropped) must not live on in the write-ahead log
      this.scrubLog();
    });
  }

  setStyle(userId: string, style: string): void {
    this.use((q) => q.upsertStyle.run(userId, style, new Date().toISOString()));
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

function toEntry(r: Row): LogEntry {
  const entry: LogEntry = { time: String(r.time), speaker: String(r.speaker), source: String(r.source), text: String(r.text), role: r.role === 'assistant' ? 'assistant' : 'user' };
  if (r.sensitivity === 'sensitive' || r.sensitivity === 'public') entry.sensitivity = r.sensitivity;
  if (Number(r.unjudged) === 1 && entry.sensitivity === 'sensitive') entry.unjudged = true;
  return entry;
}

function parseList<T>(value: unknown): T[] {
  try {
    const parsed: unknown = JSON.parse(String(value));
    return Array.isArray(parsed) ? (parsed as T[]) : [];
  } catch {
    return [];
  }
}
