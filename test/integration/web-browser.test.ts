/**
 * The web app in a real headless Chromium (Debian's, driven by playwright-core): sign in, a streamed
 * reply with its tool trace from a scripted model, a reply that survives a reload, the inspector's
 * filter / edit / forget changing the Markdown on disk, the graph, an XSS canary that must run
 * nothing, the offline shell, and axe-core finding no serious or critical violation.
 * In CI the browser must be present (.ci/run installs it); elsewhere the suite is skipped, naming why.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, browserMissing, launchChromium } from '../support/browser.js';
import { demoFiles } from '../support/web-demo-data.js';
import { lastUserText, type ChatBody, type ScriptedReply } from '../support/fake-model-server.js';
import { startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';

const missing = browserMissing(process.env.CI);
if (missing) console.warn(`web browser tests skipped: ${missing}`);

const FINAL = 'You decided to fly to Lisbon on 14 March and to book a flat near Alfama.';
const SLOW = 'Slowly: the tiles museum is on Sarah’s list, and the flight is on 14 March, in the morning.';
const XSS_REPLY = 'Careful <img src=x onerror="window.__xss=9"> <script>window.__xss=8</script> done.';

/** The scripted model: a slow reply, the XSS canary, else a memory search and then the answer. */
function answer(body: ChatBody): ScriptedReply {
  const asked = lastUserText(body);
  const afterTool = body.messages[body.messages.length - 1]?.role === 'tool';
  if (asked.includes('slowly')) return { text: SLOW, chunkDelayMs: 700 };
  if (asked.includes('canary')) return { text: XSS_REPLY };
  return afterTool ? { text: FINAL, chunkDelayMs: 300 } : { toolCalls: [{ name: 'search_memory', arguments: JSON.stringify({ query: 'Lisbon trip' }) }] };
}

describe.skipIf(missing !== null)('web app in Chromium', { timeout: 60_000 }, () => {
  let f: WebFixture;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    f = await startWebFixture({ files: demoFiles(), script: answer });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => {
      errors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
  }, 90_000);

  afterAll(async () => {
    // set in beforeAll, which may have failed before it got there
    await browser?.close();
    await f?.close();
  });

  it('asks to sign in without a session, and signs in with the token', async () => {
    await page.goto(`${f.web.url}/`);
    await expect.poll(() => page.locator('main h1').textContent()).toBe('Sign in');
    // the way a person does it: follow the button, type the token, press Sign in
    await page.locator('a', { hasText: 'Sign in with a token' }).click();
    await page.locator('#token').fill('not-the-token');
    await page.locator('button', { hasText: 'Sign in' }).click();
    expect(await page.locator('.login-box .error').textContent()).toContain('not valid');
    await page.locator('#token').fill(TOKEN);
    await page.locator('button', { hasText: 'Sign in' }).click();
    await page.locator('#sidebar a', { hasText: 'trip' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.locator('#sidebar').textContent()).toContain('Private chat');
    expect(await page.locator('#sidebar footer.version').textContent()).toMatch(/^Charlie \d+\.\d+\.\d+/);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'charlie_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('signs out for good: the old cookie is refused by the server', async () => {
    const before = (await context.cookies()).find((c) => c.name === 'charlie_session');
    await page.locator('#sidebar button', { hasText: 'Sign out' }).click();
    await expect.poll(() => page.locator('main h1').textContent()).toBe('Sign in');
    const replay = await page.request.get(`${f.web.url}/api/me`, { headers: { cookie: `charlie_session=${before?.value ?? ''}` } });
    expect(replay.status()).toBe(401);
    await page.goto(`${f.web.url}/login?token=${TOKEN}`);
    await page.locator('#sidebar a', { hasText: 'trip' }).waitFor();
  });

  it('streams a reply with the tool trace, then shows suggested notes', async () => {
    await page.goto(`${f.web.url}/#/chat/trip`);
    await page.locator('#composer').fill('What did we decide about the trip?');
    await page.keyboard.press('Enter');
    const live = page.locator('.msg.assistant').last();
    await live.locator('.trace .tool', { hasText: 'search_memory' }).waitFor();
    expect(await live.locator('.trace .args').textContent()).toContain('Lisbon trip');
    await expect.poll(() => live.locator('.trace .result').textContent()).toMatch(/\d+ hits? for "Lisbon trip"/);
    // the text arrives in pieces: catch it part-way
    await expect
      .poll(
        async () => {
          const t = ((await live.locator('.bubble-text').textContent()) ?? '').trim();
          return t.length > 0 && t.length < FINAL.length && FINAL.startsWith(t);
        },
        { interval: 20 },
      )
      .toBe(true);
    await live.locator('.related .chip').first().waitFor();
    expect((await live.locator('.bubble-text').textContent())?.trim()).toBe(FINAL);
    expect(await live.locator('.trace a').count()).toBeGreaterThan(0);
  });

  it('picks a still-streaming reply up again after a reload', async () => {
    const lastReply = async () => String(await page.evaluate("[...document.querySelectorAll('.msg.assistant .bubble-text')].at(-1)?.textContent?.trim() ?? ''"));
    await page.goto(`${f.web.url}/#/chat/home`);
    await expect.poll(() => page.locator('main h1').textContent()).toBe('home');
    await page.locator('#composer').fill('tell me slowly');
    await page.keyboard.press('Enter');
    // reload once the first words have arrived, well before the end
    await expect
      .poll(
        async () => {
          const t = await lastReply();
          return t.length > 0 && !t.startsWith('thinking') && SLOW.startsWith(t) && t !== SLOW;
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBe(true);
    await page.reload();
    await expect.poll(() => page.locator('.msg.assistant.live').count(), { timeout: 5_000 }).toBe(1);
    await expect.poll(lastReply, { timeout: 20_000 }).toBe(SLOW);
  });

  it('inspector: filters, edits and forgets records, and the Markdown on disk follows', async () => {
    const decisions = join(f.projectsDir, 'trip', 'decisions.md');
    await page.goto(`${f.web.url}/#/inspect/trip/records`);
    await page.locator('.record').first().waitFor();
    await page.selectOption('#filter-kind', 'decision');
    await expect.poll(() => page.locator('.record').count()).toBe(2);
    await page.locator('#record-search').fill('alfama');
    await expect.poll(() => page.locator('.record').count()).toBe(1);
    const record = page.locator('.record').first();
    await record.locator('button', { hasText: 'Edit' }).click();
    await record.locator('textarea.edit-text').fill('Book the flat in Graça');
    await record.locator('button', { hasText: 'Save' }).click();
    await expect.poll(() => readFileSync(decisions, 'utf8')).toContain('Book the flat in Graça');
    expect(readFileSync(decisions, 'utf8')).not.toContain('Alfama');
    await page.locator('.record', { hasText: 'Book the flat in Graça' }).waitFor(); // the list was reloaded
    await page.selectOption('#filter-kind', 'decision');
    await page.locator('#record-search').fill('graça');
    await expect.poll(() => page.locator('.record').count()).toBe(1);
    const edited = page.locator('.record').first();
    await edited.locator('.provenance > summary').click();
    expect(await edited.locator('.provenance').textContent()).toContain('edited by a person');
    await edited.locator('button', { hasText: 'Forget' }).click();
    await edited.locator('button', { hasText: 'Really forget?' }).click();
    await expect.poll(() => readFileSync(decisions, 'utf8')).not.toContain('Graça');
    expect(readFileSync(decisions, 'utf8')).toContain('Fly to Lisbon');
  });

  it('renders a page as Markdown with navigable [[links]]', async () => {
    await page.goto(`${f.web.url}/#/page/trip/${encodeURIComponent('notes/People/Sarah-Chen.md')}`);
    await page.locator('.markdown-body strong', { hasText: 'tiles museum' }).waitFor();
    // [[Places/Lisbon]] reads "Lisbon"
    await page.locator('.markdown-body a.wikilink', { hasText: 'Lisbon' }).click();
    // titled by its title, not its path
    await expect.poll(() => page.locator('main h1').textContent()).toBe('Lisbon');
  });

  it('shows the graph, filterable by category', async () => {
    await page.goto(`${f.web.url}/#/graph/trip`);
    await page.locator('.graph-canvas canvas').first().waitFor();
    expect(await page.locator('.view-head .count').textContent()).toMatch(/5 pages · 6 links/);
    const categories = await Promise.all((await page.locator('.legend input[type=checkbox]').all()).map((e) => e.getAttribute('data-category')));
    expect(categories).toEqual(['People', 'Places', 'Topics', 'missing']);
    await page.locator('#cat-People').uncheck();
    expect(await page.locator('#cat-People').isChecked()).toBe(false);
    expect(errors).toEqual([]);
  });

  it('runs nothing from an XSS canary note or a hostile model reply', async () => {
    await page.goto(`${f.web.url}/login?token=${TOKEN}`);
    await page.goto(`${f.web.url}/#/page/trip/${encodeURIComponent('notes/Topics/Canary.md')}`);
    await page.locator('.markdown-body').waitFor();
    await page.goto(`${f.web.url}/#/inspect/trip/records`);
    await page.locator('.record.kind-note').first().waitFor();
    await page.goto(`${f.web.url}/#/chat/trip`);
    await expect.poll(() => page.locator('main h1').textContent()).toBe('trip');
    await page.locator('#composer').fill('the canary please');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.msg.assistant').last().locator('.bubble-text').textContent()).toContain('done.');
    await page.goto(`${f.web.url}/#/page/trip/${encodeURIComponent('notes/Topics/Canary.md')}`);
    await page.locator('.markdown-body').waitFor();
    for (const link of await page.locator('.markdown-body a').all()) {
      const href = (await link.getAttribute('href')) ?? '';
      expect(href).not.toMatch(/^javascript:/i);
    }
    expect(await page.locator('.markdown-body').textContent()).toContain('<img src=x onerror');
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.locator('main img[onerror], main script').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('installs as a PWA: manifest with icons, and the shell opens offline', async () => {
    const manifest = (await (await page.request.get(`${f.web.url}/manifest.webmanifest`)).json()) as { icons: { sizes: string }[]; display: string };
    expect(manifest.display).toBe('standalone');
    expect(manifest.icons.map((i) => i.sizes)).toContain('512x512');
    expect((await page.request.get(`${f.web.url}/icons/icon-192.png`)).headers()['content-type']).toBe('image/png');
    await page.goto(`${f.web.url}/#/chat/trip`);
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    await page.reload();
    await expect.poll(() => page.evaluate('Boolean(navigator.serviceWorker.controller)')).toBe(true);
    await context.setOffline(true);
    await page.reload();
    expect(await page.locator('.topbar .brand').count()).toBe(1);
    await context.setOffline(false);
  });

  it('opens offline after the very first visit: the shell list holds every chunk the app imports', async () => {
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const p = await fresh.newPage();
      await p.goto(`${f.web.url}/login?token=${TOKEN}`);
      await p.locator('#sidebar a', { hasText: 'trip' }).waitFor();
      // installed means the whole shell list was fetched and cached; no second visit online
      await p.evaluate('navigator.serviceWorker.ready.then(() => true)');
      await fresh.setOffline(true);
      await p.reload();
      // the shell says so in plain words (not "Failed to fetch")
      await expect.poll(() => p.locator('main').textContent()).toContain('You are offline.');
      expect(await p.locator('main .loading').count()).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it('has no serious or critical accessibility violations (axe-core) on the main views', async () => {
    const found = await axeViolations(browser, f.web.url, [
      ['#/chat/trip', '.msg'],
      ['#/inspect/trip/records', '.record'],
      ['#/inspect/trip/recall', '#recall-query'],
      [`#/page/trip/${encodeURIComponent('notes/People/Sarah-Chen.md')}`, '.markdown-body'],
      ['#/graph/trip', '.graph-canvas canvas'],
    ]);
    expect(found).toEqual([]);
  });

  it('follows the system’s dark mode, and the theme toggle overrides it on this device', async () => {
    const dark = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    try {
      const p = await dark.newPage();
      await p.goto(`${f.web.url}/login?token=${TOKEN}`);
      await p.locator('#sidebar a', { hasText: 'trip' }).waitFor();
      // the page's background, as a luminance from 0 (black) to 1 (white)
      const luminance = () =>
        p.evaluate(`(() => { const [r, g, b] = getComputedStyle(document.body.parentElement).backgroundColor.match(/\\d+/g).map(Number); return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255; })()`);
      expect(await luminance()).toBeLessThan(0.2);
      await p.locator('#theme-button').click(); // System → Light
      expect(await p.locator('#theme-button').textContent()).toContain('Light');
      expect(await luminance()).toBeGreaterThan(0.8);
      await p.reload();
      await p.locator('#sidebar a', { hasText: 'trip' }).waitFor();
      expect(await luminance()).toBeGreaterThan(0.8);
      await p.locator('#theme-button').click(); // Light → Dark
      await p.locator('#theme-button').click(); // Dark → System (dark here)
      expect(await p.locator('#theme-button').textContent()).toContain('System');
      expect(await luminance()).toBeLessThan(0.2);
    } finally {
      await dark.close();
    }
  });

  it('on a phone: the hidden side menu is out of the tab order, and the first record shows above the fold', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const p = await phone.newPage();
      await p.goto(`${f.web.url}/login?token=${TOKEN}`);
      await p.goto(`${f.web.url}/#/inspect/trip/records`);
      await p.locator('.record').first().waitFor();
      const focusInSidebar = () => p.evaluate(`Boolean(document.activeElement && document.activeElement.closest('#sidebar'))`);
      for (let i = 0; i < 12; i++) {
        await p.keyboard.press('Tab');
        expect(await focusInSidebar()).toBe(false);
      }
      await p.locator('#menu-button').click();
      await expect.poll(focusInSidebar).toBe(true);
      await p.keyboard.press('Escape');
      expect(await p.locator('#menu-button').getAttribute('aria-expanded')).toBe('false');
      expect(await focusInSidebar()).toBe(false);
      // the whole first record is visible without scrolling past the filters
      const box = await p.locator('.record').first().boundingBox();
      expect(box).not.toBeNull();
      expect((box?.y ?? 999) + (box?.height ?? 999)).toBeLessThan(844);
      expect(await p.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    } finally {
      await phone.close();
    }
  });

  it('has no serious or critical accessibility violations in dark mode and on a phone either', async () => {
    const views = [
      ['#/chat/trip', '.msg'],
      ['#/inspect/trip/records', '.record'],
      ['#/inspect/trip/review', '.view-head'],
      ['#/graph/trip', '.graph-canvas canvas'],
      ['#/settings', 'table.settings'],
    ] as const;
    expect(await axeViolations(browser, f.web.url, views, { colorScheme: 'dark' })).toEqual([]);
    expect(await axeViolations(browser, f.web.url, views, { viewport: { width: 390, height: 844 } })).toEqual([]);
  });

  it('shows memory in human words: sources, titles and dates in the reader’s locale, ids behind Details', async () => {
    const gb = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB', timezoneId: 'UTC' });
    try {
      const p = await gb.newPage();
      await p.goto(`${f.web.url}/login?token=${TOKEN}`);
      await p.goto(`${f.web.url}/#/inspect/trip/records`);
      const card = p.locator('.record.kind-fact', { hasText: 'tiles museum' }).first();
      await card.waitFor();
      expect(await card.locator('.chips').innerText()).toContain('said 3 Nov 2026');
      await card.locator('.provenance > summary').click();
      const why = card.locator('.provenance');
      await expect.poll(() => why.innerText()).toContain('Discord message, 3 Nov 2026');
      expect(await why.innerText()).toContain('kept on the page: Sarah Chen');
      expect(await why.innerText()).not.toMatch(/\^r-|notes\/People|\.md:\d/);
      await why.locator('details.ids > summary').click();
      expect(await why.locator('details.ids').innerText()).toMatch(/notes\/People\/Sarah-Chen\.md:\d+/);
      // a voice message's source is a moment, linked to the conversation
      const voice = p.locator('.record', { hasText: 'flat options' }).first();
      await voice.locator('.provenance > summary').click();
      expect(await voice.locator('.provenance').innerText()).toMatch(/voice message, 4 Dec 2024, 08:13/);
      await p.goto(`${f.web.url}/#/page/trip/${encodeURIComponent('notes/People/Sarah-Chen.md')}`);
      await p.locator('.markdown-body').waitFor();
      expect(await p.locator('main h1').textContent()).toBe('Sarah Chen');
      const body = await p.locator('.markdown-body').innerText();
      expect(body).toContain('Discord message');
      expect(body).not.toMatch(/\[msg\]\(|\^r-/);
    } finally {
      await gb.close();
    }
  });
});
