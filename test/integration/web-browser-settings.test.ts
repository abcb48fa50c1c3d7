/**
 * Settings › Machines and Settings › Sync across devices in Debian's headless Chromium, against a
 * whole Charlie with a machine page and a real git remote: the owner sees the machine as
 * `user@host` with their badge, revokes the login (the page is marked), sees this device's sync
 * status and syncs now (the remote receives the memory); axe-core finds nothing serious on the
 * page. A member sees the machines with no buttons and no sync section. SCREENSHOT_DIR=… keeps a
 * picture of the owner's page.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createSync } from '../../src/sync/create.js';
import { browserMissing, launchChromium } from '../support/browser.js';
import { projectFile, startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';

const missing = browserMissing(process.env.CI);
if (missing) console.warn(`web settings browser tests skipped: ${missing}`);

const NAS = `---
schema: 2
title: NAS
category: Machines
created: 2026-11-01
updated: 2026-11-01
staleness: 4
sensitivity: personal
---

A machine Charlie connects to over SSH.

## Facts
- SSH login: admin@192.168.1.20:22, credential vault:ssh/admin@192.168.1.20. [said:: 2026-11-01] [source:: manual] ^r-a1
- Host key: ssh-ed25519 SHA256:${'Q'.repeat(43)}. [said:: 2026-11-01] [source:: manual] ^r-a2
`;

describe.skipIf(missing !== null)('Settings: machines and sync in Chromium', { timeout: 180_000 }, () => {
  let f: WebFixture;
  let browser: Browser;
  let root: string;
  let bare: string;
  const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'charlie-web-settings-'));
    bare = join(root, 'remote.git');
    mkdirSync(bare);
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    const env = { SYNC_REMOTE: bare, SYNC_DEVICE: 'home-server', SYNC_EVERY_MINUTES: '0' };
    f = await startWebFixture({
      files: { 'home/project.md': projectFile('home', 'web:home'), 'home/notes/Machines/NAS.md': NAS },
      env,
      script: () => ({ text: 'ok' }),
    });
    await createSync(loadConfig({ PROJECTS_DIR: f.projectsDir, DATA_DIR: f.dataDir, ...env }, f.root)).setup();
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    // set in beforeAll, which may have failed before it got there
    await browser?.close();
    await f?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('the owner sees both sections, revokes a login and syncs now', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    try {
      const page = await context.newPage();
      await page.goto(`${f.web.url}/login?token=${TOKEN}`);
      await page.locator('#sidebar a', { hasText: 'home' }).first().waitFor({ timeout: 60_000 });
      await page.locator('a.settings-link').click();
      const machines = page.locator('section.settings-machines');
      const nas = machines.locator('article.machine[data-machine=NAS]');
      await nas.waitFor({ timeout: 30_000 });
      expect(await machines.locator('h2').textContent()).toBe('Machines in home');
      expect(await nas.locator('.machine-logins li').first().textContent()).toBe('admin@192.168.1.20:22 credential not in your vault');
      expect(await nas.locator('.meta code').textContent()).toBe(`ssh-ed25519 SHA256:${'Q'.repeat(43)}`);
      expect(await nas.locator('.machine-actions button').allTextContents()).toEqual(['Revoke', 'Forget host key', 'Forget']);

      const sync = page.locator('section.settings-sync');
      expect(await sync.locator('h2').textContent()).toBe('Sync across devices');
      expect(await sync.locator('table.sync-status').textContent()).toContain('home-server');
      expect(await sync.locator('table.sync-status').textContent()).toContain(bare);
      expect(await sync.locator('table.sync-status').textContent()).toContain('Last sync herenever synced');

      await page.evaluate(axe);
      const serious = await page.evaluate<string[]>("axe.run().then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id))");
      expect(serious).toEqual([]);
      if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.SCREENSHOT_DIR, 'settings-machines-sync.png'), fullPage: true });

      await page.locator('#sync-now').click();
      await expect.poll(() => sync.locator('[role=status]').textContent(), { timeout: 60_000 }).toMatch(/^Synced: .*this device’s changes were sent\.$/);
      expect(await sync.locator('table.sync-status').textContent()).toContain('0 changes here not yet sent');
      expect(await sync.locator('table.sync-status').textContent()).toContain('home-server — last synced');
      expect(execFileSync('git', ['--git-dir', bare, 'ls-tree', '-r', '--name-only', 'main'], { encoding: 'utf8' })).toContain('home/notes/Machines/NAS.md');

      // Revoke asks once more, then the server's line shows and the list is drawn again
      const revoke = nas.locator('.machine-actions button').first();
      await revoke.click();
      expect(await revoke.textContent()).toBe('Delete your vault entry?');
      await revoke.click();
      await expect.poll(() => page.locator('.toast').first().textContent()).toContain('Revoked admin@192.168.1.20:22');
      await expect.poll(() => nas.locator('.machine-logins').textContent()).toContain('revoked');
      expect(readFileSync(join(f.projectsDir, 'home', 'notes', 'Machines', 'NAS.md'), 'utf8')).toContain('SSH login revoked: admin@192.168.1.20:22');
      if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: join(process.env.SCREENSHOT_DIR, 'settings-after-sync-and-revoke.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('a member sees the machines without buttons, and no sync', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(f.web.loginLinkFor('5552', 'Bob', 'member'));
      await page.locator('#sidebar a', { hasText: 'home' }).first().waitFor({ timeout: 60_000 });
      await page.goto(`${f.web.url}/#/settings/home`);
      await page.locator('section.settings-machines article.machine[data-machine=NAS]').waitFor({ timeout: 30_000 });
      await page.locator('section.privacy').waitFor();
      expect(await page.locator('section.settings-machines button').count()).toBe(0);
      expect(await page.locator('section.settings-machines').textContent()).toContain('Only the owner or an editor may revoke or forget them.');
      expect(await page.locator('section.settings-sync').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
