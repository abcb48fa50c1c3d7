/**
 * What the chat keeps of a message, in a real headless Chromium, before and after a reload: a
 * reply the model cut at its own length limit (its notice, and no half-drawn table row), a reply
 * stopped in the middle of a table row, and the images a person sent (thumbnails served to the
 * signed-in person only, a private conversation's kept outside projects/). Also: a long
 * conversation holds a bounded number of messages in the page, and scrolling up loads older ones;
 * the owner is named, not shown as the computer's login name.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium, signedInPage } from '../support/browser.js';
import { longConversation } from '../support/web-demo-data.js';
import { lastUserText, type ChatBody } from '../support/fake-model-server.js';
import { projectFile, startWebFixture, type WebFixture } from '../support/web-fixture.js';
import { ownerName } from '../../src/app/startup.js';

const missing = browserMissing(process.env.CI);
if (missing) console.warn(`web chat browser tests skipped: ${missing}`);

const poll = <T>(fn: () => T | Promise<T>, options: { timeout?: number; interval?: number } = {}) => expect.poll(fn, { timeout: 15_000, ...options });

/** A 2×2 PNG (orange). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP438AARAwQCgAt7gX9iz9uhAAAAABJRU5ErkJggg==', 'base64');

const TABLE = 'Here is the plan:\n\n| Day | Meal |\n|---|---|\n| Mon | Soup |\n| Tue | Pa';

/** A reply streamed in four equal pieces whose third ends in the middle of a table row ("| Tue | Pa"). */
function stoppableTable(): string {
  let intro = 'Here is the plan';
  let head: string;
  do {
    head = `${intro}:\n\n| Day | Meal |\n|---|---|\n| Mon | Soup |\n| Tue | Pa`;
    intro += '.';
  } while (head.length % 3);
  const size = head.length / 3;
  return head + 'sta |\n\nEnjoy the week'.padEnd(size, '!').slice(0, size);
}

/** An image's own width once it has loaded (0 before, or when it failed). */
const naturalWidth = (img: unknown) => (img as { naturalWidth: number }).naturalWidth;

/** Every file under `dir`, as paths. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe.skipIf(missing !== null)('what the chat keeps, in Chromium', { timeout: 90_000 }, () => {
  let f: WebFixture;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];

  beforeAll(async () => {
    f = await startWebFixture({
      files: { ...longConversation(3000), 'home/project.md': projectFile('home', 'web:home') },
      env: { LLM_ACCEPTS_IMAGES: 'true' },
      script: (body: ChatBody) => {
        const q = lastUserText(body);
        if (q.includes('cutoff')) return { text: TABLE, finishReason: 'length' };
        if (q.includes('slow table')) return { text: stoppableTable(), chunkDelayMs: 2500 };
        return { text: `Seen: ${q.slice(-30)}` };
      },
    });
    browser = await launchChromium();
    ({ page, errors } = await signedInPage(browser, f.web.url, { sidebar: 'home' }));
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  /** The chat of a project, drawn afresh (a page of its own: the last view's composer is not this one's). */
  const open = async (project: string) => {
    await page.goto('about:blank');
    await page.goto(`${f.web.url}/#/chat/${encodeURIComponent(project)}`);
    await page.locator('button.send').waitFor();
  };
  /** A new conversation, drawn (the place's first one may greet too: the address names the new one). */
  const newConversation = async () => {
    const was = page.url();
    await page.locator('main button.new-conversation').click();
    await poll(() => page.url()).not.toBe(was);
    await poll(() => page.locator('main .conversation-title').textContent()).toBe('New conversation');
    await poll(() => page.locator('.messages .greeting').count()).toBe(1);
  };
  const lastReply = () => page.locator('.msg.assistant').last();
  /** The last reply's table rows, as cell texts. */
  const rows = () =>
    lastReply()
      .locator('tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent.trim()).join('|')));

  it('a reply the model cut at its length limit keeps its notice after a reload, and drops the half-drawn table row', async () => {
    await open('home');
    await newConversation();
    await page.locator('#composer').fill('cutoff table please');
    await page.keyboard.press('Enter');
    await lastReply().locator('.reply-actions button').first().waitFor();
    const check = async () => {
      await poll(() => lastReply().locator('.notice.cut').textContent()).toContain('stopped at its own length limit');
      expect(await rows()).toEqual(['Day|Meal', 'Mon|Soup']);
      expect(await lastReply().locator('.bubble-text').textContent()).not.toContain('Pa');
    };
    await check();
    await page.reload();
    await lastReply().locator('.reply-actions button').first().waitFor();
    await check();
  });

  it('a reply stopped in the middle of a table row shows the rows before it, and says Stopped, also after a reload', async () => {
    await open('home');
    await newConversation();
    await page.locator('#composer').fill('a slow table please');
    await page.keyboard.press('Enter');
    await poll(() => lastReply().locator('.bubble-text').textContent()).toContain('Tue');
    await page.locator('button.stop').click();
    await lastReply().locator('.notice.stopped').waitFor();
    expect(await rows()).toEqual(['Day|Meal', 'Mon|Soup']);
    await page.reload();
    await lastReply().locator('.notice.stopped').waitFor();
    expect(await rows()).toEqual(['Day|Meal', 'Mon|Soup']);
  });

  /** Sends a message with the PNG attached; the sent bubble shows it as an image, not as "[1 image]". */
  const sendWithImage = async (text: string) => {
    await page.locator('#image-file').setInputFiles({ name: 'orange.png', mimeType: 'image/png', buffer: PNG });
    await page.locator('.attached img').waitFor();
    await page.locator('#composer').fill(text);
    await page.keyboard.press('Enter');
    await poll(() => lastReply().locator('.bubble-text').textContent()).toContain('Seen:');
    const bubble = page.locator('.msg.user').last();
    expect(await bubble.textContent()).not.toContain('image]');
    await poll(() => bubble.locator('img.thumb').evaluate(naturalWidth)).toBe(2);
    return bubble;
  };

  it('shows the images a person sent in their message, after sending and after a reload, to the signed-in person only', async () => {
    await open('home');
    await newConversation();
    await sendWithImage('what is in this picture');
    await page.reload();
    const bubble = page.locator('.msg.user').last();
    await poll(() => bubble.locator('img.thumb').evaluate(naturalWidth)).toBe(2);
    const src = (await bubble.locator('img.thumb').getAttribute('src')) ?? '';
    expect(src).toMatch(/^\/api\/projects\/home\/images\?/);
    // through the page (its session) the image is there, byte for byte; without a session it is not
    const signedIn = await page.request.get(`${f.web.url}${src}`);
    expect(signedIn.status()).toBe(200);
    expect(Buffer.from(await signedIn.body()).equals(PNG)).toBe(true);
    expect((await fetch(`${f.web.url}${src}`)).status).toBe(401);
  });

  it("keeps a private conversation's images outside projects/", async () => {
    await open('@me');
    await sendWithImage('my private picture');
    await page.reload();
    await poll(() => page.locator('.msg.user').last().locator('img.thumb').evaluate(naturalWidth)).toBe(2);
    const kept = filesUnder(join(f.dataDir, 'web', 'images')).filter((p) => readFileSync(p).equals(PNG));
    expect(kept.length).toBeGreaterThanOrEqual(2); // the project's and the private one
    expect(filesUnder(f.projectsDir).filter((p) => readFileSync(p).includes(PNG))).toEqual([]);
  });

  it('holds a bounded number of messages of a 3,000-message conversation in the page, loads older ones on scrolling up, and brings the newest back', async () => {
    await open('long');
    const newest = page.locator('.msg', { hasText: 'Message 3000 of 3000.' });
    await newest.waitFor();
    const drawn = () => page.locator('.messages > .msg').count();
    const first = await drawn();
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(60);
    await page.mouse.move(700, 400);
    await page.mouse.wheel(0, -20_000);
    await poll(drawn).toBeGreaterThan(first);
    // read far back: 12 pages of 60 are more than the page holds; the newest ones leave it
    const oldest = () => page.locator('.messages > .msg').first().textContent();
    for (let i = 0; i < 12; i++) {
      const was = await oldest();
      await page.evaluate('window.scrollTo(0, 0)');
      await poll(oldest).not.toBe(was);
    }
    expect(await drawn()).toBeLessThanOrEqual(600);
    expect(await newest.count()).toBe(0);
    // what is drawn is the stretch read back to: more than the page holds behind the newest
    expect(Number(/Message (\d+) of 3000/.exec((await oldest()) ?? '')?.[1])).toBeLessThan(3000 - 600);
    // the line at the bottom brings the newest page back
    await page.getByRole('button', { name: 'Show the newest' }).click();
    await newest.waitFor();
    expect(await drawn()).toBeLessThanOrEqual(60);
    expect(await page.getByRole('button', { name: 'Show the newest' }).isVisible()).toBe(false);
    expect(errors).toEqual([]);
  });

  it('names the owner, never a system account such as root', async () => {
    const whoami = (await page.locator('.whoami').textContent()) ?? '';
    expect(whoami).toContain(`Signed in as ${ownerName(undefined)}`);
    expect(whoami).not.toMatch(/\broot\b/);
  });
});
