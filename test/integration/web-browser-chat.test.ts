/**
 * The chat a person controls, in a real headless Chromium: Stop (button and Esc) cancels the turn
 * on the server, a model that dies mid-reply leaves its streamed words, its error and a Retry that
 * works, Regenerate replaces the last reply (also after a reload), Markdown renders while it
 * streams with highlighted code and Copy buttons, and every turn keeps its tool trace after a reload.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium, signedInPage } from '../support/browser.js';
import { demoFiles } from '../support/web-demo-data.js';
import { lastUserText, type ChatBody } from '../support/fake-model-server.js';
import { startWebFixture, type WebFixture } from '../support/web-fixture.js';

const missing = browserMissing(process.env.CI);
if (missing) console.warn(`web chat browser tests skipped: ${missing}`);

const CRASH = 'The flight leaves at nine and the museum opens at ten, and then we walk along the river to the old tram stop.';
const MARKDOWN = 'Here is **the plan**:\n\n| day | what |\n| --- | --- |\n| Mon | tiles |\n\n```python\ndef hello():\n    return "hi"\n```\n\nDone.';

/** expect.poll with room for a loaded 2-core machine (its default gives up after 1 s). */
const poll = <T>(fn: () => T | Promise<T>, options: { timeout?: number; interval?: number } = {}) => expect.poll(fn, { timeout: 15_000, ...options });

describe.skipIf(missing !== null)('web chat controls in Chromium', { timeout: 60_000 }, () => {
  let f: WebFixture;
  let browser: Browser;
  let page: Page;
  let crashes = 0;
  let regenerations = 0;
  let errors: string[] = [];

  beforeAll(async () => {
    f = await startWebFixture({
      files: demoFiles(),
      script: (body: ChatBody) => {
        const asked = lastUserText(body);
        const afterTool = body.messages[body.messages.length - 1]?.role === 'tool';
        // a reply that never ends by itself: only a Stop ends it
        if (asked.includes('count slowly')) return { endless: 'text', chunkDelayMs: 150 };
        if (asked.includes('crash')) return crashes++ === 0 ? { text: CRASH, chunkDelayMs: 60, dieAfterChunks: 3 } : { text: 'Recovered: the flight leaves at nine.' };
        if (asked.includes('markdown')) return { text: MARKDOWN, chunkDelayMs: 150 };
        if (asked.includes('regenerate')) return { text: `Answer number ${++regenerations}.` };
        if (asked.includes('trace')) return afterTool ? { text: 'Found the trip notes.' } : { toolCalls: [{ name: 'search_memory', arguments: JSON.stringify({ query: 'Lisbon trip' }) }] };
        return { text: 'Fine.' };
      },
    });
    browser = await launchChromium();
    ({ page, errors } = await signedInPage(browser, f.web.url, { permissions: ['clipboard-read', 'clipboard-write'], sidebar: 'trip' }));
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  const ask = async (project: string, text: string) => {
    await page.goto(`${f.web.url}/#/chat/${project}`);
    await poll(() => page.locator('main h1').textContent()).toBe(project);
    await page.locator('button.send').waitFor(); // no turn of an earlier test still running
    await page.locator('#composer').fill(text);
    await page.keyboard.press('Enter');
    return page.locator('.msg.assistant').last();
  };
  const turnDone = async (project: string) => {
    const res = await page.request.get(`${f.web.url}/api/projects/${project}/turn`);
    return ((await res.json()) as { turn: { done: boolean } | null }).turn?.done ?? null;
  };

  const lastReply = () => page.locator('.msg.assistant').last();
  const replyText = async (reply: ReturnType<Page['locator']>) => ((await reply.locator('.bubble-text').textContent()) ?? '').trim();

  /** After a reload the question stands once and the last reply reads `reply`. */
  const reloadShows = async (asked: string, reply: string) => {
    await page.reload();
    await lastReply().waitFor();
    expect(await page.locator('.msg.user', { hasText: asked }).count()).toBe(1);
    expect(await replyText(lastReply())).toBe(reply);
  };

  it('stops a reply with the Stop button: the turn ends on the server, the words so far stay, Send is back', async () => {
    const live = await ask('home', 'count slowly please');
    await poll(async () => (await replyText(live)).startsWith('and on'), { timeout: 15_000 }).toBe(true);
    expect(await page.locator('button.send').isVisible()).toBe(false);
    await page.locator('button.stop').click();
    await live.locator('.notice.stopped').waitFor();
    // the server cancelled the turn: it is done, and nothing more arrives
    await poll(() => turnDone('home'), { timeout: 10_000 }).toBe(true);
    const kept = await replyText(live);
    expect(kept).toMatch(/^and on/);
    await page.waitForTimeout(500);
    expect(await replyText(live)).toBe(kept);
    await page.locator('button.send').waitFor();
    expect(await page.locator('button.stop').isVisible()).toBe(false);
    // the next message goes through
    await page.locator('#composer').fill('and now fine');
    await page.locator('button.send').click();
    await poll(() => replyText(lastReply()), { timeout: 15_000 }).toBe('Fine.');
  });

  it('stops a reply with Esc', async () => {
    const live = await ask('home', 'count slowly again');
    await poll(async () => (await replyText(live)).startsWith('and on'), { timeout: 15_000 }).toBe(true);
    await page.keyboard.press('Escape');
    await live.locator('.notice.stopped').waitFor();
    await poll(() => turnDone('home'), { timeout: 10_000 }).toBe(true);
  });

  it('keeps the words a dying model streamed, says why in its own words, and Retry works (also after a reload)', async () => {
    const live = await ask('trip', 'crash on purpose');
    const error = live.locator('.reply-error');
    await error.waitFor();
    const kept = await replyText(live);
    expect(kept.length).toBeGreaterThan(0);
    expect(CRASH.startsWith(kept)).toBe(true);
    expect(kept).not.toBe(CRASH);
    const words = ((await error.textContent()) ?? '').replace('The reply was cut: ', '').replace(/Retry$/, '');
    expect(words).not.toMatch(/can't reach my model server/);
    expect(words.length).toBeGreaterThan(5);
    // after a reload the cut reply is still there, with its error and Retry
    await page.reload();
    const again = lastReply();
    await again.locator('.reply-error').waitFor();
    expect(await replyText(again)).toBe(kept);
    await again.locator('button.retry').click();
    await poll(() => replyText(lastReply())).toBe('Recovered: the flight leaves at nine.');
    expect(await page.locator('.reply-error').count()).toBe(0);
    await reloadShows('crash on purpose', 'Recovered: the flight leaves at nine.');
  });

  it('regenerates the last reply, and the new one is what a reload shows', async () => {
    const live = await ask('trip', 'regenerate me');
    await poll(() => replyText(live)).toBe('Answer number 1.');
    await page.locator('.msg.assistant').last().locator('button.regenerate').click();
    await poll(() => replyText(lastReply())).toBe('Answer number 2.');
    // the first answer is kept as an alternative: ‹ 2/2 ›
    await poll(() => lastReply().locator('.alt-count').textContent()).toBe('2/2');
    await reloadShows('regenerate me', 'Answer number 2.');
    expect(await page.locator('.msg.assistant', { hasText: 'Answer number 1.' }).count()).toBe(0);
  });

  it('renders Markdown while it streams, highlights code and copies reply and code', async () => {
    const live = await ask('trip', 'markdown please');
    // bold is a <strong> before the reply is complete
    await poll(async () => (await live.locator('.bubble-text strong').count()) > 0 && !((await live.locator('.bubble-text').textContent()) ?? '').includes('Done.'), { interval: 20 }).toBe(true);
    expect(await live.locator('.bubble-text').textContent()).not.toContain('**');
    await live.locator('.bubble-text table').waitFor();
    await live.locator('.bubble-text pre code .hljs-keyword').first().waitFor();
    await live.locator('button.code-copy').click();
    await poll(() => page.evaluate('navigator.clipboard.readText()')).toBe('def hello():\n    return "hi"\n');
    await live.locator('.reply-actions button.copy').click();
    await poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(MARKDOWN);
  });

  it('keeps every turn’s tool trace and suggestions after a reload', async () => {
    const first = await ask('trip', 'trace one');
    await poll(() => replyText(first)).toBe('Found the trip notes.');
    await page.locator('button.send').waitFor(); // the first turn has ended
    await page.locator('#composer').fill('trace two');
    await page.keyboard.press('Enter');
    await poll(() => replyText(lastReply())).toBe('Found the trip notes.');
    await page.locator('button.send').waitFor();
    await page.reload();
    await page.locator('.msg.assistant').last().waitFor();
    const traced = page.locator('.msg.assistant', { has: page.locator('.trace .tool', { hasText: 'search_memory' }) });
    await poll(() => traced.count()).toBe(2);
    expect(await traced.first().locator('.trace .result').textContent()).toMatch(/hits? for "Lisbon trip"/);
    expect(errors).toEqual([]);
  });
});
