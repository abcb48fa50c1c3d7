/**
 * A conversation of 10,000 messages in Debian's headless Chromium: the time to open it (the
 * newest page drawn), the page's DOM size, then reading back to its first message by scrolling
 * to the top again and again (an older page loads each time; the page holds at most 600
 * messages), the time per page, the DOM and heap size at the start of the conversation, and the
 * frame times while scrolling there. docs/performance.md keeps the figures.
 *
 *   npm run bench:web-long -- [messages]   (default 10000)
 */
import { existsSync } from 'node:fs';
import { CHROMIUM, launchChromium } from '../test/support/browser.js';
import { longConversation } from '../test/support/web-demo-data.js';
import { startWebFixture, TOKEN } from '../test/support/web-fixture.js';
import { percentile } from './bench-util.js';

/** What the page function reads of the page (this script is compiled without the DOM's types). */
interface PageGlobals {
  document: { querySelector(selector: string): { textContent: string } | null };
}

const count = Number(process.argv[2] ?? 10_000);
if (!existsSync(CHROMIUM)) {
  console.log(`skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
  process.exit(0);
}
const fixture = await startWebFixture({ files: longConversation(count), script: () => ({ text: 'ok' }) });
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(120_000);
  const page = await context.newPage();
  await page.goto(`${fixture.web.url}/login?token=${TOKEN}`);
  await page.locator('#sidebar a').first().waitFor();
  const dom = () =>
    page.evaluate<{ nodes: number; messages: number; heap: number }>(
      `({ nodes: document.getElementsByTagName('*').length, messages: document.querySelectorAll('.messages > .msg').length, heap: Math.round((performance.memory?.usedJSHeapSize ?? 0) / 1048576) })`,
    );
  const opened: number[] = [];
  for (let i = 0; i < 4; i++) {
    await page.goto(`${fixture.web.url}/#/reminders`);
    await page.locator('main h1').first().waitFor();
    const started = Date.now();
    await page.evaluate(`location.hash = '#/chat/long'`);
    await page.locator('.messages > .msg', { hasText: `Message ${count} of ${count}.` }).waitFor();
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    if (i > 0) opened.push(Date.now() - started);
  }
  const first = await dom();
  console.log(`A conversation of ${count} messages in Chromium (headless, software rendering):`);
  console.log(`  open it → newest page drawn:        p50 ${percentile(opened, 50).toFixed(0)} ms, runs: ${opened.join(', ')} ms`);
  console.log(`  then: ${first.messages} messages in the DOM, ${first.nodes} elements, JS heap ${first.heap} MB`);
  // read back to the first message: to the top of the page, again and again; each time the page of 60 before loads
  const top = page.locator('.messages > .msg', { hasText: `Message 1 of ${count}: where it all began.` });
  const pageTimes: number[] = [];
  const started = Date.now();
  let most = first.messages;
  while (!(await top.count()) && Date.now() - started < 600_000) {
    const t = Date.now();
    const was = await page.locator('.messages > .msg').first().textContent();
    await page.evaluate('window.scrollTo(0, 0)');
    await page.waitForFunction((before) => (globalThis as unknown as PageGlobals).document.querySelector('.messages > .msg')?.textContent !== before, was);
    pageTimes.push(Date.now() - t);
    most = Math.max(most, await page.locator('.messages > .msg').count());
    if (pageTimes.length % 40 === 0) console.log(`  … ${pageTimes.length} older pages after ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  const readBack = Date.now() - started;
  const all = await dom();
  console.log(
    `  scroll up to message 1:              ${(readBack / 1000).toFixed(1)} s, ${pageTimes.length} older pages, each p50 ${percentile(pageTimes, 50).toFixed(0)} ms · p95 ${percentile(pageTimes, 95).toFixed(0)} ms (first ${pageTimes.slice(0, 3).join(', ')} ms, last ${pageTimes.slice(-3).join(', ')} ms)`,
  );
  console.log(`  then: ${all.messages} messages in the DOM (at most ${most} on the way), ${all.nodes} elements, JS heap ${all.heap} MB`);
  // frames while scrolling down through what is drawn
  await page.mouse.move(700, 400);
  await page.evaluate(`window.__frames = []; (function tick(t) { window.__frames.push(t); if (!window.__stop) requestAnimationFrame(tick); })(performance.now())`);
  for (let i = 0; i < 60; i++) {
    await page.mouse.wheel(0, 2000);
    await page.waitForTimeout(16);
  }
  await page.evaluate('window.__stop = true');
  const after = await page.evaluate<number[]>('window.__frames');
  const gaps2 = after.slice(1).map((t, i) => t - (after[i] ?? t));
  console.log(`  frame time scrolling down after:    p50 ${percentile(gaps2, 50).toFixed(1)} ms · p95 ${percentile(gaps2, 95).toFixed(1)} ms (${gaps2.length} frames)`);
  await context.close();
} finally {
  await browser.close();
  await fixture.close();
}
