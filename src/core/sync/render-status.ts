/** `/sync status` and `npm run sync -- status` as text: devices, last sync, what is waiting, review from merges. */
import type { SyncStatus } from '../ports/index.js';

export function renderSyncStatus(s: SyncStatus): string {
  if (!s.configured) return `sync is off on ${s.device}: set SYNC_REMOTE and run \`npm run sync -- setup\` (docs/sync.md)`;
  const lines = [
    `sync: ${s.device} ↔ ${s.remote}${s.encrypted ? ' (encrypted with git-remote-gcrypt)' : ''}`,
    `last sync here: ${s.lastSync || 'never'}${s.lastError ? ` — last error: ${s.lastError}` : ''}`,
    `waiting: ${String(s.waiting.local)} change(s) here not yet sent, ${String(s.waiting.remote)} commit(s) fetched not yet merged`,
    'devices:',
    ...(s.devices.length ? s.devices.map((d) => `  ${d.name} — last synced ${d.lastSync}${d.background ? ' — runs the background jobs' : ''}`) : ['  (none has synced yet)']),
  ];
  const runners = s.devices.filter((d) => d.background).length;
  if (s.devices.length > 1 && runners !== 1) lines.push(`! ${String(runners)} devices say they run the background jobs: set SYNC_BACKGROUND=true on exactly one`);
  lines.push(s.review.length ? `in review from merges (${String(s.review.length)}):` : 'nothing in review from merges');
  for (const r of s.review) lines.push(`  ${r.path}: ^${r.ids[0]} vs ^${r.ids[1]} — ${r.why} (resolve with /memory review)`);
  return lines.join('\n');
}
