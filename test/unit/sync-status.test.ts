import { describe, expect, it } from 'vitest';
import type { SyncEngine, SyncStatus } from '../../src/core/ports/index.js';
import { renderSyncStatus } from '../../src/core/sync/render-status.js';
import { syncCommand } from '../../src/core/sync/sync-command.js';

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

describe('/sync status and /sync now (terminal and Discord)', () => {
  const engine = (over: Partial<SyncStatus>, syncNow: SyncEngine['syncNow']) => {
    const calls: string[] = [];
    const e: SyncEngine = {
      status: () => Promise.resolve(status(over)),
      syncNow: (signal) => (calls.push('now'), syncNow(signal)),
    };
    return { e, calls };
  };
  const report = { changed: ['home/notes/People/Ann.md'], review: [], notes: ['home/notes/People/Ann.md: prose changed on both devices; both kept'], pushed: true };

  it('status shows the status; now syncs once and says what arrived, then the status', async () => {
    const { e, calls } = engine({}, () => Promise.resolve(report));
    expect(await syncCommand('', e)).toBe(renderSyncStatus(status()));
    expect(calls).toEqual([]);
    const now = await syncCommand(' now ', e);
    expect(calls).toEqual(['now']);
    expect(now).toMatch(/^synced: 1 file\(s\) arrived or changed here, 0 pair\(s\) went into review, this device’s changes were sent\n {2}home\/notes\/People\/Ann.md: prose changed/);
    expect(now).toContain('sync: laptop ↔ ssh://nas/srv/charlie.git');
  });

  it('off, not set up, a failed sync and an unknown word each say so; a remote never shows its password', async () => {
    expect(await syncCommand('now', null)).toContain('sync is off: set SYNC_REMOTE');
    const notSetUp = engine({ configured: false }, () => Promise.reject(new Error('must not run')));
    expect(await syncCommand('now', notSetUp.e)).toContain('sync is off on laptop');
    expect(notSetUp.calls).toEqual([]);
    const failing = engine({ remote: 'https://ann:hunter2@git.example.com/charlie.git' }, () => Promise.reject(new Error('push to https://ann:hunter2@git.example.com/charlie.git refused')));
    const failed = await syncCommand('now', failing.e);
    expect(failed).toContain('the sync did not finish: push to https://git.example.com/charlie.git refused');
    expect(failed).not.toContain('hunter2');
    expect(await syncCommand('sideways', failing.e)).toBe('usage: /sync status · /sync now');
  });
});
