/**
 * Settings › Sync across devices, the owner's (docs/sync.md): the same status as `/sync status`
 * and a sync started now, through the engine the composition root built (src/sync).
 *
 *   GET  /api/sync        → { sync: SyncStatus | null, canSyncNow, setup } (null: SYNC_REMOTE unset here)
 *   POST /api/sync/now    {} → { report: { changed, review, notes, pushed }, sync: SyncStatus }
 *
 * Who may: Charlie's owner only (`settings` in the role table, put in front of these routes by
 * src/web/roles.ts). The remote is shown without a user name, password or query, as everywhere.
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import type { SyncEngine, SyncStatus } from '../core/ports/index.js';
import { withPublicUrls } from '../core/privacy/public-url.js';
import type { WebEnv } from './web-deps.js';

/** How to turn sync on, for a device where it is off or not set up. */
export const SYNC_SETUP = 'set SYNC_REMOTE in .env, then run `npm run sync -- setup` (docs/sync.md)';

/** "Sync now" takes no options: anything in its body is refused rather than ignored. */
const nowBody = z.object({}).strict();

function shown(s: SyncStatus): SyncStatus {
  return { ...s, remote: withPublicUrls(s.remote), lastError: withPublicUrls(s.lastError) };
}

export function syncRoutes(app: Hono<WebEnv>, deps: { sync?: SyncEngine | null }): void {
  const engine = deps.sync ?? null;
  app.get('/api/sync', async (c) => {
    if (!engine) return c.json({ sync: null, canSyncNow: false, setup: SYNC_SETUP });
    const status = await engine.status();
    return c.json({ sync: shown(status), canSyncNow: status.configured, setup: SYNC_SETUP });
  });
  app.post('/api/sync/now', async (c) => {
    const raw: unknown = await c.req.json().catch(() => ({}));
    const body = nowBody.safeParse(raw ?? {});
    if (!body.success) return c.json({ error: `Sync now takes no options: ${body.error.issues[0]?.message ?? 'bad body'}` }, 400);
    if (!engine) return c.json({ error: `Sync is off on this device: ${SYNC_SETUP}.` }, 409);
    if (!(await engine.status()).configured) return c.json({ error: `This device is not set up for sync yet: ${SYNC_SETUP}.` }, 409);
    try {
      const r = await engine.syncNow();
      return c.json({ report: { changed: r.changed.length, review: r.review.length, notes: r.notes, pushed: r.pushed }, sync: shown(await engine.status()) });
    } catch (err) {
      return c.json({ error: `The sync did not finish: ${withPublicUrls(err instanceof Error ? err.message : String(err))}` }, 502);
    }
  });
}
