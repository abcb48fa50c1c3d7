/**
 * The consent ledger (core/privacy/consent.ts), in private.db beside the private memory it
 * guards: one row per answer a person gave (`once` or `always`), with the item named as the
 * question named it (never its content), the service, the time, and when an "always" was
 * revoked. Rows are read back through a schema: the file is the person's, but not trusted.
 * A person's rows go with `/private wipe` (table `dm_consents`, keyed by user like every `dm_` table).
 */
import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import { CONSENT_ANSWERS, type ConsentGrant, type ConsentItem, type ConsentLedger, type ConsentService } from '../core/privacy/consent.js';
import { DESTINATIONS, type DestinationKind } from '../core/privacy/destinations.js';
import { SENSITIVE_KINDS } from '../core/privacy/sensitive-words.js';

/** Creates the ledger's table on a database of any earlier version; idempotent. */
export function migrateConsents(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS dm_consents (
      id TEXT PRIMARY KEY, user_id TEXT NOT NULL, item_id TEXT NOT NULL, item TEXT NOT NULL,
      service_kind TEXT NOT NULL, service_id TEXT NOT NULL,
      answer TEXT NOT NULL CHECK (answer IN ('once', 'always')), at TEXT NOT NULL, revoked TEXT NOT NULL DEFAULT '');
    CREATE INDEX IF NOT EXISTS dm_consents_by_item ON dm_consents (user_id, item_id, service_kind, service_id);
  `);
}

const itemSchema = z.object({
  id: z.string().min(1),
  where: z.string(),
  name: z.string().optional(),
  kind: z.enum(SENSITIVE_KINDS).optional(),
  subject: z.string().optional(),
});

const rowSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  item: z.string(),
  service_kind: z.enum(Object.keys(DESTINATIONS) as [DestinationKind, ...DestinationKind[]]),
  service_id: z.string(),
  answer: z.enum(CONSENT_ANSWERS).exclude(['no']),
  at: z.string(),
  revoked: z.string(),
});

function toGrant(raw: unknown): ConsentGrant | null {
  const row = rowSchema.safeParse(raw);
  if (!row.success) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.data.item);
  } catch {
    return null;
  }
  const item = itemSchema.safeParse(parsed);
  if (!item.success) return null;
  const r = row.data;
  const { name, kind, subject } = item.data;
  const clean: ConsentItem = { id: item.data.id, where: item.data.where, ...(name ? { name } : {}), ...(kind ? { kind } : {}), ...(subject ? { subject } : {}) };
  return { id: r.id, userId: r.user_id, item: clean, service: { kind: r.service_kind, id: r.service_id }, answer: r.answer, at: r.at, ...(r.revoked ? { revoked: r.revoked } : {}) };
}

export class SqliteConsentLedger implements ConsentLedger {
  constructor(
    private readonly db: DatabaseSync,
    private readonly use: <T>(fn: () => T) => T,
  ) {}

  list(userId: string): Promise<ConsentGrant[]> {
    return Promise.resolve(
      this.use(() =>
        this.db
          .prepare('SELECT * FROM dm_consents WHERE user_id = ? ORDER BY at DESC, rowid DESC')
          .all(userId)
          .map(toGrant)
          .filter((g): g is ConsentGrant => g !== null),
      ),
    );
  }

  record(userId: string, item: ConsentItem, service: ConsentService, answer: ConsentGrant['answer'], at: string): Promise<ConsentGrant> {
    const id = `c-${randomUUID().slice(0, 8)}`;
    const stored = itemSchema.parse(item);
    this.use(() =>
      this.db
        .prepare('INSERT INTO dm_consents (id, user_id, item_id, item, service_kind, service_id, answer, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(id, userId, item.id, JSON.stringify(stored), service.kind, service.id, answer, at),
    );
    return Promise.resolve({ id, userId, item, service, answer, at });
  }

  revoke(userId: string, grantId: string, at: string): Promise<boolean> {
    const changed = this.use(() => this.db.prepare("UPDATE dm_consents SET revoked = ? WHERE user_id = ? AND id = ? AND answer = 'always' AND revoked = ''").run(at, userId, grantId).changes);
    return Promise.resolve(Number(changed) > 0);
  }

  allows(userId: string, itemId: string, service: ConsentService): Promise<boolean> {
    const row = this.use(() =>
      this.db
        .prepare("SELECT 1 AS yes FROM dm_consents WHERE user_id = ? AND item_id = ? AND service_kind = ? AND service_id = ? AND answer = 'always' AND revoked = '' LIMIT 1")
        .get(userId, itemId, service.kind, service.id),
    );
    return Promise.resolve(row !== undefined);
  }
}
