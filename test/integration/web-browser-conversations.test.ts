/**
 * Conversations in a real headless Chromium, as a person uses them: a new conversation greets;
 * two conversations made from the side menu, each titled by its first message, switched between;
 * an older message edited into a new branch, an answer regenerated, and the alternatives flipped
 * with ‹ ›; search across conversations as you type, opening the other conversation at the
 * message; a 500-message conversation scrolled back to its first message.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium, signedInPage } from '../support/browser.js';
import { longConversation } from '../support/web-demo-data.js';
import { lastUserText, type ChatBody } from '../support/fake-model-server.js';
import { projectFile, startWebFixture, type WebFixture } from '../support/web-fixture.js';

const missing = browserMissing(process.env.CI);
if (missing) console.warn(`web conversation browser tests skipped: ${missing}`);

/** Whether an element is inside the browser's window (run in the page). */
const onScreen = (el: { getBoundingClientRect(): { top: number; bottom: number }; ownerDocument: { defaultView: { innerHeight: number } | null } }) => {
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= (el.ownerDocument.defaultView?.innerHeight ?? 0);
};

const poll = <T>(fn: () => T | Promise<T>, options: { timeout?: number; interval?: number } = {}) => expect.poll(fn, { timeout: 15_000, ...options });

describe.skipIf(missing !== null)('conversations in Chromium', { timeout: 90_000 }, () => {
  let f: WebFixture;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];
  let n = 0;

  beforeAll(async () => {
    f = await startWebFixture({
      files: { ...longConversation(500), 'home/project.md': projectFile('home', 'web:home') },
      script: (body: ChatBody) => {
        const q = lastUserText(body).replace(/^[^:\n]{1,40}: /, '');
        const long = q.includes('long answer') ? Array.from({ length: 80 }, (_, k) => `\n\nParagraph ${k + 1} of a long answer.`).join('') : '';
        return { text: `Reply ${++n} to: ${q.slice(-40)}${long}` };
      },
    });
    browser = await launchChromium();
    ({ page, errors } = await signedInPage(browser, f.web.url, { sidebar: 'home' }));
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  const replyText = async (i = -1) => ((await page.locator('.msg.assistant').nth(i).locator('.bubble-text').textContent()) ?? '').trim();
  const userTexts = () => page.locator('.msg.user .bubble-text').allTextContents();
  const say = async (text: string) => {
    const replies = await page.locator('.msg.assistant').count();
    await page.locator('#composer').fill(text);
    await page.keyboard.press('Enter');
    await poll(() => page.locator('.msg.assistant').count()).toBe(replies + 1);
    await poll(() => replyText()).toContain(text.slice(-20));
    await page.locator('button.send').waitFor();
  };
  const menu = (p: Page) => p.locator('#sidebar .conversation-menu a');

  it('greets a new conversation, makes a second one from the side menu, titles both and switches', async () => {
    await page.goto(`${f.web.url}/#/chat/home`);
    await page.locator('.greeting').waitFor();
    expect(await page.locator('.greeting').textContent()).toContain('Edit any of your messages');
    await say('Plan the vegetable garden for spring');
    expect(await page.locator('.greeting').count()).toBe(0);
    await page.locator('#sidebar .new-conversation').click();
    await poll(() => page.evaluate('location.hash')).toMatch(/^#\/chat\/home\/c\/[a-z0-9]+$/);
    await page.locator('.greeting').waitFor();
    await say('Where do we travel in May?');
    await poll(() => menu(page).allTextContents()).toEqual(['Main conversation', 'Where do we travel in May?']);
    expect(await page.locator('.conversation-title').textContent()).toBe('Where do we travel in May?');
    // switch to the first one and back: each shows only its own messages
    await menu(page).first().click();
    await poll(userTexts).toEqual(['Plan the vegetable garden for spring']);
    await menu(page).last().click();
    await poll(userTexts).toEqual(['Where do we travel in May?']);
  });

  it('edits an older message into a new branch, regenerates the answer and flips the alternatives', async () => {
    await say('Book the train');
    await say('And the hotel');
    expect(await userTexts()).toEqual(['Where do we travel in May?', 'Book the train', 'And the hotel']);
    // edit the first (older) message: what followed it is left on the other branch
    const first = page.locator('.msg.user').first();
    await first.locator('button.edit').click();
    const editor = page.locator('textarea.edit-text');
    await editor.waitFor();
    expect(await editor.evaluate(onScreen)).toBe(true);
    await editor.fill('Where do we travel in June?');
    await page.keyboard.press('Enter');
    await poll(() => replyText()).toContain('June?');
    await poll(userTexts).toEqual(['Where do we travel in June?']);
    const count = () => page.locator('.msg.assistant').last().locator('.alt-count').textContent();
    await poll(count).toBe('2/2');
    // the edited message can be edited again at once, without a reload
    expect(await page.locator('.msg.user').first().locator('button.edit').isVisible()).toBe(true);
    // regenerate that answer: a third alternative, the same question
    const before = await replyText();
    await page.locator('.msg.assistant').last().locator('button.regenerate').click();
    await poll(count).toBe('3/3');
    expect(await replyText()).not.toBe(before);
    expect(await userTexts()).toEqual(['Where do we travel in June?']);
    // back to the first alternative: its whole branch is there again
    await page.locator('.msg.assistant').last().getByRole('button', { name: 'Previous alternative' }).click();
    await poll(count).toBe('2/3');
    await page.locator('.msg.assistant').last().getByRole('button', { name: 'Previous alternative' }).click();
    await poll(userTexts).toEqual(['Where do we travel in May?', 'Book the train', 'And the hotel']);
    expect(await page.locator('.msg.assistant').first().locator('.alt-count').textContent()).toBe('1/3');
    // and it is what a reload shows
    await page.reload();
    await poll(userTexts).toEqual(['Where do we travel in May?', 'Book the train', 'And the hotel']);
  });

  it('searches every conversation as you type and opens the other conversation at the message', async () => {
    const search = page.locator('#chat-search');
    await search.click();
    await page.keyboard.type('vegetable', { delay: 30 });
    const hit = page.locator('.chat-hits a.hit');
    await hit.first().waitFor(); // no Enter: the search runs as you type
    // the question and its answer, both in the first conversation
    await poll(() => hit.locator('.hit-conversation').allTextContents()).toEqual(['Main conversation', 'Main conversation']);
    await hit.last().click();
    await poll(() => page.evaluate('location.hash')).toMatch(/^#\/chat\/home\/c\/main\//);
    // the message is shown with the focus ring (the view it left may still be fading out)
    await page.locator('.msg.user.focus', { hasText: 'Plan the vegetable garden' }).waitFor();
    await poll(userTexts).toEqual(['Plan the vegetable garden for spring']);
    await search.fill('hotel');
    await poll(() => page.locator('.chat-hits a.hit .hit-conversation').allTextContents()).toEqual(['Where do we travel in May?', 'Where do we travel in May?']);
  });

  it('keeps the editor of ↑ on screen after a long reply', async () => {
    await page.goto(`${f.web.url}/#/chat/home`);
    await poll(userTexts).toEqual(['Plan the vegetable garden for spring']);
    await say('Give me a long answer');
    await page.locator('#composer').focus();
    await page.keyboard.press('ArrowUp');
    const editor = page.locator('textarea.edit-text');
    await editor.waitFor();
    await poll(() => editor.evaluate(onScreen)).toBe(true);
    await page.keyboard.press('Escape');
    await poll(() => editor.count()).toBe(0);
  });

  it('scrolls a 500-message conversation to its first message, every message drawn once and in order', async () => {
    await page.goto(`${f.web.url}/#/chat/long`);
    const msgs = page.locator('main .messages .msg');
    await poll(() => msgs.count()).toBe(60);
    // scrolled to the top until the start shows: each page is a round trip, slow on a loaded CI machine (30 tries of 150 ms ran out there)
    const until = Date.now() + 60_000;
    while (Date.now() < until && (await page.locator('.history-edge').textContent()) !== 'Start of the conversation') {
      await page.evaluate('window.scrollTo(0, 0)');
      await page.waitForTimeout(150);
    }
    await poll(() => page.locator('.history-edge').textContent()).toBe('Start of the conversation');
    expect(await msgs.count()).toBe(500);
    await page.evaluate('window.scrollTo(0, 0)');
    await poll(() => msgs.first().evaluate(onScreen)).toBe(true);
    expect(await msgs.first().textContent()).toContain('Message 1 of 500: where it all began.');
    const texts = await msgs.locator('.bubble-text').allTextContents();
    expect(texts.map((t) => Number(/Message (\d+)/.exec(t)?.[1]))).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(errors).toEqual([]);
  });
});
