/**
 * Typed records of private conversations, in private.db (never Markdown): the same fields,
 * promotion gate, decay, review and hold as the fact lines of an entity page, one row per
 * record (`dm_records`), and the gate's waiting candidates per user (`dm_candidates`).
 * The meaning of the fields is the Markdown records' (src/memory/records): decay, the
 * attribute a statement is about, sensitivity levels — one implementation for both.
 */
import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import type { CandidateStore } from '../core/records/candidates.js';
import type { GraphWrite, GraphWriteReport, PrivateRecord, PrivateRecordEvent, PrivateRecords, ReviewChoice, ReviewPair } from '../core/ports/index.js';
import { blockIdFor } from '../core/records/block-id.js';
import { nameTokens, normalizeStatement } from '../core/names.js';
import { parseCandidates } from '../core/records/candidates.js';
import { decay } from '../core/records/decay.js';
import { CATEGORIES, PROVENANCE_KINDS, retrievable, STATUSES, type Category, type ProvenanceKind } from '../core/records/record.js';
import { attributeOf, saysChanged } from '../core/records/review.js';
import { dropRecallRows } from './recall-rows.js';

/** The kinds of change a DM record's history keeps (PrivateRecordEvent['kind']). */
const EVENT_KINDS = ['added', 'restated', 'review', 'reviewed'] as const satisfies readonly PrivateRecordEvent['kind'][];

/** private.db's schema version (PRAGMA user_version): 3 added dm_records and dm_candidates, 4 dm_record_events. */
export const PRIVATE_SCHEMA_VERSION = 4;

/** Creates the record tables of schema 4 on a database of any earlier version; idempotent. */
export function migrateRecords(db: DatabaseSync): void {
  const row = db.prepare('PRAGMA user_version').get() as { user_version?: number } | undefined;
  const version = row?.user_version ?? 0;
  db.exec(`
    BEGIN;
    CREATE TABLE IF NOT EXISTS dm_records (
      user_id TEXT NOT NULL, id TEXT NOT NULL, entity TEXT NOT NULL, statement TEXT NOT NULL,
      category TEXT NOT NULL DEFAULT '', source TEXT NOT NULL DEFAULT '', via TEXT NOT NULL DEFAULT 'chat',
      confidence REAL NOT NULL DEFAULT 1, sensitivity TEXT NOT NULL DEFAULT 'personal',
      status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'review', 'held', 'superseded')),
      said TEXT NOT NULL DEFAULT '', happened TEXT NOT NULL DEFAULT '', due TEXT NOT NULL DEFAULT '', about TEXT NOT NULL DEFAULT '',
      vs TEXT NOT NULL DEFAULT '', superseded TEXT NOT NULL DEFAULT '', asked TEXT NOT NULL DEFAULT '', raised TEXT NOT NULL DEFAULT '',
      PRIMARY KEY (user_id, id));
    CREATE TABLE IF NOT EXISTS dm_candidates (user_id TEXT PRIMARY KEY, candidates TEXT NOT NULL DEFAULT '[]');
    CREATE TABLE IF NOT EXISTS dm_record_events (
      user_id TEXT NOT NULL, id TEXT NOT NULL, at TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN (${EVENT_KINDS.map((k) => `'${k}'`).join(', ')})),
      text TEXT NOT NULL DEFAULT '', source TEXT NOT NULL DEFAULT '');
    CREATE INDEX IF NOT EXISTS dm_record_events_by_record ON dm_record_events (user_id, id);
    ${version < PRIVATE_SCHEMA_VERSION ? `PRAGMA user_version = ${PRIVATE_SCHEMA_VERSION};` : ''}
    COMMIT;
  `);
}

/**
 * A record made from a DM labelled sensitive carries the label (seventh outside sweep: records
 * distilled before that rule were stored 'personal'). Run at every open; it changes only such
 * records, found through the messages' (user, source) index.
 */
export function inheritMessageLabels(db: DatabaseSync): void {
  db.exec(`
    CREATE INDEX IF NOT EXISTS dm_messages_source ON dm_messages (user_id, source);
    UPDATE dm_records SET sensitivity = 'sensitive'
      WHERE sensitivity NOT LIKE 'sensitive%' AND source != ''
      AND EXISTS (SELECT 1 FROM dm_messages m WHERE m.user_id = dm_records.user_id AND m.source = dm_records.source AND m.role = 'user' AND m.sensitivity = 'sensitive');
  `);
}

type Stored = Omit<PrivateRecord, 'effective' | 'state'>;
type Row = Record<string, unknown>;

const rowSchema = z.object({
  id: z.string(),
  entity: z.string(),
  statement: z.string(),
  category: z.enum(['', ...CATEGORIES]).catch(''),
  source: z.string(),
  via: z.enum(PROVENANCE_KINDS).catch('chat'),
  confidence: z.number(),
  sensitivity: z.string(),
  status: z.enum(STATUSES),
  said: z.string(),
  happened: z.string(),
  due: z.string(),
  about: z.string(),
  vs: z.string(),
  superseded: z.string(),
  asked: z.string(),
  raised: z.string(),
});

const eventSchema = z.object({ id: z.string(), at: z.string(), kind: z.enum(EVENT_KINDS), text: z.string(), source: z.string() });

const COLUMNS = ['id', 'entity', 'statement', 'category', 'source', 'via', 'confidence', 'sensitivity', 'status', 'said', 'happened', 'due', 'about', 'vs', 'superseded', 'asked', 'raised'] as const;

const entityKey = (name: string) => nameTokens(name).join(' ');
const isCategory = (c: string): c is Category => (CATEGORIES as readonly string[]).includes(c);
/** The same reading as a fact line's `[type:: …]`: a known category, else '' (untyped). */
const categoryOf = (type: string | undefined): Category | '' => {
  const c = (type ?? '').toLowerCase();
  return isCategory(c) ? c : '';
};

export class SqlitePrivateRecords implements PrivateRecords {
  constructor(
    private readonly db: DatabaseSync,
    /** Runs a query, turning a damaged database into the store's error (SqlitePrivateStore.use). */
    private readonly use: <T>(fn: () => T) => T,
  ) {}

  /** The people with a commitment that has a due date (the follow-ups' scan reads only theirs). */
  ownersWithDueCommitments(): string[] {
    const rows = this.use(() => this.db.prepare("SELECT DISTINCT user_id FROM dm_records WHERE category = 'commitment' AND due != ''").all() as { user_id: string }[]);
    return rows.map((r) => r.user_id);
  }

  private rows(userId: string): Stored[] {
    const rows = this.use(() => this.db.prepare('SELECT * FROM dm_records WHERE user_id = ? ORDER BY rowid').all(userId) as Row[]);
    return rows.flatMap((r) => {
      const p = rowSchema.safeParse(r);
      return p.success ? [p.data] : [];
    });
  }

  /** Writes records and the events that changed them, in one transaction. */
  private save(userId: string, records: Iterable<Stored>, events: readonly PrivateRecordEvent[] = []): void {
    const list = [...records];
    if (list.length === 0) return;
    const sets = COLUMNS.filter((c) => c !== 'id')
      .map((c) => `${c} = excluded.${c}`)
      .join(', ');
    this.use(() => {
      const insert = this.db.prepare(`INSERT INTO dm_records (user_id, ${COLUMNS.join(', ')}) VALUES (?, ${COLUMNS.map(() => '?').join(', ')}) ON CONFLICT (user_id, id) DO UPDATE SET ${sets}`);
      const log = this.db.prepare('INSERT INTO dm_record_events (user_id, id, at, kind, text, source) VALUES (?, ?, ?, ?, ?, ?)');
      this.db.exec('BEGIN');
      try {
        for (const r of list) insert.run(userId, ...COLUMNS.map((c) => r[c]));
        for (const e of events) log.run(userId, e.id, e.at, e.kind, e.text, e.source);
        // a record out of answers (held, superseded) leaves the DM's recall index with it
        dropRecallRows(
          this.db,
          userId,
          list.filter((r) => r.status === 'held' || r.status === 'superseded').map((r) => `r:${r.id}`),
        );
        this.db.exec('COMMIT');
      } catch (error) {
        this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  list(userId: string, now: Date): PrivateRecord[] {
    return this.rows(userId).map((r) => {
      const d = decay({ category: r.category, confidence: r.confidence, said: r.said, due: r.due, happened: r.happened }, now);
      return { ...r, effective: d.effective, state: d.state };
    });
  }

  history(userId: string, ids: readonly string[]): PrivateRecordEvent[] {
    if (ids.length === 0) return [];
    const rows = this.use(
      () => this.db.prepare(`SELECT id, at, kind, text, source FROM dm_record_events WHERE user_id = ? AND id IN (${ids.map(() => '?').join(', ')}) ORDER BY rowid`).all(userId, ...ids) as Row[],
    );
    return rows.flatMap((r) => {
      const p = eventSchema.safeParse(r);
      return p.success ? [p.data] : [];
    });
  }

  write(userId: string, write: GraphWrite): GraphWriteReport {
    const report: GraphWriteReport = { created: [], updated: [], factsAdded: 0, factsRefreshed: 0, linksAdded: 0, refused: [] };
    const all = this.rows(userId);
    const changed = new Map<string, Stored>();
    const events: PrivateRecordEvent[] = [];
    const names = new Map(all.map((r) => [entityKey(r.entity), r.entity]));
    for (const e of write.entities) {
      const entity = names.get(entityKey(e.name)) ?? e.name.trim();
      names.set(entityKey(entity), entity);
      for (const f of e.facts) {
        const key = normalizeStatement(f.text);
        if (!key) continue;
        const mine = all.filter((r) => entityKey(r.entity) === entityKey(entity));
        const same = mine.find((r) => normalizeStatement(r.statement) === key);
        if (same) {
          // restating a fact restarts its clock and its confidence
          if (same.said < f.said) {
            Object.assign(same, { said: f.said, confidence: 1 });
            changed.set(same.id, same);
            events.push({ id: same.id, at: f.said, kind: 'restated', text: 'said again', source: f.source });
            report.factsRefreshed++;
          }
          continue;
        }
        const fresh: Stored = {
          id: blockIdFor(`dm:${userId}/${entity}`, f.text),
          entity,
          statement: f.text.replace(/\s+/g, ' ').trim(),
          category: categoryOf(f.type),
          source: f.source,
          via: (PROVENANCE_KINDS as readonly string[]).includes(f.via ?? '') ? (f.via as ProvenanceKind) : 'chat',
          confidence: f.confidence ?? 1,
          sensitivity: f.sensitivity ?? 'personal',
          status: 'active',
          said: f.said,
          happened: f.happened ?? '',
          due: f.due ?? '',
          about: (f.about ?? '').toLowerCase(),
          vs: '',
          superseded: '',
          asked: '',
          raised: '',
        };
        // disagrees with an open record about the same entity and attribute: superseded when the new one says it changed, else both into review
        const attr = attributeOf(fresh.statement, fresh.about);
        if (attr) {
          for (const old of mine) {
            if (!retrievable(old.status) || attributeOf(old.statement, old.about) !== attr) continue;
            if (saysChanged(fresh.statement)) {
              Object.assign(old, { status: 'superseded', superseded: f.said, vs: fresh.id });
              changed.set(old.id, old);
              events.push({ id: old.id, at: f.said, kind: 'reviewed', text: `superseded by ^${fresh.id}: the newer record says it changed`, source: '' });
              continue;
            }
            Object.assign(old, { status: 'review', vs: fresh.id });
            changed.set(old.id, old);
            events.push({ id: old.id, at: f.said, kind: 'review', text: `put into review: disagrees with ^${fresh.id}`, source: '' });
            if (!fresh.vs) Object.assign(fresh, { status: 'review', vs: old.id });
          }
        }
        all.push(fresh);
        changed.set(fresh.id, fresh);
        events.push({ id: fresh.id, at: f.said, kind: 'added', text: `said in this conversation; ${f.gate ?? 'written without the promotion gate'}`, source: f.source });
        if (fresh.vs) events.push({ id: fresh.id, at: f.said, kind: 'review', text: `put into review: disagrees with ^${fresh.vs}`, source: '' });
        report.factsAdded++;
      }
      if (e.facts.length) report.updated.push(entity);
    }
    for (const l of write.links) report.refused.push({ item: `${l.from} → ${l.to}`, reason: 'links are not kept for private conversations' });
    this.save(userId, changed.values(), events);
    return report;
  }

  reviewPairs(userId: string): ReviewPair[] {
    const all = this.rows(userId);
    const byId = new Map(all.map((r, i) => [r.id, { r, i }]));
    const seen = new Set<string>();
    const out: ReviewPair[] = [];
    for (const [i, r] of all.entries()) {
      const other = byId.get(r.vs);
      if (r.status !== 'review' || !other || seen.has(r.id) || seen.has(r.vs)) continue;
      seen.add(r.id).add(r.vs);
      const [a, b] = other.r.said > r.said || (other.r.said === r.said && other.i > i) ? [r, other.r] : [other.r, r];
      out.push({ page: 'private', title: r.entity, old: { id: a.id, statement: a.statement, said: a.said }, new: { id: b.id, statement: b.statement, said: b.said } });
    }
    return out;
  }

  review(userId: string, id: string, choice: ReviewChoice, today: string): boolean {
    const all = this.rows(userId);
    const target = all.find((r) => r.id === id);
    if (!target) return false;
    const byId = (rid: string) => all.find((r) => r.id === rid);
    const events: PrivateRecordEvent[] = [];
    const decided = (rid: string, text: string) => events.push({ id: rid, at: today, kind: 'reviewed', text: `review decision: ${choice}: ${text}`, source: '' });
    const keep = (rid: string) => {
      const r = byId(rid);
      if (!r) return;
      Object.assign(r, { status: 'active', vs: '' });
      decided(rid, 'kept');
    };
    const supersede = (rid: string, by: string) => {
      const r = byId(rid);
      if (!r) return;
      Object.assign(r, { status: 'superseded', superseded: today });
      decided(rid, `superseded by ^${by}`);
    };
    const pair = this.reviewPairs(userId).find((p) => p.old.id === id || p.new.id === id);
    if (choice === 'hold') {
      target.status = 'held';
      events.push({ id, at: today, kind: 'reviewed', text: 'held: kept in private.db, out of answers', source: '' });
    } else if (!pair) keep(id);
    else if (choice === 'keep-both') {
      keep(pair.old.id);
      keep(pair.new.id);
    } else {
      const [winner, loser] = choice === 'keep-new' ? [pair.new.id, pair.old.id] : [pair.old.id, pair.new.id];
      keep(winner);
      supersede(loser, winner);
    }
    this.save(userId, all, events);
    return true;
  }

  mark(userId: string, ids: readonly string[], what: 'asked' | 'raised', date: string): void {
    const set = new Set(ids);
    this.save(
      userId,
      this.rows(userId)
        .filter((r) => set.has(r.id))
        .map((r) => ({ ...r, [what]: date })),
    );
  }

  candidates(userId: string): CandidateStore {
    return {
      list: async () => {
        const row = this.use(() => this.db.prepare('SELECT candidates FROM dm_candidates WHERE user_id = ?').get(userId) as Row | undefined);
        return parseCandidates(typeof row?.candidates === 'string' ? row.candidates : null);
      },
      replace: async (candidates) => {
        this.use(() =>
          this.db.prepare('INSERT INTO dm_candidates (user_id, candidates) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET candidates = excluded.candidates').run(userId, JSON.stringify(candidates)),
        );
      },
    };
  }
}
