/**
 * Private (DM) conversations in SQLite only: the message history and the distilled memory
 * (summary, decisions, quotes, style) per user. Never Markdown, never the shared index.
 * Tables are prefixed `dm_`; the file (data/private.db) is the one part of data/ that is not derived.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Decision, LogEntry, MemoryLayers, PrivateStore, Quote } from '../core/ports.js';

type Row = Record<string, unknown>;

export class SqlitePrivateStore implements PrivateStore {
  private readonly db: DatabaseSync;
  private readonly insertMessage: StatementSync;
  private readonly selectRecent: StatementSync;
  private readonly selectSince: StatementSync;
  private readonly selectMemory: StatementSync;
  private readonly upsertLayers: StatementSync;
  private readonly upsertStyle: StatementSync;

  /** `path` is a file (its folder is created) or `:memory:`. */
  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new DatabaseSync(path);
    this.db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA busy_timeout = 2000;
      CREATE TABLE IF NOT EXISTS dm_messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id TEXT NOT NULL, time TEXT NOT NULL, speaker TEXT NOT NULL,
        source TEXT NOT NULL, text TEXT NOT NULL, role TEXT NOT NULL CHECK (role IN ('user', 'assistant')));
      CREATE INDEX IF NOT EXISTS dm_messages_user ON dm_messages (user_id, id);
      CREATE TABLE IF NOT EXISTS dm_memory (
        user_id TEXT PRIMARY KEY,
        summary TEXT NOT NULL DEFAULT '', decisions TEXT NOT NULL DEFAULT '[]', quotes TEXT NOT NULL DEFAULT '[]',
        distilled_through INTEGER NOT NULL DEFAULT 0, style TEXT NOT NULL DEFAULT '', updated TEXT NOT NULL);
    `);
    this.insertMessage = this.db.prepare('INSERT INTO dm_messages (user_id, time, speaker, source, text, role) VALUES (?, ?, ?, ?, ?, ?)');
    this.selectRecent = this.db.prepare('SELECT * FROM (SELECT * FROM dm_messages WHERE user_id = ? ORDER BY id DESC LIMIT ?) ORDER BY id ASC');
    this.selectSince = this.db.prepare('SELECT * FROM dm_messages WHERE user_id = ? AND id > ? ORDER BY id ASC');
    this.selectMemory = this.db.prepare('SELECT * FROM dm_memory WHERE user_id = ?');
    this.upsertLayers = this.db.prepare(
      `INSERT INTO dm_memory (user_id, summary, decisions, quotes, distilled_through, updated) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET summary = excluded.summary, decisions = excluded.decisions, quotes = excluded.quotes,
         distilled_through = excluded.distilled_through, updated = excluded.updated`,
    );
    this.upsertStyle = this.db.prepare(
      `INSERT INTO dm_memory (user_id, style, updated) VALUES (?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET style = excluded.style, updated = excluded.updated`,
    );
  }

  appendMessage(userId: string, entry: LogEntry): void {
    this.insertMessage.run(userId, entry.time, entry.speaker, entry.source, entry.text, entry.role);
  }

  recentMessages(userId: string, limit: number): LogEntry[] {
    if (limit <= 0) return [];
    return (this.selectRecent.all(userId, limit) as Row[]).map(toEntry);
  }

  messagesSince(userId: string, afterId: number): { id: number; entry: LogEntry }[] {
    return (this.selectSince.all(userId, afterId) as Row[]).map((r) => ({ id: Number(r.id), entry: toEntry(r) }));
  }

  searchMessages(userId: string, terms: string[], limit: number): LogEntry[] {
    const words = [...new Set(terms.map((t) => t.toLowerCase().trim()).filter(Boolean))].slice(0, 8);
    if (words.length === 0 || limit <= 0) return [];
    const like = (w: string) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const matches = words.map(() => "(lower(text) LIKE ? ESCAPE '\\')").join(' + ');
    const rows = this.db
      .prepare(`SELECT *, (${matches}) AS hits FROM dm_messages WHERE user_id = ? AND (${matches}) > 0 ORDER BY hits DESC, id DESC LIMIT ?`)
      .all(...words.map(like), userId, ...words.map(like), limit) as Row[];
    return rows.map(toEntry);
  }

  readLayers(userId: string): MemoryLayers & { distilledThrough: number; style: string } {
    const row = this.selectMemory.get(userId) as Row | undefined;
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
    this.upsertLayers.run(userId, layers.summary, JSON.stringify(layers.decisions), JSON.stringify(layers.quotes), distilledThrough, new Date().toISOString());
  }

  setStyle(userId: string, style: string): void {
    this.upsertStyle.run(userId, style, new Date().toISOString());
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

function toEntry(r: Row): LogEntry {
  return { time: String(r.time), speaker: String(r.speaker), source: String(r.source), text: String(r.text), role: r.role === 'assistant' ? 'assistant' : 'user' };
}

function parseList<T>(value: unknown): T[] {
  try {
    const parsed: unknown = JSON.parse(String(value));
    return Array.isArray(parsed) ? (parsed as T[]) : [];
  } catch {
    return [];
  }
}
