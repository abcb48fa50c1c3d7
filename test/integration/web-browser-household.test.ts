/**
 * What a household meets in the chat, in a real headless Chromium: a 500-message conversation
 * scrolls back to its first message (older pages load at the top, the view stays put); a reply
 * the model cut, an HTTP 500 with the model's own message and going offline each say what
 * happened in plain words (no server address, no setting name) and recover; on a 390 px phone a
 * wide table scrolls sideways in its own box with no word broken, and a code block's Copy button
 * does not cover the code.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium, signedInPage } from '../support/browser.js';
import { demoFiles, longConversation } from '../support/web-demo-data.js';
import { lastUserText, type ChatBody, type ScriptedReply } from '../support/fake-model-server.js';
import { startWebFixture, type WebFixture } from '../support/web-fixture.js';

const missing = browserMissing(process.env.CI);
if (missing) console.warn(`web household browser tests skipped: ${missing}`);

const poll = <T>(fn: () => T | Promise<T>, options: { timeout?: number; interval?: number } = {}) => expect.poll(fn, { timeout: 15_000, ...options });

const WIDE = [
  'The week:',
  '',
  '| day | breakfast | lunch | dinner | shopping |',
  '| --- | --- | --- | --- | --- |',
  '| Monday | Porridge with blueberries | Tomato soup with bread | Spaghetti bolognese | Oats, tomatoes, minced beef |',
  '| Tuesday | Scrambled eggs on toast | Leftover spaghetti | Vegetable curry with rice | Eggs, chickpeas, coriander |',
  '',
  '```sh',
  'npm run doctor -- --verbose --only models,storage,speech',
  '```',
].join('\n');

/**
 * A reply the fake server cuts in the middle of a table row: its text goes in 4 equal pieces and
 * the connection drops after the 3rd (the last piece written may be lost with it), so the length is
 * chosen for both the 2nd and the 3rd piece to end inside a row below the first one.
 */
function cutInRow(): { text: string; rows: number[] } {
  const rows = ['| Mon | Porridge with berries |', '| Tue | Pancakes with syrup |', '| Wed | Eggs on toast |', '| Thu | Yoghurt and fruit |', '| Fri | Bagels with cheese |'];
  const whole = `Here is the plan:\n\n| day | food |\n| --- | --- |\n${rows.join('\n')}\n\nThat is all.`;
  const firstRowEnd = whole.indexOf(rows[0]!) + rows[0]!.length;
  const line = (text: string, n: number) => text.slice(0, n).split('\n').pop() ?? '';
  const midRow = (text: string, n: number) => n > firstRowEnd && /^\| \w/.test(line(text, n)) && line(text, n).length >= 4 && !line(text, n).endsWith('|') && text[n] !== '\n';
  for (let length = 80; length <= whole.length; length++) {
    const text = whole.slice(0, length);
    const piece = Math.ceil(length / 4);
    // body rows shown whole when the reply is cut after 2 or after 3 pieces
    if (midRow(text, 2 * piece) && midRow(text, 3 * piece))
      return {
        text,
        rows: [2, 3].map(
          (k) =>
            text
              .slice(0, k * piece)
              .split('\n')
              .filter((l) => rows.includes(l)).length,
        ),
      };
  }
  throw new Error('no length cuts both pieces inside a row');
}
const CUT = cutInRow();

/** (page script) The words of a table's cells that lie on more than one line (a word broken in two). */
const BROKEN_WORDS = `((el) => {
  const out = [];
  for (const cell of el.querySelectorAll('td, th')) {
    const node = cell.firstChild;
    if (!node || node.nodeType !== Node.TEXT_NODE) continue;
    for (const m of (node.textContent || '').matchAll(/\\S+/g)) {
      const r = document.createRange();
      r.setStart(node, m.index);
      r.setEnd(node, m.index + m[0].length);
      if (r.getClientRects().length > 1) out.push(m[0]);
    }
  }
  return out;
})([...document.querySelectorAll('.table-wrap')].pop())`;

/** (page script) Whether a code block's Copy button covers any line of its code's text. */
const COPY_OVER_CODE = `((el) => {
  const button = el.querySelector('.code-copy')?.getBoundingClientRect();
  const code = el.querySelector('pre code');
  if (!button || !code) return 'missing';
  const range = document.createRange();
  range.selectNodeContents(code);
  for (const r of range.getClientRects()) {
    if (r.width && r.left < button.right && r.right > button.left && r.top < button.bottom && r.bottom > button.top) return 'overlaps';
  }
  return 'clear';
})([...document.querySelectorAll('.code-block')].pop())`;

describe.skipIf(missing !== null)('the household chat in Chromium', { timeout: 90_000 }, () => {
  let f: WebFixture;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];
  const counts = new Map<string, number>();

  beforeAll(async () => {
    f = await startWebFixture({
      files: { ...demoFiles(), ...longConversation(500) },
      env: { LLM_MAX_RETRIES: '0' },
      script: (body: ChatBody): ScriptedReply => {
        const q = lastUserText(body).replace(/^[^:\n]{1,40}: /, ''); // without the speaker's name
        const n = (key: string) => {
          const seen = counts.get(key) ?? 0;
          counts.set(key, seen + 1);
          return seen;
        };
        if (q.includes('cut table')) return n('cut') === 0 ? { text: CUT.text, dieAfterChunks: 4, chunkDelayMs: 40 } : { text: 'Whole again: Monday porridge, Tuesday pancakes.' };
        if (q.includes('gpu'))
          return n('gpu') === 0 ? { status: 500, errorBody: '{"error":{"message":"CUDA out of memory while loading the model","type":"server_error"}}' } : { text: 'Back with room to think.' };
        if (q.includes('wide table')) return { text: WIDE };
        return { text: `You said: ${q.slice(-30)}` };
      },
    });
    browser = await launchChromium();
    ({ page, errors } = await signedInPage(browser, f.web.url, { sidebar: 'trip' }));
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  const open = async (p: Page, project: string) => {
    await p.goto(`${f.web.url}/#/chat/${project}`);
    await poll(() => p.locator('main h1').textContent()).toBe(project);
  };
  const ask = async (p: Page, project: string, text: string) => {
    await open(p, project);
    await p.locator('button.send').waitFor();
    await p.locator('#composer').fill(text);
    await p.keyboard.press('Enter');
    return p.locator('.msg.assistant').last();
  };
  /** What everyone reads of the last reply's error (the owner's folded Details aside). */
  const words = async (p: Page) => (await p.locator('.msg.assistant').last().locator('.reply-error > p').allTextContents()).join(' ').trim();
  const lastText = async (p: Page) => ((await p.locator('.msg.assistant').last().locator('.bubble-text').textContent()) ?? '').trim();

  it('scrolls a 500-message conversation back to its first message, keeping the view steady', async () => {
    await open(page, 'long');
    const msgs = page.locator('main .messages .msg');
    await poll(() => msgs.count()).toBe(60);
    expect(await msgs.first().textContent()).toContain('Message 441 of 500.');
    expect(await page.locator('.history-edge').textContent()).toBe('Loading older messages…');
    // to the top: the page before is drawn above, and message 441 stays where it was on screen
    const at441 = () => page.locator('.msg', { hasText: 'Message 441 of 500.' }).evaluate((el) => Math.round(el.getBoundingClientRect().top));
    await page.evaluate('window.scrollTo(0, 0)');
    const before = await at441();
    await poll(() => msgs.count()).toBe(120);
    expect(Math.abs((await at441()) - before)).toBeLessThan(60);
    expect(await page.evaluate('window.scrollY')).toBeGreaterThan(500);
    for (let i = 0; i < 20 && (await page.locator('.history-edge').textContent()) !== 'Start of the conversation'; i++) {
      await page.evaluate('window.scrollTo(0, 0)');
      await page.waitForTimeout(150);
    }
    await poll(() => page.locator('.history-edge').textContent()).toBe('Start of the conversation');
    expect(await msgs.count()).toBe(500);
    expect(await msgs.first().textContent()).toContain('Message 1 of 500: where it all began.');
    const texts = await msgs.locator('.bubble-text').allTextContents();
    expect(texts.map((t) => /Message (\d+)/.exec(t)?.[1]).map(Number)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    // every answer offers Regenerate (a new answer is kept beside the old one)
    expect(await page.locator('button.regenerate').count()).toBe(250);
  });

  it('says a cut reply stopped halfway (not "no model server"), leaves no half-drawn table row, and Retry recovers', async () => {
    const live = await ask(page, 'trip', 'the cut table please');
    await live.locator('.reply-error').waitFor();
    const said = await words(page);
    expect(said).toContain('The answer stopped halfway.');
    expect(said).not.toMatch(/model server|LLM_|https?:|\/v1/i);
    const text = (await live.locator('.bubble-text').textContent()) ?? '';
    expect(text).toContain('Porridge with berries');
    expect(text).not.toContain('|');
    // the header and the whole rows, and not the half-drawn one
    expect(CUT.rows.map((n) => n + 1)).toContain(await live.locator('.bubble-text table tr').count());
    await live.locator('button.retry').click();
    await poll(() => lastText(page)).toBe('Whole again: Monday porridge, Tuesday pancakes.');
    expect(await page.locator('.reply-error').count()).toBe(0);
  });

  it("shows an HTTP 500 with the model's own words, and Retry recovers", async () => {
    const live = await ask(page, 'trip', 'use the gpu');
    await live.locator('.reply-error').waitFor();
    const said = await words(page);
    expect(said).toContain('The model reported a problem.');
    expect(said).toContain('“CUDA out of memory while loading the model”');
    expect(said).not.toContain('The reply was cut');
    // the owner also has the technical details, folded away
    expect(await live.locator('.reply-error details summary').textContent()).toBe('Details');
    if (process.env.WEB_SHOTS) {
      mkdirSync(process.env.WEB_SHOTS, { recursive: true });
      await live.locator('.reply-error details summary').click();
      await live.screenshot({ path: `${process.env.WEB_SHOTS}/model-error.png` });
    }
    // after a reload it says the same
    await page.reload();
    await page.locator('.msg.assistant').last().locator('.reply-error').waitFor();
    expect(await words(page)).toContain('“CUDA out of memory while loading the model”');
    await page.locator('.msg.assistant').last().locator('button.retry').click();
    await poll(() => lastText(page)).toBe('Back with room to think.');
  });

  it('says "offline" in plain words with a banner, and sends the message by itself when the network returns', async () => {
    await open(page, 'home');
    await page.locator('button.send').waitFor();
    const banner = page.locator('.offline-banner');
    expect(await banner.isVisible()).toBe(false);
    await page.context().setOffline(true);
    await poll(() => banner.isVisible()).toBe(true);
    expect(await banner.textContent()).toMatch(/^Offline — reconnecting/);
    await page.locator('#composer').fill('sent while offline');
    await page.keyboard.press('Enter');
    const live = page.locator('.msg.assistant').last();
    await live.locator('.reply-error').waitFor();
    const said = await words(page);
    expect(said).toContain('You are offline.');
    expect(said).not.toContain('Failed to fetch');
    await page.context().setOffline(false);
    await poll(() => banner.isVisible()).toBe(false);
    await poll(() => lastText(page)).toBe('You said: sent while offline');
    expect(await page.locator('.reply-error').count()).toBe(0);
    // the server has it once
    const history = (await (await page.request.get(`${f.web.url}/api/projects/home/messages?limit=10`)).json()) as { messages: { text: string }[] };
    expect(history.messages.filter((m) => m.text === 'sent while offline')).toHaveLength(1);
  });

  it('on a 390 px phone, scrolls a wide table sideways with no word broken, and Copy does not cover the code', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    try {
      const p = await phone.newPage();
      await p.goto(`${f.web.url}/login?token=${encodeURIComponent((await import('../support/web-fixture.js')).TOKEN)}`);
      await p.locator('#sidebar a').first().waitFor({ state: 'attached' });
      const live = await ask(p, 'trip', 'a wide table please');
      await live.locator('.code-block pre code .hljs-keyword, .code-block pre code').first().waitFor();
      await live.locator('.reply-actions button.copy').waitFor();
      const wrap = live.locator('.table-wrap');
      const box = await wrap.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(box.scroll).toBeGreaterThan(box.client);
      // the page itself does not scroll sideways
      expect(await p.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1')).toBe(true);
      // no cell breaks a word: each word of a cell lies on one line (one line box per word)
      const broken = await p.evaluate<string[]>(BROKEN_WORDS);
      expect(broken).toEqual([]);
      expect(await wrap.locator('td', { hasText: 'Porridge with blueberries' }).count()).toBe(1);
      // the Copy button's box and the code's text do not overlap
      const overlap = await p.evaluate<string>(COPY_OVER_CODE);
      expect(overlap).toBe('clear');
      if (process.env.WEB_SHOTS) {
        mkdirSync(process.env.WEB_SHOTS, { recursive: true });
        await live.scrollIntoViewIfNeeded();
        await p.screenshot({ path: `${process.env.WEB_SHOTS}/phone-wide-table.png` });
      }
    } finally {
      await phone.close();
    }
    expect(errors).toEqual([]);
  });
});
