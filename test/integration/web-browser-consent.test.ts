/**
 * "Ask in the moment" in a real headless Chromium: Ann, signed in with her `/web` link, asks in
 * a project that holds her health record; the hosted model would read it, so her turn shows a
 * dialog — the service, her item by label, Once / Always for these / No and a countdown — that
 * passes axe-core. Once sends it and the reply comes; Always, then Revoke in Settings › Privacy.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium } from '../support/browser.js';
import { ANN_CANARY, ANN_LABEL, REPLY, startConsentWeb } from '../support/consent-web.js';
import type { WebFixture } from '../support/web-fixture.js';

const missing = browserMissing(process.env.CI);
if (missing) console.warn(`web consent browser tests skipped: ${missing}`);

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

describe.skipIf(missing !== null)('the consent dialog in Chromium', { timeout: 90_000 }, () => {
  let f: WebFixture;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    f = await startConsentWeb();
    browser = await launchChromium();
    // axe's script needs to get past the app's CSP
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(f.web.loginLinkFor('ann-1', 'Ann'));
    await page.locator('#sidebar a', { hasText: 'general' }).first().waitFor({ timeout: 60_000 });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  const ask = async () => {
    await page.goto(`${f.web.url}/#/chat/general`);
    await page.locator('button.send').waitFor();
    await page.locator('#composer').fill('what do you remember about me?');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /^May I send this to the chat model fake-model \(hosted\)\?$/ });
    await dialog.waitFor();
    return dialog;
  };

  it('asks with the service, the item by label and a countdown; Once sends it and the reply comes', async () => {
    const before = f.model.requests.length;
    const dialog = await ask();
    expect(await dialog.locator('.consent-items li').allTextContents()).toEqual([ANN_LABEL]);
    expect(await dialog.textContent()).not.toContain('sumatriptan');
    const clock = dialog.getByRole('timer');
    const first = await clock.textContent();
    expect(first).toMatch(/^0:(1\d|20)$/);
    await poll(() => clock.textContent()).not.toBe(first);
    expect(await dialog.getByRole('button').allTextContents()).toEqual(['Once', 'Always for these', 'No']);

    const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate(axe);
    const violations = await page.evaluate<string[]>(
      "axe.run(document.querySelector('.consent')).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id))",
    );
    expect(violations).toEqual([]);

    await dialog.getByRole('button', { name: 'Once' }).click();
    await poll(() => page.locator('.msg.assistant').last().locator('.bubble-text').textContent()).toContain(REPLY);
    await page.locator('.consent.done.ok').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(JSON.stringify(f.model.requests.slice(before))).toContain(ANN_CANARY);
    // a web project is read by the household: the turn's line counts the items the dialog named
    expect(await page.locator('.msg.assistant').last().locator('.notice').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('for this answer: 1 item Ann was asked about')]));
    expect(errors).toEqual([]);
  });

  it('Always for these, then Settings › Privacy lists it and Revoke ends it', async () => {
    const dialog = await ask();
    await dialog.getByRole('button', { name: 'Always for these' }).click();
    await page.locator('.consent.done.ok').last().waitFor();
    await page.locator('button.send').waitFor();

    await page.locator('#sidebar a', { hasText: 'Settings' }).click();
    const section = page.getByRole('region', { name: 'Privacy: what you let go to hosted services' });
    await section.waitFor();
    expect(await section.locator('.mode-line').textContent()).toMatch(/^consent: ask/);
    const rows = section.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.locator('td:nth-child(3)').allTextContents()).toEqual(['always', 'once']);
    expect(await rows.locator('th').allTextContents()).toEqual([ANN_LABEL, ANN_LABEL]);
    // only the standing "always" can be revoked
    const revoke = section.getByRole('button', { name: `Revoke "always" for ${ANN_LABEL}` });
    expect(await revoke.count()).toBe(1);
    await revoke.click();
    await poll(() => rows.first().locator('td:nth-child(3)').textContent()).toMatch(/^always, revoked /);
    expect(await section.getByRole('button').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
