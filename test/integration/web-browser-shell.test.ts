/**
 * The web app's shell in Debian's headless Chromium: a slow view never replaces a newer, faster
 * route (each view draws into its own container); the `?` list and the `g` keys come from one
 * table, so every `g then …` works and is listed; on a 390 px phone every view tab is inside
 * the screen without scrolling; a toast goes away with the view it was shown in.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GO_TO, SHORTCUT_LIST } from '../../src/web/client/shortcut-table.js';
import { browserMissing, launchChromium, signedInPage, type SignedIn } from '../support/browser.js';
import { demoFiles } from '../support/web-demo-data.js';
import { startWebFixture, type WebFixture } from '../support/web-fixture.js';

const missing = browserMissing(process.env.CI);
if (missing) console.warn(`web shell browser tests skipped: ${missing}`);

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

/** The route's view has drawn (the router is not busy) and has its heading. */
const DRAWN = "!document.querySelector('main')?.hasAttribute('aria-busy') && Boolean(document.querySelector('main h1'))";
const drawn = (page: Page) => expect.poll(() => page.evaluate<boolean>(DRAWN), { timeout: 30_000 }).toBe(true);
const go = (page: Page, hash: string) => page.evaluate(`location.hash = ${JSON.stringify(hash)}`);

describe.skipIf(missing !== null)('the web app shell in Chromium', { timeout: 60_000 }, () => {
  let f: WebFixture;
  let browser: Browser;
  let desk: SignedIn;

  beforeAll(async () => {
    f = await startWebFixture({ files: demoFiles(), script: () => ({ text: 'Fine.' }) });
    browser = await launchChromium();
    desk = await signedInPage(browser, f.web.url, { sidebar: 'trip' });
  }, 90_000);

  afterAll(async () => {
    // set in beforeAll, which may have failed before it got there
    await browser?.close();
    await f?.close();
  });

  it('a slow view that finishes after a newer route never replaces it', async () => {
    const { page } = desk;
    await page.goto(`${f.web.url}/#/inspect/trip/records`);
    await page.locator('.record').first().waitFor();
    // the chat's history is held until the Memory view has been asked for and drawn
    const dropped = Number((await page.locator('main').getAttribute('data-dropped')) ?? 0);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = () => {};
    const chatAsked = new Promise<void>((resolve) => (asked = resolve));
    await page.route('**/api/projects/trip/messages?*', async (route) => {
      asked();
      await held;
      await route.continue();
    });
    try {
      await go(page, '#/chat/trip');
      await chatAsked;
      await go(page, '#/graph/trip');
      await page.locator('main h1', { hasText: 'Graph · trip' }).waitFor();
      await drawn(page);
      release();
      // the chat finished drawing for a route that is gone: it was dropped, the graph stays
      await poll(() => page.locator('main').getAttribute('data-dropped')).toBe(String(dropped + 1));
      expect(await page.locator('main h1').allTextContents()).toEqual(['Graph · trip']);
      expect(await page.locator('#composer').count()).toBe(0);
      expect(await page.locator('main > .view').count()).toBe(1);
    } finally {
      release();
      await page.unroute('**/api/projects/trip/messages?*');
    }
  });

  it('lists every shortcut of the table on ?, and every `g then …` goes where it says', async () => {
    const { page } = desk;
    await page.goto(`${f.web.url}/#/chat/trip`);
    await drawn(page);
    await page.locator('main h1').click(); // focus outside the message box: single keys act
    await page.keyboard.press('?');
    const dialog = page.locator('dialog#shortcuts');
    await dialog.waitFor();
    expect(await dialog.locator('dt').allTextContents()).toEqual(SHORTCUT_LIST.map(([keys]) => keys));
    expect(await dialog.locator('dt').allTextContents()).toEqual(expect.arrayContaining(GO_TO.map((g) => `g then ${g.key}`)));
    await page.keyboard.press('Escape');
    await poll(() => dialog.isVisible()).toBe(false);
    for (const key of GO_TO) {
      await page.locator('main h1').click();
      await page.keyboard.press('g');
      await page.keyboard.press(key.key);
      await poll(() => page.evaluate<string>('location.hash')).toMatch(new RegExp(`^#/${key.view}/trip`));
      await drawn(page);
      expect(await page.locator('#view-tabs a[aria-current="page"]').count(), `the ${key.view} tab is current`).toBe(1);
      expect(await page.locator('#view-tabs a.active').getAttribute('href')).toMatch(new RegExp(`^#/${key.view}/trip`));
    }
  });

  it('a toast goes away with its view', async () => {
    const { page } = desk;
    await page.goto(`${f.web.url}/#/chat/trip`);
    await drawn(page);
    // an image too large to attach: the chat says so in a toast
    await page.locator('#image-file').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(5_000_001) });
    await page.locator('#toast.show').waitFor();
    expect(await page.locator('#toast').textContent()).toMatch(/larger than 5 MB|does not accept images/);
    await go(page, '#/inspect/trip/records');
    await page.locator('main h1', { hasText: 'Memory · trip' }).waitFor();
    await drawn(page);
    expect(await page.locator('#toast').getAttribute('class')).toBe('toast');
    expect(await page.locator('#toast').textContent()).toBe('');
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`on a 390 px phone (${colorScheme}) every view tab is inside the screen, none scrolled away`, async () => {
      const phone = await signedInPage(browser, f.web.url, { viewport: { width: 390, height: 844 }, colorScheme, sidebar: 'trip' });
      try {
        for (const hash of ['#/chat/trip', '#/inspect/trip/records', '#/reminders/trip']) {
          await phone.page.goto(`${f.web.url}/${hash}`);
          await drawn(phone.page);
          const boxes = await phone.page.evaluate<{ tab: string; left: number; right: number; width: number; navLeft: number; navRight: number; screen: number }[]>(`(() => {
            const nav = document.querySelector('#view-tabs').getBoundingClientRect();
            return [...document.querySelectorAll('#view-tabs a')].map((a) => {
              const r = a.getBoundingClientRect();
              return { tab: a.textContent, left: r.left, right: r.right, width: r.width, navLeft: nav.left, navRight: nav.right, screen: document.documentElement.clientWidth };
            });
          })()`);
          expect(boxes.map((b) => b.tab)).toEqual(['Chat', 'Memory', 'Graph', 'Reminders']);
          for (const b of boxes) {
            expect(b.width, `${b.tab} has a box`).toBeGreaterThan(20);
            expect(b.left, `${b.tab} starts on screen (${hash})`).toBeGreaterThanOrEqual(Math.max(0, b.navLeft) - 0.5);
            expect(b.right, `${b.tab} ends on screen (${hash})`).toBeLessThanOrEqual(Math.min(b.screen, b.navRight) + 0.5);
          }
          // nor does the page itself scroll sideways
          expect(await phone.page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth')).toBe(true);
        }
        expect(phone.errors).toEqual([]);
      } finally {
        await phone.context.close();
      }
    });
  }

  it('raised no error in the page', () => {
    expect(desk.errors).toEqual([]);
  });
});
