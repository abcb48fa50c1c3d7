import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../src/core/ports/index.js';
import { renderSyncStatus } from '../../src/core/sync/render-status.js';

const status = (over: Partial<SyncStatus> = {}): SyncStatus => ({
  configured: true,
  device: 'laptop',
  remote: 'ssh://nas/srv/charlie.git',
  encrypted: false,
  devices: [
    { name: 'laptop', lastSync: '2026-12-04T09:12:02+00:00', background: false },
    { name: 'server', lastSync: '2026-12-04T09:05:40+00:00', background: true },
  ],
  lastSync: '2026-12-04T09:12:03.114Z',
  lastError: '',
  waiting: { local: 2, remote: 1 },
  review: [],
  ...over,
});

describe('/sync status', () => {
  it('shows the devices, the last sync, what is waiting and which device runs the background jobs', () => {
    const text = renderSyncStatus(status());
    for (const part of [
      'laptop',
      'server — last synced 2026-12-04T09:05:40+00:00 — runs the background jobs',
      '2 change(s) here not yet sent',
      '1 commit(s)',
      '2026-12-04T09:12:03.114Z',
      'nothing in review from merges',
    ])
      expect(text).toContain(part);
    expect(text).not.toContain('!');
  });

  it('warns when not exactly one device runs the background jobs, and lists review pairs from merges', () => {
    const both = status({
      devices: status().devices.map((d) => ({ ...d, background: true })),
      review: [{ path: 'home/notes/People/Sarah.md', ids: ['r-1', 'r-2'], why: 'contradicting records from two devices' }],
    });
    const text = renderSyncStatus(both);
    expect(text).toContain('! 2 devices say they run the background jobs');
    expect(text).toContain('home/notes/People/Sarah.md: ^r-1 vs ^r-2 — contradicting records from two devices');
    expect(renderSyncStatus(status({ configured: false }))).toContain('sync is off on laptop');
  });
});
