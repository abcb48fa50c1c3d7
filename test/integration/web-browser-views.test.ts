/**
 * Every view of the app, from the app's own list (src/web/client/views.ts), through axe-core in
 * Debian's headless Chromium at desktop and phone size, light and dark: no serious or critical
 * violation. And the owner's Settings page: Run checks shows each check, a project's style is
 * saved to its project.md, and a too-long style is refused with a clear message.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyScreen } from '../../src/web/client/views.js';
import { browserMissing, launchChromium, signedInPage } from '../support/browser.js';
import { demoFiles, writeWaiting } from '../support/web-demo-data.js';
import { startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';

const missing = browserMissing(process.env.CI);
if (missing) console.warn(`web views browser tests skipped: ${missing}`);

const SCREENS = everyScreen('trip', 'notes/People/Sarah-Chen.md');
const LOOKS = [
  { name: 'desktop light', viewport: { width: 1280, height: 800 }, colorScheme: 'light' },
  { name: 'desktop dark', viewport: { width: 1280, height: 800 }, colorScheme: 'dark' },
  { name: 'phone light', viewport: { width: 390, height: 844 }, colorScheme: 'light' },
  { name: 'phone dark', viewport: { width: 390, height: 844 }, colorScheme: 'dark' },
] as const;

/** The view is drawn: the router is done (main not busy), it has its heading, a graph has laid out. */
const DRAWN = `(() => {
  const main = document.querySelector('main');
  if (!main || main.hasAttribute('aria-busy') || !main.querySelector('h1')) return false;
  const graph = main.querySelector('.graph-canvas');
  return !graph || (!graph.hasAttribute('aria-busy') && Boolean(graph.querySelector('canvas, .empty')));
})()`;

describe.skipIf(missing !== null)('every view in Chromium', { timeout: 300_000 }, () => {
  let f: WebFixture;
  let browser: Browser;
  const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

  beforeAll(async () => {
    f = await startWebFixture({ files: demoFiles(), script: () => ({ text: 'The flight is on **14 March**.' }) });
    writeWaiting(f.dataDir);
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    // set in beforeAll, which may have failed before it got there
    await browser?.close();
    await f?.close();
  });

  it('the list of views names every route and inspector tab', () => {
    expect(SCREENS.map((s) => s.name)).toEqual(
      expect.arrayContaining(['chat', 'inspect/records', 'inspect/review', 'inspect/candidates', 'inspect/pages', 'inspect/recall', 'page', 'graph', 'settings']),
    );
  });

  for (const look of LOOKS) {
    it(`axe-core finds no serious or critical violation on any view (${look.name})`, async () => {
      const { context, page } = await signedInPage(browser, f.web.url, { viewport: look.viewport, colorScheme: look.colorScheme, bypassCSP: true, sidebar: 'trip' });
      try {
        const found: string[] = [];
        for (const screen of SCREENS) {
          await page.goto(`${f.web.url}/${screen.hash}`);
          await page.waitForFunction(DRAWN, undefined, { timeout: 30_000 });
          expect(await page.locator('main .error').count(), `${screen.name} drew an error`).toBe(0);
          await page.evaluate(axe);
          const violations = await page.evaluate<{ id: string; impact: string | null; nodes: string[] }[]>(
            'axe.run().then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) })))',
          );
          for (const v of violations) if (v.impact === 'serious' || v.impact === 'critical') found.push(`${screen.name}: ${v.id} (${v.impact}) at ${v.nodes.join(', ')}`);
        }
        expect(found).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('Settings: Run checks shows each check; a project’s style is saved, a too-long one refused', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    try {
      const page = await context.newPage();
      await page.goto(`${f.web.url}/login?token=${TOKEN}`);
      await page.goto(`${f.web.url}/#/settings`);
      await page.locator('#run-checks').click();
      await page.locator('table.checks tr.check').first().waitFor({ timeout: 60_000 });
      expect(await page.locator('table.checks tr.check').count()).toBeGreaterThan(5);
      expect(await page.locator('.check-summary').textContent()).toMatch(/\d+ work, \d+ degraded, \d+ failing/);
      expect(await page.locator('.settings-checks [role=status]').textContent()).toBe('Done.');
      // the results table passes axe-core too
      await page.evaluate(axe);
      const serious = await page.evaluate<string[]>("axe.run().then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id))");
      expect(serious).toEqual([]);
      const trip = page.locator('form.project-settings[data-project=trip]');
      await trip.locator('input[name=style]').fill('x'.repeat(1001));
      await trip.locator('button', { hasText: 'Save' }).click();
      expect(await trip.locator('.form-result.error').textContent()).toContain('at most 1000 characters');
      await trip.locator('input[name=style]').fill('Short answers, British spelling');
      await trip.locator('select[name=respond]').selectOption('mention');
      await trip.locator('button', { hasText: 'Save' }).click();
      await expect.poll(() => trip.locator('.form-result').textContent()).toContain('Saved');
      const file = readFileSync(join(f.projectsDir, 'trip', 'project.md'), 'utf8');
      expect(file).toContain('Short answers, British spelling');
      expect(file).toMatch(/respond: mention/);
      await page.reload();
      expect(await page.locator('form.project-settings[data-project=trip] input[name=style]').inputValue()).toBe('Short answers, British spelling');
    } finally {
      await context.close();
    }
  });
});
