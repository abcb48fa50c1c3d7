/**
 * The web app's Reminders view in a real headless Chromium (Debian's, driven by playwright-core):
 * a reminder set through the form with a phrase ("in 20 minutes", the /remind parser) is listed
 * in the reader's locale and time zone (the browser's, not the server's TZ), another is
 * cancelled, and when the server's fake clock passes the first one's time and the scheduler
 * ticks, it is delivered to the open page: in the page with Snooze/Done, and as a Notification
 * after the reader turned notifications on with a click; Snooze brings it back ten minutes later.
 * In CI the browser must be present; elsewhere the suite is skipped, naming why.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium, signedInPage } from '../support/browser.js';
import { FixedClock } from '../support/fakes.js';
import { startWebFixture, type WebFixture } from '../support/web-fixture.js';

const missing = browserMissing(process.env.CI);
if (missing) console.warn(`web browser tests skipped: ${missing}`);

const READER_ZONE = 'America/New_York';
// Notification as the page sees it: records what it was asked to show, and grants on request
const NOTIFICATION_SPY = `
  window.__notes = [];
  window.__perm = 'default';
  window.Notification = class {
    constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
    addEventListener() {}
    static get permission() { return window.__perm; }
    static requestPermission() { window.__perm = 'granted'; return Promise.resolve('granted'); }
  };
`;

describe.skipIf(missing !== null)('Reminders in the web app (Chromium)', { timeout: 60_000 }, () => {
  let f: WebFixture;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];
  const clock = new FixedClock(new Date('2026-12-04T14:00:00Z'));

  beforeAll(async () => {
    f = await startWebFixture({ script: () => ({ text: 'ok' }), env: { TZ: 'Europe/Berlin' }, clock });
    browser = await launchChromium();
    ({ page, errors } = await signedInPage(browser, f.web.url, { locale: 'en-US', timezoneId: READER_ZONE, initScript: NOTIFICATION_SPY }));
  }, 90_000);

  afterAll(async () => {
    // set in beforeAll, which may have failed before it got there
    await browser?.close();
    await f?.close();
  });

  // the owner in the web app's private chat, as the desk sees them
  const me = { place: { kind: 'private' as const, userId: 'web-owner', userName: 'owner' }, ownerId: 'web-owner', ownerName: 'owner' };
  const setReminder = async (when: string, what: string) => {
    await page.locator('#reminder-when').fill(when);
    await page.locator('#reminder-what').fill(what);
    await page.locator('.reminder-form button[type=submit]').click();
    await page.locator('.reminder', { hasText: what }).waitFor();
  };

  it('sets, lists in the reader’s zone, cancels, and delivers a due reminder to the open page', async () => {
    const listening = page.waitForResponse((r) => r.url().endsWith('/api/reminders/events'));
    await page.goto(`${f.web.url}/#/reminders/@me`);
    await page.reload(); // the page opens its reminder stream when it starts
    await page.locator('.reminder-form').waitFor();
    await listening;
    await setReminder('in 20 minutes', 'take the bread out');
    await setReminder('tomorrow at 9am', 'water the plants');

    // listed in the browser's language and zone: 14:20 UTC is 9:20 AM in New York (15:20 in Berlin)
    const shown = await page.locator('.reminder', { hasText: 'take the bread out' }).locator('time').textContent();
    const expected = new Intl.DateTimeFormat('en-US', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: READER_ZONE }).format(
      new Date('2026-12-04T14:20:00Z'),
    );
    expect(shown).toBe(expected);
    expect(shown).toContain('09:20');

    // cancel one: it leaves the list and the server
    await page.locator('.reminder', { hasText: 'water the plants' }).locator('button', { hasText: 'Cancel' }).click();
    await page.locator('.reminder', { hasText: 'water the plants' }).waitFor({ state: 'detached' });
    expect(f.app.time.reminders.list(me).map((r) => r.text)).toEqual(['take the bread out']);

    // notifications are asked for from the click
    await page.locator('#notify-button').click();
    await page.locator('.notify-state', { hasText: 'Notifications are on' }).waitFor();

    // not due yet: nothing is delivered
    clock.advance(19 * 60_000);
    await f.app.time.tick();
    expect(f.app.time.reminders.list(me).map((r) => [r.text, r.fired])).toEqual([['take the bread out', false]]);
    expect(await page.locator('.reminder-due').count()).toBe(0);

    clock.advance(2 * 60_000);
    await f.app.time.tick();
    const due = page.locator('.reminder-due', { hasText: 'take the bread out' });
    await due.waitFor();
    expect(await page.evaluate('window.__notes')).toEqual([{ title: 'Charlie', body: '⏰ Reminder: take the bread out' }]);
    expect(await due.locator('button').allTextContents()).toEqual(['Snooze 10 min', 'Done']);
    // the list drawn before it came due says it has fired, instead of looking upcoming
    await page.locator('.reminder.fired', { hasText: 'take the bread out' }).locator('.reminder-fired', { hasText: 'Reminded' }).waitFor();

    // Snooze: it comes back ten minutes later, once
    await due.locator('button', { hasText: 'Snooze' }).click();
    await due.waitFor({ state: 'detached' });
    clock.advance(11 * 60_000);
    await f.app.time.tick();
    await page.locator('.reminder-due', { hasText: 'take the bread out' }).waitFor();
    expect(await page.evaluate('window.__notes.length')).toBe(2);
    await page.locator('.reminder-due button', { hasText: 'Done' }).click();
    await page.locator('.reminder-due').waitFor({ state: 'detached' });
    await page.reload();
    await page.locator('.reminders .empty').waitFor();
    expect(errors).toEqual([]);
  });
});
