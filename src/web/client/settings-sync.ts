/**
 * Settings › Sync across devices, the owner's: whether this device is set up, the remote, the last
 * sync, what is waiting, the devices, and pairs a merge sent to review — the facts of
 * `/sync status` — with "Sync now". Where sync is off it says how to set it up (docs/sync.md).
 * Server: src/web/api-sync.ts.
 */
import type { SyncStatus } from '../../core/ports/index.js';
import { call } from './api.js';
import { clear, h } from './dom.js';

interface SyncAnswer {
  sync: SyncStatus | null;
  canSyncNow: boolean;
  setup: string;
}
interface SyncNowAnswer {
  report: { changed: number; review: number; notes: string[]; pushed: boolean };
  sync: SyncStatus;
}

const when = (iso: string) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'never');
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function row(label: string, ...value: (Node | string | null | (Node | string)[])[]): HTMLElement {
  return h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, ...value));
}

function statusTable(s: SyncStatus): HTMLElement {
  const runners = s.devices.filter((d) => d.background).length;
  return h(
    'table',
    { class: 'settings sync-status' },
    h(
      'tbody',
      {},
      row('This device', h('strong', {}, s.device)),
      row('Remote', h('code', {}, s.remote), s.encrypted ? h('div', { class: 'why' }, 'encrypted with git-remote-gcrypt') : null),
      row(
        'Last sync here',
        s.lastSync ? h('time', { datetime: s.lastSync }, when(s.lastSync)) : h('span', { class: 'chip-field' }, 'never synced'),
        s.lastError ? [' ', h('span', { class: 'chip-field check-fail' }, 'the last try failed'), h('div', { class: 'why' }, s.lastError)] : null,
      ),
      row('Waiting', `${plural(s.waiting.local, 'change', 'changes')} here not yet sent, ${plural(s.waiting.remote, 'commit', 'commits')} fetched not yet merged`),
      row(
        'Devices',
        s.devices.length
          ? h(
              'ul',
              { class: 'sync-devices' },
              s.devices.map((d) => h('li', {}, h('strong', {}, d.name), ` — last synced ${when(d.lastSync)}`, d.background ? ' — runs the background jobs' : '')),
            )
          : 'none has synced yet',
        s.devices.length > 1 && runners !== 1 ? h('div', { class: 'why' }, `${runners} devices say they run the background jobs: set SYNC_BACKGROUND=true on exactly one.`) : null,
      ),
      row(
        'In review from merges',
        s.review.length
          ? h(
              'ul',
              { class: 'sync-review' },
              s.review.map((r) => h('li', {}, h('code', {}, r.path), `: ${r.why} (resolve in the Memory view’s Review tab)`)),
            )
          : 'nothing',
      ),
    ),
  );
}

/** The section, drawn from GET /api/sync and again after each "Sync now". */
export async function syncSection(): Promise<HTMLElement> {
  const section = h('section', { class: 'settings-sync', 'aria-labelledby': 'sync-title' });
  const head = h('h2', { id: 'sync-title' }, 'Sync across devices');
  const answer = await call<SyncAnswer>('GET', '/api/sync');
  const s = answer.sync;
  if (!s || !s.configured) {
    clear(
      section,
      head,
      h('p', {}, s ? `This device (${s.device}) is not set up for sync yet.` : 'Sync is off on this device.'),
      h('p', { class: 'meta' }, `To keep this memory in step with your other devices through a git repository your household owns: ${answer.setup}`),
    );
    return section;
  }
  const table = h('div', { class: 'sync-table' }, statusTable(s));
  const status = h('p', { class: 'meta', role: 'status' });
  const button = h('button', { type: 'button', id: 'sync-now', class: 'primary', disabled: !answer.canSyncNow }, 'Sync now');
  button.addEventListener('click', () => {
    button.disabled = true;
    status.textContent = 'Syncing…';
    call<SyncNowAnswer>('POST', '/api/sync/now', {})
      .then(({ report, sync }) => {
        clear(table, statusTable(sync));
        const review = report.review ? `, ${plural(report.review, 'pair', 'pairs')} to review` : '';
        status.textContent = `Synced: ${plural(report.changed, 'file', 'files')} arrived or changed${review}${report.pushed ? '; this device’s changes were sent' : ''}.`;
      })
      .catch((e: unknown) => {
        status.textContent = e instanceof Error ? e.message : String(e);
      })
      .finally(() => {
        button.disabled = false;
      });
  });
  clear(
    section,
    head,
    h('p', { class: 'meta' }, 'Your memory pages and archive, kept in step with your other devices (docs/sync.md). Sync runs on its own too (SYNC_EVERY_MINUTES).'),
    table,
    button,
    status,
  );
  return section;
}
