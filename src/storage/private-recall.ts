/**
 * The hybrid index of each private conversation, in private.db beside the DM (table
 * `dm_recall`): per user and passage its text, its vector from the local embedder (so a
 * passage is embedded once) and its usage. Keyword scoring is the lexical module's BM25 (stop
 * words dropped, stemmed), held in memory per user and rebuilt from the rows when the process
 * starts. Nothing here enters the shared LanceDB index or Markdown; `/private wipe` deletes the
 * user's rows with the rest of the DM (SqlitePrivateStore.wipe), and a passage that leaves the
 * conversation (a deleted message, a held or superseded record) leaves the index at the next
 * search, or at once where the store deletes it.
 *
 * A hosted embedder is never given DM text: without a local one the index is keyword + usage.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { PrivateDoc, PrivateRecallHit, PrivateRecallIndex } from '../core/private/private-recall.js';
import type { Clock, Embedder } from '../core/ports/index.js';
import { LexicalIndex } from '../memory/index/lexical.js';
import { dropRecallRows } from './recall-rows.js';

type Row = Record<string, unknown>;

/** Vector and keyword weights: a semantic model leads, else keywords lead (as in project recall, fusion.ts). */
const SEMANTIC = { vector: 0.7, keyword: 0.3 };
const LEXICAL = { vector: 0.3, keyword: 0.7 };
/** A passage no query word matches still counts when a sentence model finds it this close. */
const MIN_COSINE = 0.3;
/** score × (1 + boost × USAGE). */
const USAGE = 0.3;
/** Usage fades by half in this many days without a retrieval. */
const USAGE_HALF_LIFE_DAYS = 30;
const DAY = 86_400_000;
const BATCH = 32;

export function migrateRecall(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS dm_recall (
      user_id TEXT NOT NULL, key TEXT NOT NULL, text TEXT NOT NULL,
      embedder TEXT NOT NULL DEFAULT '', vector BLOB, uses REAL NOT NULL DEFAULT 0, used TEXT NOT NULL DEFAULT '',
      PRIMARY KEY (user_id, key));
  `);
}

/** Deletes the rows of messages that are no longer in dm_messages. */
export function dropDeletedMessages(db: DatabaseSync, userId: string): void {
  db.prepare("DELETE FROM dm_recall WHERE user_id = ? AND key LIKE 'm:%' AND CAST(substr(key, 3) AS INTEGER) NOT IN (SELECT id FROM dm_messages WHERE user_id = ?)").run(userId, userId);
}

interface Entry {
  text: string;
  vector: Float32Array | null;
  uses: number;
  used: string;
}

interface UserIndex {
  lexical: LexicalIndex<string>;
  entries: Map<string, Entry>;
}

function toBlob(v: Float32Array): Uint8Array {
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}

function fromBlob(value: unknown, dimensions: number): Float32Array | null {
  if (!(value instanceof Uint8Array) || value.byteLength !== dimensions * 4) return null;
  return new Float32Array(value.slice().buffer);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/** In [0, 1]: grows with retrievals, halves every USAGE_HALF_LIFE_DAYS without one. */
function usageBoost(e: Entry, now: number): number {
  if (e.uses <= 0 || !e.used) return 0;
  const days = Math.max(0, (now - Date.parse(e.used)) / DAY);
  return (1 - Math.exp(-e.uses / 3)) * 0.5 ** (days / USAGE_HALF_LIFE_DAYS);
}

export class SqlitePrivateRecall implements PrivateRecallIndex {
  /** Per user, the rows as the process holds them (rebuilt from dm_recall on first use). */
  private readonly users = new Map<string, UserIndex>();

  constructor(
    private readonly db: DatabaseSync,
    /** Runs a query, turning a damaged database into the store's error (SqlitePrivateStore.use). */
    private readonly use: <T>(fn: () => T) => T,
    /** Only a local embedder is given DM text; null = keyword and usage only. */
    private readonly embedder: Embedder | null,
    private readonly clock: Clock,
  ) {}

  private get vectors(): Embedder | null {
    return this.embedder && this.embedder.locality === 'local' ? this.embedder : null;
  }

  private load(userId: string): UserIndex {
    const known = this.users.get(userId);
    if (known) return known;
    const lexical = new LexicalIndex<string>();
    const entries = new Map<string, Entry>();
    const id = this.vectors?.id ?? '';
    const dims = this.vectors?.dimensions ?? 0;
    const rows = this.use(() => this.db.prepare('SELECT key, text, embedder, vector, uses, used FROM dm_recall WHERE user_id = ?').all(userId) as Row[]);
    for (const r of rows) {
      const key = String(r.key);
      const text = String(r.text);
      entries.set(key, { text, vector: id && r.embedder === id ? fromBlob(r.vector, dims) : null, uses: Number(r.uses) || 0, used: typeof r.used === 'string' ? r.used : '' });
      lexical.add(key, key, text);
    }
    const index = { lexical, entries };
    this.users.set(userId, index);
    return index;
  }

  /** Brings the user's rows in step with `docs`, embedding what has no vector yet. */
  private async sync(userId: string, docs: readonly PrivateDoc[]): Promise<UserIndex> {
    const index = this.load(userId);
    const wanted = new Map(docs.map((d) => [d.key, d.text]));
    const gone = [...index.entries.keys()].filter((k) => wanted.get(k) !== index.entries.get(k)?.text);
    for (const k of gone) {
      index.entries.delete(k);
      index.lexical.remove(k);
    }
    if (gone.length) this.use(() => dropRecallRows(this.db, userId, gone));
    const fresh = [...wanted].filter(([k]) => !index.entries.has(k)).map(([key, text]) => ({ key, text }));
    const insert = this.db.prepare("INSERT INTO dm_recall (user_id, key, text) VALUES (?, ?, ?) ON CONFLICT (user_id, key) DO UPDATE SET text = excluded.text, embedder = '', vector = NULL");
    this.use(() => {
      for (const d of fresh) insert.run(userId, d.key, d.text);
    });
    for (const d of fresh) {
      index.entries.set(d.key, { text: d.text, vector: null, uses: 0, used: '' });
      index.lexical.add(d.key, d.key, d.text);
    }
    const embedder = this.vectors;
    if (embedder) {
      const missing = [...index.entries].filter(([, e]) => !e.vector).map(([key, e]) => ({ key, e }));
      const save = this.db.prepare('UPDATE dm_recall SET embedder = ?, vector = ? WHERE user_id = ? AND key = ?');
      for (let i = 0; i < missing.length; i += BATCH) {
        const batch = missing.slice(i, i + BATCH);
        const vectors = await embedder.embed(batch.map((m) => m.e.text));
        this.use(() =>
          batch.forEach((m, j) => {
            const v = vectors[j];
            if (!v || v.length !== embedder.dimensions) return;
            // the passage may have left while the embedder ran
            if (index.entries.get(m.key) !== m.e) return;
            m.e.vector = v;
            save.run(embedder.id, toBlob(v), userId, m.key);
          }),
        );
      }
    }
    return index;
  }

  async search(userId: string, query: string, docs: readonly PrivateDoc[], limit: number): Promise<PrivateRecallHit[]> {
    if (limit <= 0 || !query.trim()) return [];
    const index = await this.sync(userId, docs);
    if (index.entries.size === 0) return [];
    const keyword = new Map(index.lexical.search(query, index.entries.size, 0).map((h) => [h.value, h.score]));
    const best = Math.max(0, ...keyword.values());
    const embedder = this.vectors;
    const q = embedder ? (await embedder.embed([query]))[0] : undefined;
    const w = embedder?.semantic ? SEMANTIC : LEXICAL;
    const now = this.clock.now().getTime();
    const hits: PrivateRecallHit[] = [];
    for (const [key, e] of index.entries) {
      const k = best > 0 ? (keyword.get(key) ?? 0) / best : 0;
      const v = q && e.vector ? Math.max(0, cosine(q, e.vector)) : 0;
      if (k === 0 && !(embedder?.semantic && v >= MIN_COSINE)) continue;
      const usage = usageBoost(e, now);
      hits.push({ key, score: (w.vector * v + w.keyword * k) * (1 + usage * USAGE), vector: v, keyword: k, usage });
    }
    hits.sort((a, b) => b.score - a.score || a.key.localeCompare(b.key));
    const top = hits.slice(0, limit);
    this.retrieved(userId, index, top, now);
    return top;
  }

  private retrieved(userId: string, index: UserIndex, hits: readonly PrivateRecallHit[], now: number): void {
    if (hits.length === 0) return;
    const used = new Date(now).toISOString();
    const save = this.db.prepare('UPDATE dm_recall SET uses = ?, used = ? WHERE user_id = ? AND key = ?');
    this.use(() => {
      for (const h of hits) {
        const e = index.entries.get(h.key);
        if (!e) continue;
        const days = e.used ? Math.max(0, (now - Date.parse(e.used)) / DAY) : 0;
        e.uses = e.uses * 0.5 ** (days / USAGE_HALF_LIFE_DAYS) + 1;
        e.used = used;
        save.run(e.uses, used, userId, h.key);
      }
    });
  }

  /** Forgets what the process holds for this user (after a wipe, the rows are gone too). */
  drop(userId: string): void {
    this.users.delete(userId);
  }
}
