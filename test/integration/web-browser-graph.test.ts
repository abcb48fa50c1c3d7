/**
 * The constellation in Debian's headless Chromium: at 24 and at 1,000 pages, desktop and phone,
 * the label boxes the page draws do not intersect; the layout ran in a Web Worker, and the page's
 * own timer kept turning while it did. Skipped, naming why, where /usr/bin/chromium is missing.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium, signedInPage } from '../support/browser.js';
import { bigWiki, householdWiki } from '../support/web-graph-data.js';
import { startWebFixture, type WebFixture } from '../support/web-fixture.js';

const missing = browserMissing(process.env.CI);
if (missing) console.warn(`web graph browser tests skipped: ${missing}`);

interface Box {
  text: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Every drawn label's box on screen, and the canvas's. */
async function labelBoxes(page: Page): Promise<{ labels: Box[]; canvas: Box }> {
  return page.evaluate(`(() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return { text: e.textContent, left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
    return { labels: [...document.querySelectorAll('.graph-labels .graph-label')].map(box), canvas: box(document.querySelector('.graph-canvas')) };
  })()`);
}

function intersections(labels: Box[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < labels.length; i++)
    for (let j = i + 1; j < labels.length; j++) {
      const a = labels[i];
      const b = labels[j];
      if (a && b && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) found.push(`${a.text} × ${b.text}`);
    }
  return found;
}

describe.skipIf(missing !== null)('the graph in Chromium', { timeout: 120_000 }, () => {
  let f: WebFixture;
  let browser: Browser;

  beforeAll(async () => {
    f = await startWebFixture({ files: { ...householdWiki('household'), ...bigWiki('big', 1000) }, script: () => ({ text: 'ok' }) });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    // set in beforeAll, which may have failed before it got there
    await browser?.close();
    await f?.close();
  });

  for (const [size, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    for (const [slug, pages, fewest] of [
      ['household', 24, size === 'desktop' ? 24 : 16],
      ['big', 1000, 16],
    ] as const) {
      it(`${pages} pages on a ${size}: no two labels overlap, and the worker laid it out`, async () => {
        const { context, page, errors } = await signedInPage(browser, f.web.url, { viewport });
        try {
          await page.goto(`${f.web.url}/#/graph/${slug}`);
          await page.locator('.graph-labels .graph-label').first().waitFor({ timeout: 60_000 });
          expect(await page.locator('.view-head .count').textContent()).toContain(`${pages} pages`);
          const canvas = page.locator('.graph-canvas');
          expect(await canvas.getAttribute('data-layout-by')).toBe('worker');
          if (pages >= 1000) {
            // the page's timer kept ticking while the worker computed: the main thread was free
            const layoutMs = Number(await canvas.getAttribute('data-layout-ms'));
            const gapMs = Number(await canvas.getAttribute('data-page-gap-ms'));
            expect(layoutMs).toBeGreaterThan(0);
            expect(gapMs).toBeLessThan(layoutMs);
          }
          const { labels, canvas: frame } = await labelBoxes(page);
          expect(labels.length).toBeGreaterThanOrEqual(fewest);
          expect(intersections(labels)).toEqual([]);
          for (const l of labels) {
            expect(l.left).toBeGreaterThanOrEqual(frame.left);
            expect(l.right).toBeLessThanOrEqual(frame.right);
            expect(l.top).toBeGreaterThanOrEqual(frame.top);
            expect(l.bottom).toBeLessThanOrEqual(frame.bottom);
          }
          // zoomed in, more pages find room, and still none overlaps
          const box = await canvas.boundingBox();
          if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
          for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -240);
          await page.waitForTimeout(600);
          await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
          const zoomed = await labelBoxes(page);
          expect(zoomed.labels.length).toBeGreaterThan(0);
          expect(intersections(zoomed.labels)).toEqual([]);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  }
});
