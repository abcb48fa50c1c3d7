/**
 * `/sync status` and `/sync now` as every front door shows them (the terminal's chat, Discord's
 * `/sync`): the same text the web app's Settings › Sync across devices holds, through the engine
 * the composition root built. A remote or an error is shown without a user name, password or
 * query, as everywhere a URL is shown.
 */
import type { SyncEngine, SyncReport } from '../ports/index.js';
import { withPublicUrls } from '../privacy/public-url.js';
import { renderSyncStatus } from './render-status.js';

export const SYNC_HELP = '/sync status · /sync now';

const OFF = 'sync is off: set SYNC_REMOTE and run `npm run sync -- setup` (docs/sync.md)';

/** What a sync did, in one line and its notes. */
export function syncReportText(r: SyncReport): string {
  const lines = [
    `synced: ${String(r.changed.length)} file(s) arrived or changed here, ${String(r.review.length)} pair(s) went into review, ${r.pushed ? 'this device’s changes were sent' : 'nothing new to send'}`,
    ...r.notes.map((n) => `  ${n}`),
  ];
  return lines.join('\n');
}

/** `args`: '' or `status` shows where sync stands; `now` syncs at once, then shows it. */
export async function syncCommand(args: string, engine: SyncEngine | null | undefined, signal?: AbortSignal): Promise<string> {
  const verb = args.trim() || 'status';
  if (verb !== 'status' && verb !== 'now') return `usage: ${SYNC_HELP}`;
  if (!engine) return OFF;
  const status = await engine.status();
  if (verb === 'status' || !status.configured) return withPublicUrls(renderSyncStatus(status));
  let report: SyncReport;
  try {
    report = await engine.syncNow(signal);
  } catch (err) {
    return withPublicUrls(`the sync did not finish: ${err instanceof Error ? err.message : String(err)}\n${renderSyncStatus(await engine.status())}`);
  }
  return withPublicUrls(`${syncReportText(report)}\n${renderSyncStatus(await engine.status())}`);
}
