/**
 * The Memory Inspector's typed records in a real headless Chromium (Debian's, driven by
 * playwright-core): hold a record and see it leave recall, resolve a review pair and see the loser
 * superseded in the Markdown, promote a candidate, forget with a tombstone on disk, and axe-core
 * finding no serious or critical violation on the review and candidates views. Also: the chat
 * follows a streamed reply to the true bottom of the page.
 * In CI the browser must be present (.ci/run installs it); elsewhere the suite is skipped, naming why.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, browserMissing, launchChromium, signedInPage } from '../support/browser.js';
import { ACME, demoFiles, GLOBEX, WAITING, writeWaiting } from '../support/web-demo-data.js';
import { startWebFixture, type WebFixture } from '../support/web-fixture.js';

const missing = browserMissing(process.env.CI);
if (missing) console.warn(`web browser tests skipped: ${missing}`);

const LONG = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a long answer about the trip.`).join('\n\n');

describe.skipIf(missing !== null)('Memory Inspector records in Chromium', { timeout: 60_000 }, () => {
  let f: WebFixture;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];
  const file = (...parts: string[]) => readFileSync(join(f.projectsDir, 'trip', ...parts), 'utf8');

  beforeAll(async () => {
    f = await startWebFixture({ files: demoFiles(), script: () => ({ text: LONG, chunkDelayMs: 10 }) });
    writeWaiting(f.dataDir);
    browser = await launchChromium();
    // warm: the client is built and the first view drawn before the tests time anything
    ({ page, errors } = await signedInPage(browser, f.web.url, { sidebar: 'trip' }));
  }, 90_000);

  afterAll(async () => {
    // set in beforeAll, which may have failed before it got there
    await browser?.close();
    await f?.close();
  });

  const recall = async (q: string) => {
    await page.goto(`${f.web.url}/#/inspect/trip/recall`);
    await page.locator('#recall-query').fill(q);
    await page.keyboard.press('Enter');
    await page.locator('.hits[aria-label]').waitFor();
    return (await page.locator('.hit').allTextContents()).join('\n');
  };

  it('has no serious or critical accessibility violations on the records, review and candidates views', async () => {
    const found = await axeViolations(browser, f.web.url, [
      ['#/inspect/trip/records', '.record .chips'],
      ['#/inspect/trip/review', '.pair'],
      ['#/inspect/trip/candidates', '.candidate'],
      [`#/page/trip/${encodeURIComponent('notes/People/Sarah-Chen.md')}`, '.markdown-body .field'],
    ]);
    expect(found).toEqual([]);
  });

  it('holds a record: it leaves recall, and Release brings it back', async () => {
    expect(await recall('flat options Friday')).toContain('Will send the flat options');
    await page.goto(`${f.web.url}/#/inspect/trip/records`);
    const card = page.locator('.record.kind-fact', { hasText: 'flat options' });
    // dates in the reader's locale (this browser's: en-US or en-GB)
    await card.locator('.chip-field', { hasText: /due (7 Nov 2026|Nov 7, 2026)/ }).waitFor();
    // fields are chips, not raw `[type:: …]` markup
    expect(await card.locator('.record-text').textContent()).toBe('Will send the flat options by Friday.');
    // its history, as /memory why tells it
    await card.locator('.provenance > summary').click();
    await card.locator('ol.chain li').first().waitFor();
    expect(await card.locator('ol.chain').textContent()).toMatch(/4 Nov 2026|Nov 4, 2026/);
    await card.locator('button', { hasText: 'Hold' }).click();
    await page.locator('.record.kind-fact.status-held', { hasText: 'flat options' }).waitFor();
    expect(file('notes', 'People', 'Sarah-Chen.md')).toContain('[status:: held]');
    expect(await recall('flat options Friday')).not.toContain('Will send the flat options');
    await page.goto(`${f.web.url}/#/inspect/trip/records`);
    await page.locator('.record.status-held', { hasText: 'flat options' }).locator('button', { hasText: 'Release' }).click();
    await page.locator('.record.kind-fact.status-active', { hasText: 'flat options' }).waitFor();
    expect(file('notes', 'People', 'Sarah-Chen.md')).not.toContain('[status:: held]');
  });

  it('filters by confidence now (after decay)', async () => {
    await page.goto(`${f.web.url}/#/inspect/trip/records`);
    await page.locator('.record').first().waitFor();
    await page.selectOption('#filter-kind', 'fact');
    const all = await page.locator('.record').count();
    await page.selectOption('#filter-confidence', '0.9');
    // the museum preference (0.85, fading) drops out; manual and undated ones stay
    await expect.poll(() => page.locator('.record').count()).toBeLessThan(all);
    expect(await page.locator('.record', { hasText: 'tiles museum' }).count()).toBe(0);
    // below 0.5 now: the commitment whose due date has passed (expired keeps a tenth)
    await page.selectOption('#filter-confidence', 'low');
    await expect.poll(() => page.locator('.record').count()).toBe(1);
    expect(await page.locator('.record .chips').textContent()).toContain('expired');
  });

  it('resolves a review pair: the loser is superseded in the Markdown on disk', async () => {
    await page.goto(`${f.web.url}/#/inspect/trip/review`);
    const pair = page.locator('.pair', { hasText: 'David Kim' });
    await pair.waitFor();
    expect(await pair.locator('.side').first().textContent()).toContain(ACME);
    await pair.locator('button', { hasText: 'Keep new' }).click();
    await page.locator('.count', { hasText: 'Nothing is in review.' }).waitFor();
    const lines = file('notes', 'People', 'David-Kim.md').split('\n');
    expect(lines.find((l) => l.includes(ACME))).toMatch(/\[status:: superseded\].*\[superseded:: \d{4}-\d{2}-\d{2}\]/);
    expect(lines.find((l) => l.includes(GLOBEX))).not.toContain('[status::');
  });

  it('promotes a candidate into its entity page', async () => {
    await page.goto(`${f.web.url}/#/inspect/trip/candidates`);
    const card = page.locator('.candidate', { hasText: WAITING.fact.text });
    await card.locator('meter').waitFor();
    expect(await card.textContent()).toContain('score 0.48');
    await card.locator('button', { hasText: 'Promote' }).click();
    await page.locator('.count', { hasText: 'Nothing waits for promotion.' }).waitFor();
    expect(file('notes', 'People', 'Sarah-Chen.md')).toContain(WAITING.fact.text);
  });

  it('forgets a typed record: gone from the page, a tombstone on disk', async () => {
    await page.goto(`${f.web.url}/#/inspect/trip/records`);
    const card = page.locator('.record.kind-fact', { hasText: 'flat options' });
    await card.locator('button', { hasText: 'Forget' }).click();
    await card.locator('button', { hasText: 'Really forget?' }).click();
    await expect.poll(() => file('notes', 'People', 'Sarah-Chen.md')).not.toContain('flat options');
    // the tombstone is written right after the page: wait for it too
    await expect
      .poll(() => (existsSync(join(f.projectsDir, 'trip', 'forgotten.md')) ? file('forgotten.md') : ''))
      .toMatch(/· record · record r-88d0 of People\/Sarah-Chen\.md · by \S+ · `fp:[0-9a-f]+`/);
  });

  it('restores a page to a version reflection kept: byte for byte, and the page as it was is kept too', async () => {
    const before = file('notes', 'Places', 'Lisbon.md');
    const old = `${before.trimEnd()}\n\nA line reflection had merged away.\n`;
    const kept = join(f.projectsDir, 'trip', '.history', 'notes', 'Places');
    mkdirSync(kept, { recursive: true });
    writeFileSync(join(kept, 'Lisbon.2026-11-20T10-00-00.000Z.md'), old);
    await page.goto(`${f.web.url}/#/page/trip/${encodeURIComponent('notes/Places/Lisbon.md')}`);
    const version = page.locator('.versions li', { hasText: '2026-11-20 10:00 UTC' });
    await version.locator('button', { hasText: 'Restore' }).click();
    // a second press confirms
    expect(file('notes', 'Places', 'Lisbon.md')).toBe(before);
    await version.locator('button', { hasText: 'Restore this version?' }).click();
    await expect.poll(() => file('notes', 'Places', 'Lisbon.md')).toBe(old);
    await expect.poll(() => page.locator('.versions li').count()).toBe(2);
    const versions = readdirSync(kept).filter((n) => n !== 'Lisbon.2026-11-20T10-00-00.000Z.md');
    expect(versions).toHaveLength(1);
    expect(readFileSync(join(kept, versions[0] ?? ''), 'utf8')).toBe(before);
    expect(await axeViolations(browser, f.web.url, [[`#/page/trip/${encodeURIComponent('notes/Places/Lisbon.md')}`, '.versions .page-version']])).toEqual([]);
  });

  it('follows a streamed reply to the true bottom of the page', async () => {
    await page.goto(`${f.web.url}/#/chat/trip`);
    await page.locator('#composer').fill('tell me everything');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.msg.assistant').last().locator('.bubble-text').textContent(), { timeout: 20_000 }).toContain('Line 40 of');
    await page.locator('#composer:not([disabled])').waitFor();
    const gap = async () => Number(await page.evaluate('(() => { const e = document.scrollingElement; return e.scrollHeight - e.scrollTop - e.clientHeight; })()'));
    await expect.poll(gap).toBeLessThan(2);
    // the newest reply ends above the composer, not under it
    const reply = await page.locator('.msg.assistant').last().boundingBox();
    const composer = await page.locator('form.composer').boundingBox();
    expect((reply?.y ?? 0) + (reply?.height ?? 0)).toBeLessThanOrEqual((composer?.y ?? 0) + 1);
    expect(errors).toEqual([]);
  });

  it('says what to do when there is nothing to show: a new project, and a search that matches nothing', async () => {
    await page.goto(`${f.web.url}/#/inspect/trip/records`);
    await page.locator('#record-search').fill('no record says this');
    await expect.poll(() => page.locator('.inspector-body .count').textContent()).toMatch(/^No record of \d+ matches: clear the search or a filter\.$/);
    await page.locator('#new-project').fill('Empty shelf');
    await page.locator('#new-project').press('Enter');
    await page.waitForURL(/#\/chat\/(?!trip)/);
    const slug = decodeURIComponent(page.url().split('#/chat/')[1] ?? '');
    await page.goto(`${f.web.url}/#/inspect/${encodeURIComponent(slug)}/records`);
    await expect.poll(() => page.locator('.inspector-body .empty').textContent()).toContain('Nothing is remembered here yet');
    await page.locator('.inspector-body a', { hasText: 'Go to the chat' }).click();
    await page.waitForURL(new RegExp(`#/chat/${encodeURIComponent(slug)}$`));
    expect(await axeViolations(browser, f.web.url, [[`#/inspect/${encodeURIComponent(slug)}/records`, '.inspector-body .empty']])).toEqual([]);
    expect(errors).toEqual([]);
  });
});
