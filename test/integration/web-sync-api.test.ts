/**
 * Settings › Sync across devices, through a whole Charlie and the real git: the owner sees the
 * status (`/sync status`'s facts) and starts a sync now — what the other device sent arrives and is
 * searchable at once (re-indexed as the scheduled sync does); a member is refused both (the role
 * table's `settings`); a device not set up says how, and a remote's password never shows.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { SyncStatus } from '../../src/core/ports/index.js';
import { refusal } from '../../src/core/roles.js';
import { createSync } from '../../src/sync/create.js';
import { makeDevice } from '../support/sync-devices.js';
import { projectFile, startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';

const owner = { authorization: `Bearer ${TOKEN}` };
const json = { 'content-type': 'application/json' };

interface SyncAnswer {
  sync: SyncStatus | null;
  canSyncNow: boolean;
  setup: string;
}

async function memberCookie(f: WebFixture): Promise<Record<string, string>> {
  const link = await fetch(f.web.loginLinkFor('5552', 'Bob', 'member'), { redirect: 'manual' });
  return { cookie: (link.headers.get('set-cookie') ?? '').split(';')[0] ?? '', origin: f.web.url };
}

describe('sync API on a device that is set up', { timeout: 120_000 }, () => {
  let f: WebFixture;
  let root: string;
  let bare: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'charlie-web-sync-'));
    bare = join(root, 'remote.git');
    mkdirSync(bare);
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    const env = { SYNC_REMOTE: bare, SYNC_DEVICE: 'server', SYNC_EVERY_MINUTES: '0', SYNC_TIMEOUT_MS: '60000' };
    f = await startWebFixture({ files: { 'home/project.md': projectFile('home', 'web:home') }, env, script: () => ({ text: 'ok' }) });
    // `npm run sync -- setup` on this device, with the same settings
    await createSync(loadConfig({ PROJECTS_DIR: f.projectsDir, DATA_DIR: f.dataDir, ...env }, f.root)).setup();
  }, 60_000);

  afterAll(async () => {
    await f.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('shows the owner where sync stands, and a member is refused it', async () => {
    const before = (await (await fetch(`${f.web.url}/api/sync`, { headers: owner })).json()) as SyncAnswer;
    expect(before.canSyncNow).toBe(true);
    expect(before.sync).toMatchObject({ configured: true, device: 'server', remote: bare, lastSync: '', devices: [] });
    // project.md is here and not sent yet
    expect(before.sync?.waiting.local).toBeGreaterThan(0);

    const member = await memberCookie(f);
    for (const [method, path] of [
      ['GET', '/api/sync'],
      ['POST', '/api/sync/now'],
    ] as const) {
      const res = await fetch(`${f.web.url}${path}`, { method, headers: { ...member, ...json }, ...(method === 'POST' ? { body: '{}' } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe(refusal('settings'));
    }
    // the member's refused "Sync now" sent nothing
    expect(execFileSync('git', ['--git-dir', bare, 'rev-list', '--all', '--count'], { encoding: 'utf8' }).trim()).toBe('0');
  });

  it('syncs now for the owner: sends what waited, takes in what another device sent and re-indexes it', async () => {
    const first = await fetch(`${f.web.url}/api/sync/now`, { method: 'POST', headers: { ...owner, ...json }, body: '{}' });
    expect(first.status).toBe(200);
    const sent = (await first.json()) as { report: { pushed: boolean }; sync: SyncStatus };
    expect(sent.report.pushed).toBe(true);
    expect(sent.sync.waiting).toEqual({ local: 0, remote: 0 });
    expect(sent.sync.lastSync).not.toBe('');
    expect(sent.sync.devices.map((d) => d.name)).toEqual(['server']);
    expect(execFileSync('git', ['--git-dir', bare, 'show', 'main:home/project.md'], { encoding: 'utf8' })).toBe(readFileSync(join(f.projectsDir, 'home', 'project.md'), 'utf8'));

    // the laptop takes the memory, writes a page and sends it
    const laptop = makeDevice(root, 'laptop', { SYNC_REMOTE: bare });
    await laptop.sync.setup();
    await laptop.sync.syncNow();
    laptop.write('home/notes/Topics/Kayak.md', '---\nschema: 1\ntitle: Kayak\nsensitivity: personal\n---\n\nThe red kayak lives in the boathouse.\n');
    await laptop.sync.syncNow();

    const search = async () => ((await (await fetch(`${f.web.url}/api/projects/home/search?q=kayak%20boathouse`, { headers: owner })).json()) as { hits: { page: string }[] }).hits.map((h) => h.page);
    expect(await search()).not.toContain('notes/Topics/Kayak.md');
    const again = (await (await fetch(`${f.web.url}/api/sync/now`, { method: 'POST', headers: { ...owner, ...json }, body: '{}' })).json()) as { report: { changed: number }; sync: SyncStatus };
    expect(again.report.changed).toBeGreaterThan(0);
    expect(readFileSync(join(f.projectsDir, 'home', 'notes', 'Topics', 'Kayak.md'), 'utf8')).toContain('red kayak');
    expect(again.sync.devices.map((d) => d.name)).toEqual(['laptop', 'server']);
    // the graph took the page in (its generated index lists it), as after a scheduled sync
    expect(readFileSync(join(f.projectsDir, 'home', 'notes', '_index.md'), 'utf8')).toContain('Kayak');
    expect(await search()).toContain('notes/Topics/Kayak.md');
  });

  it('refuses options it does not take', async () => {
    const res = await fetch(`${f.web.url}/api/sync/now`, { method: 'POST', headers: { ...owner, ...json }, body: JSON.stringify({ force: true }) });
    expect(res.status).toBe(400);
  });
});

describe('sync API where sync is off or not set up', { timeout: 120_000 }, () => {
  let off: WebFixture;
  let notSetUp: WebFixture;
  const SECRET = 'CanaryPw42x';

  beforeAll(async () => {
    off = await startWebFixture({ script: () => ({ text: 'ok' }) });
    notSetUp = await startWebFixture({ env: { SYNC_REMOTE: `https://alice:${SECRET}@127.0.0.1:9/charlie.git`, SYNC_DEVICE: 'laptop' }, script: () => ({ text: 'ok' }) });
  }, 60_000);

  afterAll(async () => {
    await off.close();
    await notSetUp.close();
  });

  it('says sync is off and how to set it up', async () => {
    const answer = (await (await fetch(`${off.web.url}/api/sync`, { headers: owner })).json()) as SyncAnswer;
    expect(answer).toMatchObject({ sync: null, canSyncNow: false });
    expect(answer.setup).toContain('npm run sync -- setup');
    const now = await fetch(`${off.web.url}/api/sync/now`, { method: 'POST', headers: { ...owner, ...json }, body: '{}' });
    expect(now.status).toBe(409);
  });

  it('says a device is not set up yet, and never shows the remote’s password', async () => {
    const res = await fetch(`${notSetUp.web.url}/api/sync`, { headers: owner });
    const text = await res.text();
    expect(text).not.toContain(SECRET);
    const answer = JSON.parse(text) as SyncAnswer;
    expect(answer).toMatchObject({ canSyncNow: false, sync: { configured: false, device: 'laptop' } });
    expect(answer.sync?.remote).toContain('127.0.0.1:9/charlie.git');
    const now = await fetch(`${notSetUp.web.url}/api/sync/now`, { method: 'POST', headers: { ...owner, ...json }, body: '{}' });
    expect(now.status).toBe(409);
    expect(((await now.json()) as { error: string }).error).toContain('npm run sync -- setup');
  });
});
