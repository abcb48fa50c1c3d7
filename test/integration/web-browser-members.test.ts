/**
 * A household member in a real headless Chromium, with the Chrome DevTools Protocol's virtual
 * authenticator (a phone's platform passkey: CTAP2, internal, resident keys, user verified): the
 * owner invites Ann from Settings › Members; Ann opens the link, makes a passkey, signs out and
 * signs in again with it, and her private chat shows her own DMs, not the owner's. The owner
 * sees her device and removes it; her open session ends and her passkey is refused in words.
 * Someone signed in with a Discord `/web` link adds a passkey in Settings and signs in with it.
 * Passkeys need a host name: the app is reached as http://localhost (a secure context).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, browserMissing, launchChromium, signedInPage } from '../support/browser.js';
import { startWebFixture, type WebFixture } from '../support/web-fixture.js';

const missing = browserMissing(process.env.CI);
if (missing) console.warn(`web members browser tests skipped: ${missing}`);

const OWNER_SECRET = 'The surprise party for Ann is on Saturday';
const ANN_SECRET = 'Ann asked about her dentist appointment';

/** Serious and critical axe-core violations on a page the server writes (no sign-in), on a phone. */
async function pageViolations(browser: Browser, url: string): Promise<string[]> {
  const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
  try {
    const p = await context.newPage();
    await p.goto(url);
    await p.evaluate(axe);
    const found = await p.evaluate<{ id: string; impact: string | null }[]>('axe.run().then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact })))');
    return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${url}: ${v.id}`);
  } finally {
    await context.close();
  }
}

describe.skipIf(missing !== null)('a member signs in with a passkey, in Chromium', { timeout: 120_000 }, () => {
  let f: WebFixture;
  let browser: Browser;
  let base = '';
  let owner: { context: BrowserContext; page: Page; errors: string[] };
  let phone: BrowserContext;
  let ann: Page;
  let cdp: CDPSession;
  let authenticatorId = '';
  const errors: string[] = [];

  beforeAll(async () => {
    f = await startWebFixture({ script: () => ({ text: 'ok' }) });
    base = f.web.url.replace('127.0.0.1', 'localhost');
    f.app.privateStore.appendMessage('web-owner', { time: new Date().toISOString(), speaker: 'root', source: 'web:1', text: OWNER_SECRET, role: 'user' });
    browser = await launchChromium();
    owner = await signedInPage(browser, base);
    phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    ann = await phone.newPage();
    ann.on('pageerror', (e) => errors.push(e.message));
    cdp = await phone.newCDPSession(ann);
    await cdp.send('WebAuthn.enable');
    ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    }));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  it('the owner invites Ann; she makes a passkey, signs in with it, and sees only her own DMs', async () => {
    const o = owner.page;
    await o.goto(`${base}/#/settings/@me`);
    const members = o.locator('section.members');
    await members.getByLabel('Name').fill('Ann');
    await members.getByLabel('Role').selectOption('member');
    await members.getByRole('button', { name: 'Invite' }).click();
    const link = await members.getByLabel('Invite link for Ann').inputValue();
    expect(link).toMatch(new RegExp(`^${base}/invite\\?token=`));
    const id = (await members.locator('tr[data-member]', { hasText: 'Ann' }).getAttribute('data-member')) ?? '';
    f.app.privateStore.appendMessage(id, { time: new Date().toISOString(), speaker: 'Ann', source: 'web:2', text: ANN_SECRET, role: 'user' });

    if (process.env.SCREENSHOT_DIR) await members.screenshot({ path: join(process.env.SCREENSHOT_DIR, 'members-invite.png') });

    expect(await pageViolations(browser, link)).toEqual([]);
    await ann.goto(link);
    await ann.getByRole('heading', { name: 'Welcome, Ann' }).waitFor();
    if (process.env.SCREENSHOT_DIR) await ann.screenshot({ path: join(process.env.SCREENSHOT_DIR, 'members-passkey-invite.png') });
    await ann.getByRole('button', { name: 'Make a passkey' }).click();
    await ann.locator('.whoami', { hasText: 'Signed in as Ann' }).waitFor({ timeout: 30_000 });
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);

    // signed out, she comes back with the passkey alone
    await ann.evaluate(() => fetch('/api/logout', { method: 'POST' }));
    await ann.goto(`${base}/login`);
    await ann.getByRole('button', { name: 'Use my passkey' }).click();
    await ann.locator('.whoami', { hasText: 'Signed in as Ann' }).waitFor({ timeout: 30_000 });

    await ann.goto(`${base}/#/chat/@me`);
    await ann.locator('.msg.user', { hasText: ANN_SECRET }).waitFor();
    expect(await ann.locator('main').textContent()).not.toContain(OWNER_SECRET);
    // and the owner's private chat is the owner's
    await o.goto(`${base}/#/chat/@me`);
    await o.locator('.msg.user', { hasText: OWNER_SECRET }).waitFor();
    expect(await o.locator('main').textContent()).not.toContain(ANN_SECRET);
    expect(errors).toEqual([]);
  });

  it('the owner sees her device and removes it: her session ends and the passkey is refused in words', async () => {
    const o = owner.page;
    await o.goto(`${base}/#/settings/@me`);
    const row = o.locator('section.members tr[data-member]', { hasText: 'Ann' });
    await row.locator('li[data-passkey]', { hasText: 'Passkey on Chrome' }).waitFor();
    expect(await row.locator('li[data-session]').count()).toBe(2);
    if (process.env.SCREENSHOT_DIR) await o.locator('section.members').screenshot({ path: join(process.env.SCREENSHOT_DIR, 'members-devices.png') });
    const remove = row.getByRole('button', { name: 'Remove device' });
    await remove.click();
    await row.getByRole('button', { name: /^Remove Chrome/ }).click();
    await row.locator('li[data-passkey]', { hasText: 'removed' }).waitFor();

    await ann.goto(`${base}/`);
    await ann.getByRole('link', { name: /Sign in/ }).waitFor();
    await ann.goto(`${base}/login`);
    await ann.getByRole('button', { name: 'Use my passkey' }).click();
    await expect.poll(() => ann.locator('#passkey-status').textContent(), { timeout: 15_000 }).toContain('This device was removed');
    if (process.env.SCREENSHOT_DIR) await ann.screenshot({ path: join(process.env.SCREENSHOT_DIR, 'members-passkey-refused.png') });
    // Settings › Members with a member's row, devices and sessions (light on a desktop, dark on a phone), and the sign-in page
    expect(await axeViolations(browser, base, [['#/settings/@me', 'section.members tr[data-member] li[data-passkey]']])).toEqual([]);
    expect(await axeViolations(browser, base, [['#/settings/@me', 'section.members tr[data-member] li[data-passkey]']], { colorScheme: 'dark', viewport: { width: 390, height: 844 } })).toEqual([]);
    expect(await pageViolations(browser, `${base}/login`)).toEqual([]);
  });

  it('someone signed in with a Discord /web link adds a passkey in Settings, then signs in with it alone', async () => {
    const laptop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const bob = await laptop.newPage();
      const session = await laptop.newCDPSession(bob);
      await session.send('WebAuthn.enable');
      await session.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });
      await bob.goto(f.web.loginLinkFor('424242424242', 'Bob', 'member').replace('127.0.0.1', 'localhost'));
      await bob.locator('.whoami', { hasText: 'Signed in as Bob' }).waitFor({ timeout: 30_000 });
      await bob.goto(`${base}/#/settings/@me`);
      const own = bob.locator('section.own-passkeys');
      await own.getByText('No passkey signs you in yet').waitFor();
      await own.getByRole('button', { name: 'Add a passkey for this device' }).click();
      await own.locator('li', { hasText: 'On Chrome on Linux' }).waitFor();
      await bob.evaluate(() => fetch('/api/logout', { method: 'POST' }));
      await bob.goto(`${base}/login`);
      await bob.getByRole('button', { name: 'Use my passkey' }).click();
      await bob.locator('.whoami', { hasText: 'Signed in as Bob' }).waitFor({ timeout: 30_000 });
    } finally {
      await laptop.close();
    }
  });
});
