/**
 * Settings that change things, and files into memory, in Debian's headless Chromium against a
 * whole Charlie with two scripted model servers and a scripted voice: the owner saves another
 * model server and another voice in Settings, and the NEXT reply comes from that server and is
 * read aloud in that voice — no restart; an unreachable server is refused in plain words. The mic
 * is disabled, with its reason, when no speech-to-text is available. A Markdown file and a
 * calendar dropped on the chat show their progress and what was learnt, and the fact is then
 * found by the Memory view’s search; a read the server no longer knows ends its line instead of
 * staying at "Reading…". axe-core finds nothing serious on the Settings page; a
 * member sees what is in use, read-only, without server addresses.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium, signedInPage } from '../support/browser.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fake-model-server.js';
import { makeNamedVoice, namedServer, NamedVoice, PORTO_PAGE } from '../support/live-settings-fixture.js';
import { projectFile, startWebFixture, type WebFixture } from '../support/web-fixture.js';

const missing = browserMissing(process.env.CI);
if (missing) console.warn(`web live settings browser tests skipped: ${missing}`);

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 });

const ICS = `BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//test//EN
BEGIN:VEVENT
UID:porto-1@example
DTSTAMP:20260601T090000Z
DTSTART:20260514T091000Z
SUMMARY:Porto trip: flight TP1947 to Porto
END:VEVENT
END:VCALENDAR
`;

/** Drops files on an element the way a person's drag from the desktop does (a DataTransfer of Files). */
async function dropFiles(page: Page, selector: string, files: { name: string; text: string; type: string }[]): Promise<void> {
  // a page script (the tests' types have no DOM)
  const transfer = await page.evaluateHandle(`(() => {
    const dt = new DataTransfer();
    for (const f of ${JSON.stringify(files)}) dt.items.add(new File([f.text], f.name, { type: f.type }));
    return dt;
  })()`);
  await page.dispatchEvent(selector, 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer: transfer });
}

describe.skipIf(missing !== null)('live settings and files into memory in Chromium', { timeout: 120_000 }, () => {
  let f: WebFixture;
  let other: FakeModelServer;
  let browser: Browser;

  beforeAll(async () => {
    other = await startFakeModelServer(namedServer('the second server'), { models: [{ id: 'model-b' }] });
    f = await startWebFixture({
      files: { 'home/project.md': projectFile('home', 'web:home'), 'home/notes/Travel/Porto-trip.md': PORTO_PAGE },
      script: namedServer('the first server'),
      speech: { tts: new NamedVoice('first voice'), makeTts: makeNamedVoice },
    });
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await f?.close();
    await other?.close();
  });

  const ask = async (page: Page, text: string) => {
    await page.goto(`${f.web.url}/#/chat/home`);
    await page.locator('button.send').waitFor();
    await page.locator('#composer').fill(text);
    await page.keyboard.press('Enter');
    const reply = page.locator('.msg.assistant').last();
    await poll(async () => reply.locator('button', { hasText: 'Read aloud' }).count()).toBe(1);
    return reply;
  };
  /** What the voice said when the reply's Read aloud was pressed (the scripted voice answers `<voice>: <text>`). */
  const readAloud = async (page: Page, reply: ReturnType<Page['locator']>) => {
    let spoken = '';
    await page.route('**/api/speech', async (route) => {
      const res = await route.fetch();
      spoken = await res.text();
      await route.fulfill({ response: res });
    });
    await reply.locator('button', { hasText: 'Read aloud' }).click();
    await poll(() => spoken).not.toBe('');
    await page.unroute('**/api/speech');
    return spoken;
  };

  it('Settings changes the model server and the voice; the next reply uses both, without a restart', async () => {
    const { context, page, errors } = await signedInPage(browser, f.web.url, { sidebar: 'home', bypassCSP: true });
    try {
      const before = await ask(page, 'Who answers?');
      await poll(async () => (await before.locator('.bubble-text').textContent())?.trim()).toBe('answer from the first server');
      expect(await readAloud(page, before)).toBe('first voice: answer from the first server');

      await page.locator('a.settings-link').click();
      const modelForm = page.locator('#live-model-form');
      await modelForm.waitFor();
      // a server that does not answer: said in plain words, the old one kept
      await page.locator('#live-base-url').fill('http://127.0.0.1:9/v1');
      await page.locator('#live-model').fill('model-b');
      await modelForm.locator('button[type=submit]').click();
      await poll(() => page.locator('#live-model-form-result').textContent()).toBe(
        'Not changed: No model server answered at http://127.0.0.1:9/v1. Is it running, and is the address right? The old setting is kept.',
      );
      await page.locator('#live-base-url').fill(other.url);
      await modelForm.locator('button[type=submit]').click();
      // the page is drawn again with the new model in its table
      await poll(() => page.locator('table.live-now').textContent()).toContain(`model-b, ${other.url}`);
      await page.locator('#live-voice-engine').selectOption('local');
      await page.locator('#live-local-voice').fill('de');
      await page.locator('#live-voice-form button[type=submit]').click();
      await poll(() => page.locator('table.live-now').textContent()).toContain('this machine’s voice (no text leaves it): de');
      await poll(() => page.locator('section.settings-live').textContent()).toContain('kept in data/settings.json, over .env: LLM_BASE_URL, LLM_MODEL, LLM_LOCALITY, TTS, TTS_VOICE, TTS_LOCAL_VOICE');

      const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
      await page.evaluate(axe);
      const violations = await page.evaluate<{ id: string; impact: string | null }[]>('axe.run().then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact })))');
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

      const after = await ask(page, 'And who answers now?');
      await poll(async () => (await after.locator('.bubble-text').textContent())?.trim()).toBe('answer from the second server');
      expect(await readAloud(page, after)).toBe('local de: answer from the second server');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a member sees what is in use, read-only, without server addresses', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto(f.web.loginLinkFor('555', 'Kim'));
      await page.goto(`${f.web.url}/#/settings/home`);
      const live = page.locator('section.settings-live');
      await poll(() => live.locator('h2').textContent()).toBe('Now in use');
      expect(await live.textContent()).toContain('Only its owner can change it.');
      expect(await live.textContent()).not.toContain('127.0.0.1');
      expect(await page.locator('#live-model-form, #live-voice-form').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('the mic is disabled with its reason when there is no speech-to-text', async () => {
    const { context, page } = await signedInPage(browser, f.web.url, { sidebar: 'home' });
    try {
      await page.goto(`${f.web.url}/#/chat/home`);
      const mic = page.getByRole('button', { name: /^Push to talk/ });
      await expect.poll(() => mic.isDisabled()).toBe(true);
      // the owner is told where to look; a member only that it is not set up
      expect(await mic.getAttribute('title')).toBe('Speech-to-text is not set up on this Charlie. See docs/voice.md.');
      expect(await mic.getAttribute('aria-label')).toBe('Push to talk: Speech-to-text is not set up on this Charlie. See docs/voice.md.');
    } finally {
      await context.close();
    }
  });

  it('a .md and an .ics dropped on the chat show progress, say what was learnt, and the fact is then found', async () => {
    const { context, page, errors } = await signedInPage(browser, f.web.url, { sidebar: 'home' });
    try {
      await page.goto(`${f.web.url}/#/chat/home`);
      await page.locator('button.send').waitFor();
      await dropFiles(page, 'ol.messages', [
        { name: 'Porto notes.md', text: 'On the Porto trip we stay at the Casa Azul guesthouse, booked for 14 to 18 May.\n', type: 'text/markdown' },
        { name: 'trip.ics', text: ICS, type: 'text/calendar' },
      ]);
      const lines = page.locator('.msg.intake');
      // while it reads: a bar and the words, for each file
      await lines.first().locator('progress').waitFor();
      expect(await lines.first().locator('.intake-words').textContent()).toMatch(/^(Sending|Reading) Porto notes\.md/);
      await poll(() => lines.count()).toBe(2);
      // progress first (a bar and its words), then what was learnt and where it went
      await poll(() => lines.locator('.intake-words').allTextContents()).toEqual([
        expect.stringMatching(/^Read Porto notes\.md into the memory of home: 1 new item, 1 fact written or refreshed on its pages \(Memory › Pages\)\./) as unknown,
        expect.stringMatching(/^Read trip\.ics into the memory of home: 1 new item, 1 fact/) as unknown,
      ]);
      expect(await lines.locator('progress').count()).toBe(0);
      // a damaged PDF and a kind it does not read: refused in plain words, in the chat
      await dropFiles(page, 'form.composer', [{ name: 'scan.pdf', text: '%PDF-1.7', type: 'application/pdf' }]);
      await poll(() => page.locator('.msg.intake.failed .intake-words').textContent()).toBe('scan.pdf could not be read: it does not look like the kind of file its name says.');
      // a read the server no longer knows (it restarted): the line ends, it does not stay at "Reading…"
      await page.route('**/api/projects/home/files/*', (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"no such file"}' }));
      await dropFiles(page, 'form.composer', [{ name: 'late.md', text: 'A note that arrives late.\n', type: 'text/markdown' }]);
      const late = page.locator('.msg.intake', { hasText: 'late.md' });
      await poll(() => late.locator('.intake-words').textContent()).toBe('Charlie lost track of reading late.md (it may have restarted). If it is not under Memory › Pages, send it again.');
      expect(await late.getAttribute('class')).toContain('failed');
      await page.unroute('**/api/projects/home/files/*');
      // the fact is findable: the Memory view's search finds it on the trip's page
      await page.goto(`${f.web.url}/#/inspect/home/records`);
      const search = page.getByRole('searchbox').first();
      await search.fill('Casa Azul');
      await poll(() => page.locator('main').textContent()).toContain('On the Porto trip we stay at the Casa Azul guesthouse');
      await search.fill('TP1947');
      await poll(() => page.locator('main').textContent()).toContain('flight TP1947 to Porto');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
