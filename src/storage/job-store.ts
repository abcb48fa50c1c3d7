/**
 * The scheduler's jobs in SQLite (data/schedule.db, node:sqlite like the other stores). Not
 * derived: reminders and follow-ups people asked for live here, and a reminder set in a DM lives
 * only here (never Markdown). A job is written before `add` returns; claiming an occurrence
 * (a `deliveries` row keyed by job and due time) and moving the job on are one transaction.
 */
import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import { JOB_KINDS, type Claim, type Job, type JobKind, type JobStore, type NewJob, type TimeSettings } from '../core/time/jobs.js';
import { openSqliteFile } from './sqlite-file.js';

/** schedule.db's schema version (PRAGMA user_version). */
export const SCHEDULE_SCHEMA_VERSION = 1;

const placeSchema = z.union([
  z.object({ kind: z.literal('project'), origin: z.object({ name: z.string(), key: z.string(), discord: z.object({ guildId: z.string(), channelId: z.string() }).optional() }) }),
  z.object({ kind: z.literal('private'), userId: z.string(), userName: z.string() }),
]);

const rowSchema = z.object({
  id: z.string(),
  kind: z.enum(JOB_KINDS),
  owner: z.string(),
  place: z.string(),
  payload: z.string(),
  due_at: z.number(),
  tz: z.string(),
  rule: z.string(),
  status: z.enum(['pending', 'done', 'cancelled']),
  created: z.number(),
  fired: z.number(),
});

type Row = Record<string, unknown>;

function toJob(raw: Row): Job {
  const r = rowSchema.parse(raw);
  const payload = z.record(z.string(), z.unknown()).parse(JSON.parse(r.payload));
  return {
    id: r.id,
    kind: r.kind,
    owner: r.owner,
    place: placeSchema.parse(JSON.parse(r.place)),
    payload,
    due: new Date(r.due_at),
    tz: r.tz,
    ...(r.rule ? { rule: { cron: r.rule } } : {}),
    status: r.status,
    created: new Date(r.created),
    fired: r.fired,
  };
}

/** Per connection; journal_mode is kept in the file once set. */
const CONNECTION = `
    PRAGMA journal_mode = WAL;
    PRAGMA synchronous = FULL;
    PRAGMA busy_timeout = 5000;
  `;
/** Written only when the file's version is older: a start that finds it current writes nothing (no commit, so no fsync on the way to the prompt). */
const SCHEMA = `
    BEGIN;
    CREATE TABLE IF NOT EXISTS jobs (
      id TEXT PRIMARY KEY, kind TEXT NOT NULL, owner TEXT NOT NULL DEFAULT '', place TEXT NOT NULL,
      payload TEXT NOT NULL DEFAULT '{}', due_at INTEGER NOT NULL, tz TEXT NOT NULL, rule TEXT NOT NULL DEFAULT '',
      status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'cancelled')),
      created INTEGER NOT NULL, fired INTEGER NOT NULL DEFAULT 0);
    CREATE INDEX IF NOT EXISTS jobs_due ON jobs (status, due_at);
    CREATE TABLE IF NOT EXISTS deliveries (
      key TEXT PRIMARY KEY, job_id TEXT NOT NULL, due_at INTEGER NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('sending', 'sent', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0, claimed_at INTEGER NOT NULL, tried_at INTEGER NOT NULL, done_at INTEGER);
    CREATE INDEX IF NOT EXISTS deliveries_open ON deliveries (state, tried_at);
    CREATE TABLE IF NOT EXISTS time_settings (owner TEXT PRIMARY KEY, tz TEXT NOT NULL DEFAULT '');
    PRAGMA user_version = ${SCHEDULE_SCHEMA_VERSION};
    COMMIT;
  `;

export class SqliteJobStore implements JobStore, TimeSettings {
  private readonly db: DatabaseSync;

  /** `path` is a file (its folder is created) or `:memory:`. */
  constructor(path: string) {
    this.db = openSqliteFile(path, (db) => {
      db.exec(CONNECTION);
      const { user_version: version } = db.prepare('PRAGMA user_version').get() as { user_version: number };
      if (version < SCHEDULE_SCHEMA_VERSION) db.exec(SCHEMA);
    });
  }

  private tx<T>(work: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const out = work();
      this.db.exec('COMMIT');
      return out;
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  add(job: NewJob, now: Date): boolean {
    const res = this.db
      .prepare('INSERT OR IGNORE INTO jobs (id, kind, owner, place, payload, due_at, tz, rule, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(job.id, job.kind, job.owner, JSON.stringify(job.place), JSON.stringify(job.payload), job.due.getTime(), job.tz, job.rule?.cron ?? '', now.getTime());
    return Number(res.changes) === 1;
  }

  get(id: string): Job | null {
    const row = this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as Row | undefined;
    return row ? toJob(row) : null;
  }

  list(filter: { owner?: string; kind?: JobKind; status?: Job['status'] }): Job[] {
    const where: string[] = [];
    const args: string[] = [];
    for (const [col, value] of [
      ['owner', filter.owner],
      ['kind', filter.kind],
      ['status', filter.status],
    ] as const) {
      if (value === undefined) continue;
      where.push(`${col} = ?`);
      args.push(value);
    }
    const sql = `SELECT * FROM jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY due_at, id`;
    return (this.db.prepare(sql).all(...args) as Row[]).map(toJob);
  }

  cancel(id: string): boolean {
    return Number(this.db.prepare("UPDATE jobs SET status = 'cancelled' WHERE id = ? AND status = 'pending'").run(id).changes) === 1;
  }

  remove(id: string): void {
    this.tx(() => {
      this.db.prepare('DELETE FROM deliveries WHERE job_id = ?').run(id);
      this.db.prepare('DELETE FROM jobs WHERE id = ?').run(id);
    });
  }

  reschedule(id: string, due: Date): boolean {
    return Number(this.db.prepare("UPDATE jobs SET status = 'pending', due_at = ? WHERE id = ? AND status != 'cancelled'").run(due.getTime(), id).changes) === 1;
  }

  setPayload(id: string, payload: Record<string, unknown>): void {
    this.db.prepare('UPDATE jobs SET payload = ? WHERE id = ?').run(JSON.stringify(payload), id);
  }

  claimDue(now: Date, next: (job: Job, after: Date) => Date | null, limit: number): Claim[] {
    const t = now.getTime();
    return this.tx(() => {
      const rows = this.db.prepare("SELECT * FROM jobs WHERE status = 'pending' AND due_at <= ? ORDER BY due_at, id LIMIT ?").all(t, limit) as Row[];
      const claims: Claim[] = [];
      const insert = this.db.prepare("INSERT OR IGNORE INTO deliveries (key, job_id, due_at, state, claimed_at, tried_at) VALUES (?, ?, ?, 'sending', ?, ?)");
      for (const row of rows) {
        const job = toJob(row);
        const key = `${job.id}@${job.due.getTime()}`;
        const fresh = Number(insert.run(key, job.id, job.due.getTime(), t, t).changes) === 1;
        const after = next(job, now);
        if (after) this.db.prepare('UPDATE jobs SET due_at = ?, fired = fired + 1 WHERE id = ?').run(after.getTime(), job.id);
        else this.db.prepare("UPDATE jobs SET status = 'done', fired = fired + 1 WHERE id = ?").run(job.id);
        if (fresh) claims.push({ job, due: job.due, key, redelivery: false, attempts: 0 });
      }
      return claims;
    });
  }

  unfinished(before: Date): Claim[] {
    const rows = this.db
      .prepare("SELECT d.key, d.due_at AS occurrence, d.attempts, j.* FROM deliveries d JOIN jobs j ON j.id = d.job_id WHERE d.state = 'sending' AND d.tried_at <= ? ORDER BY d.due_at")
      .all(before.getTime()) as Row[];
    return rows.map((row) => ({
      job: toJob(row),
      due: new Date(Number(row.occurrence)),
      key: String(row.key),
      redelivery: true,
      attempts: Number(row.attempts),
    }));
  }

  delivered(key: string, at: Date): void {
    this.db.prepare("UPDATE deliveries SET state = 'sent', done_at = ? WHERE key = ?").run(at.getTime(), key);
  }

  /** The occurrence was marked delivered (a front door without a nonce checks this before it shows one). */
  wasDelivered(key: string): boolean {
    const row = this.db.prepare('SELECT state FROM deliveries WHERE key = ?').get(key) as { state: string } | undefined;
    return row?.state === 'sent';
  }

  failed(key: string, at: Date, final: boolean): void {
    this.db.prepare('UPDATE deliveries SET state = ?, attempts = attempts + 1, tried_at = ? WHERE key = ?').run(final ? 'failed' : 'sending', at.getTime(), key);
  }

  waiting(key: string, at: Date): void {
    this.db.prepare("UPDATE deliveries SET tried_at = ? WHERE key = ? AND state = 'sending'").run(at.getTime(), key);
  }

  latestClaim(): Date | null {
    const row = this.db.prepare('SELECT MAX(claimed_at) AS at FROM deliveries').get() as { at: number | null } | undefined;
    return row?.at == null ? null : new Date(row.at);
  }

  forgetClaimsAfter(at: Date): number {
    return Number(this.db.prepare("DELETE FROM deliveries WHERE state != 'sending' AND claimed_at > ?").run(at.getTime()).changes);
  }

  prune(before: Date): void {
    this.db.prepare("DELETE FROM deliveries WHERE state != 'sending' AND COALESCE(done_at, tried_at) < ?").run(before.getTime());
  }

  nextDue(): Date | null {
    const row = this.db.prepare("SELECT MIN(due_at) AS due FROM jobs WHERE status = 'pending'").get() as { due: number | null } | undefined;
    return row?.due == null ? null : new Date(row.due);
  }

  zoneOf(owner: string): string | null {
    const row = this.db.prepare('SELECT tz FROM time_settings WHERE owner = ?').get(owner) as { tz: string } | undefined;
    return row?.tz || null;
  }

  setZone(owner: string, tz: string): void {
    this.db.prepare('INSERT INTO time_settings (owner, tz) VALUES (?, ?) ON CONFLICT (owner) DO UPDATE SET tz = excluded.tz').run(owner, tz);
  }

  close(): void {
    this.db.close();
  }
}
