/**
 * The usage signal in SQLite: every view, tag interaction, accepted suggestion and
 * retrieval of a page adds a weighted amount to a score that decays exponentially while
 * the page goes untouched. The boost is that score squashed into [0, 1).
 */
import { renameSync } from 'node:fs';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Logger, UsageKind, UsageStore } from '../core/ports/index.js';
import { openSqliteFile } from './sqlite-file.js';

export interface UsageOptions {
  /** Days for an untouched page's score to halve. */
  halfLifeDays?: number;
  /** Score at which the boost reaches 1 − 1/e ≈ 0.63. */
  scale?: number;
  weights?: Partial<Record<UsageKind, number>>;
}

const DEFAULT_WEIGHTS: Record<UsageKind, number> = { view: 1, tag: 1.5, suggestion_accepted: 2, retrieved: 0.2 };
const DAY_MS = 86_400_000;

const SCHEMA = `
    PRAGMA journal_mode = WAL;
    PRAGMA synchronous = NORMAL;
    PRAGMA busy_timeout = 2000;
    CREATE TABLE IF NOT EXISTS usage_events (
      id INTEGER PRIMARY KEY, project TEXT NOT NULL, page TEXT NOT NULL, kind TEXT NOT NULL, at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS usage_scores (
      project TEXT NOT NULL, page TEXT NOT NULL, score REAL NOT NULL, at INTEGER NOT NULL,
      PRIMARY KEY (project, page));
  `;

export class SqliteUsageStore implements UsageStore {
  private readonly db: DatabaseSync;
  private readonly halfLifeMs: number;
  private readonly scale: number;
  private readonly weights: Record<UsageKind, number>;
  private readonly insertEvent: StatementSync;
  private readonly readScore: StatementSync;
  private readonly readScores: StatementSync;
  private readonly writeScore: StatementSync;

  /** `path` is a file (its folder is created) or `:memory:`. */
  constructor(path: string, options: UsageOptions = {}) {
    this.db = openSqliteFile(path, (db) => db.exec(SCHEMA));
    this.halfLifeMs = (options.halfLifeDays ?? 30) * DAY_MS;
    this.scale = options.scale ?? 3;
    this.weights = { ...DEFAULT_WEIGHTS, ...options.weights };
    this.insertEvent = this.db.prepare('INSERT INTO usage_events (project, page, kind, at) VALUES (?, ?, ?, ?)');
    this.readScore = this.db.prepare('SELECT score, at FROM usage_scores WHERE project = ? AND page = ?');
    this.readScores = this.db.prepare('SELECT page, score, at FROM usage_scores WHERE project = ? AND page IN (SELECT value FROM json_each(?))');
    this.writeScore = this.db.prepare('INSERT INTO usage_scores (project, page, score, at) VALUES (?, ?, ?, ?) ON CONFLICT (project, page) DO UPDATE SET score = excluded.score, at = excluded.at');
  }

  private decayed(score: number, fromMs: number, toMs: number): number {
    const age = Math.max(0, toMs - fromMs);
    return score * Math.pow(0.5, age / this.halfLifeMs);
  }

  record(project: string, page: string, kind: UsageKind, at: Date = new Date()): void {
    const t = at.getTime();
    const row = this.readScore.get(project, page) as { score: number; at: number } | undefined;
    // an event older than the stored score decays from its own time to the stored one
    const score = row ? (t >= row.at ? this.decayed(row.score, row.at, t) + this.weights[kind] : row.score + this.decayed(this.weights[kind], t, row.at)) : this.weights[kind];
    const stamp = row ? Math.max(row.at, t) : t;
    this.db.exec('BEGIN');
    try {
      this.insertEvent.run(project, page, kind, t);
      this.writeScore.run(project, page, score, stamp);
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  boost(project: string, page: string, at: Date = new Date()): number {
    return this.boosts(project, [page], at).get(page) ?? 0;
  }

  /** One query for all of `pages` (one per page was a millisecond and more of every search's main thread). */
  boosts(project: string, pages: readonly string[], at: Date = new Date()): Map<string, number> {
    const out = new Map<string, number>();
    if (pages.length === 0) return out;
    for (const row of this.readScores.all(project, JSON.stringify(pages)) as { page: string; score: number; at: number }[]) {
      out.set(row.page, 1 - Math.exp(-this.decayed(row.score, row.at, at.getTime()) / this.scale));
    }
    return out;
  }

  /** Events of one page, newest first (for an inspector). */
  history(project: string, page: string, limit = 50): { kind: UsageKind; at: Date }[] {
    const rows = this.db.prepare('SELECT kind, at FROM usage_events WHERE project = ? AND page = ? ORDER BY at DESC LIMIT ?').all(project, page, limit) as { kind: UsageKind; at: number }[];
    return rows.map((r) => ({ kind: r.kind, at: new Date(r.at) }));
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

/**
 * Opens the usage store; a corrupt file is set aside (`.corrupt-<time>`) and a fresh one
 * started, since usage is a ranking hint and must never stop Charlie.
 */
export function openUsageStore(path: string, logger: Logger, options: UsageOptions = {}): SqliteUsageStore {
  try {
    const store = new SqliteUsageStore(path, options);
    store.boost('', '');
    return store;
  } catch (err) {
    const aside = `${path}.corrupt-${Date.now()}`;
    logger.warn({ path, aside, err: err }, 'usage database unreadable; starting a fresh one');
    for (const suffix of ['', '-wal', '-shm']) {
      try {
        renameSync(`${path}${suffix}`, `${aside}${suffix}`);
      } catch {
        // missing companion files are fine
      }
    }
    return new SqliteUsageStore(path, options);
  }
}
