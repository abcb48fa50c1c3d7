/**
 * The rest of a chat a person controls, in a real headless Chromium, driven by keys and buttons:
 * edit and resend the last message (replaced on the server too), search a conversation and jump
 * to an old message, rename and archive a project (hostile names stay names), the shortcut list
 * on `?` (a dialog that keeps focus and closes on Esc), and a notification for a reply finished
 * while the tab was in the background.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium, signedInPage } from '../support/browser.js';
import { demoFiles } from '../support/web-demo-data.js';
import { lastUserText, type ChatBody } from '../support/fake-model-server.js';
import { projectFile, startWebFixture, type WebFixture } from '../support/web-fixture.js';

const missing = browserMissing(process.env.CI);
if (missing) console.warn(`web chat browser tests skipped: ${missing}`);

const poll = <T>(fn: () => T | Promise<T>, options: { timeout?: number; interval?: number } = {}) => expect.poll(fn, { timeout: 15_000, ...options });

/** A garden conversation of 150 messages; the oldest one mentions the quince tree. */
function gardenLog(): string {
  const lines = ['# 2026-10-03', ''];
  for (let i = 0; i < 150; i++) {
    const t = new Date(Date.UTC(2026, 9, 3, 8, 0, i * 10));
    const hms = t.toISOString().slice(11, 19);
    const text = i === 0 ? 'We planted the quince tree by the shed today.' : `Watering note number ${i}.`;
    lines.push(`### ${hms} · Dana · [↗](web:${t.getTime()})`, '', text, '');
  }
  return lines.join('\n');
}

/** A hook on the Notification API (page script): every notification the page makes is recorded in window.__notes. */
const RECORD_NOTIFICATIONS = `(() => {
  const Real = window.Notification;
  const made = [];
  window.__notes = made;
  class Recorded extends Real {
    constructor(title, options) {
      super(title, options);
      made.push({ title, body: (options && options.body) || '' });
    }
  }
  Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
  window.Notification = Recorded;
})();`;

describe.skipIf(missing !== null)('more web chat controls in Chromium', { timeout: 60_000 }, () => {
  let f: WebFixture;
  let browser: Browser;
  let page: Page;
  const asked: string[] = [];
  let errors: string[] = [];

  beforeAll(async () => {
    f = await startWebFixture({
      files: { ...demoFiles(), 'garden/project.md': projectFile('garden', 'web:garden'), 'garden/log/2026-10-03.md': gardenLog() },
      script: (body: ChatBody) => {
        const q = lastUserText(body).replace(/^[^:\n]{1,40}: /, ''); // without the speaker's name
        asked.push(q);
        if (q.includes('slowly')) return { text: 'A slow answer that takes its time to arrive.', chunkDelayMs: 120 };
        return { text: `You said: ${q.slice(-40)}` };
      },
    });
    browser = await launchChromium();
    // a hook on the Notification API: every notification the page makes is recorded
    ({ page, errors } = await signedInPage(browser, f.web.url, { permissions: ['notifications'], initScript: RECORD_NOTIFICATIONS, sidebar: 'trip' }));
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  const open = async (project: string, title = project) => {
    await page.goto(`${f.web.url}/#/chat/${project}`);
    await poll(() => page.locator('main h1').textContent()).toBe(title);
    await page.locator('button.send').waitFor();
  };
  const lastReply = () =>
    page
      .locator('.msg.assistant')
      .last()
      .locator('.bubble-text')
      .textContent()
      .then((t) => t?.trim());
  /** A change sent as the page's own script would (same origin). */
  const send = (method: 'POST' | 'PATCH', path: string, data: unknown) => page.request.fetch(`${f.web.url}${path}`, { method, data, headers: { origin: f.web.url } });
  const shown = async (project: string) => {
    const res = await page.request.get(`${f.web.url}/api/projects/${project}/messages`);
    return ((await res.json()) as { messages: { role: string; text: string }[] }).messages.map((m) => `${m.role}: ${m.text}`);
  };

  it('edits and resends the last message with ↑: it and its reply are replaced, also after a reload and on the server', async () => {
    await open('home');
    await page.locator('#composer').fill('Buy milk on Tuesday');
    await page.keyboard.press('Enter');
    await poll(lastReply).toBe('You said: Buy milk on Tuesday');
    await page.locator('button.send').waitFor();
    // ↑ in the empty message box edits the last message in place
    await page.locator('#composer').focus();
    await page.keyboard.press('ArrowUp');
    const editor = page.locator('.msg.user textarea.edit-text');
    await editor.waitFor();
    expect(await editor.inputValue()).toBe('Buy milk on Tuesday');
    await editor.fill('Buy oat milk on Wednesday');
    await page.keyboard.press('Control+Enter');
    await poll(lastReply).toBe('You said: Buy oat milk on Wednesday');
    expect(await page.locator('.msg.user', { hasText: 'Buy milk on Tuesday' }).count()).toBe(0);
    expect(asked[asked.length - 1]).toContain('Buy oat milk on Wednesday');
    // the server shows the edited conversation: the old question and its reply are gone
    const after = await shown('home');
    expect(after.filter((m) => m.includes('Tuesday'))).toEqual([]);
    expect(after.slice(-2)).toEqual(['user: Buy oat milk on Wednesday', 'assistant: You said: Buy oat milk on Wednesday']);
    await page.reload();
    await poll(lastReply).toBe('You said: Buy oat milk on Wednesday');
    expect(await page.locator('.msg.user', { hasText: 'Tuesday' }).count()).toBe(0);
    // each of your messages has Edit; the last one's works like ↑, and Esc cancels
    expect(await page.locator('.msg.user').last().locator('button.edit').count()).toBe(1);
    await page.locator('.msg.user').last().locator('button.edit').click();
    await editor.waitFor();
    await page.keyboard.press('Escape');
    await poll(() => editor.count()).toBe(0);
    expect(await page.locator('.msg.user').last().locator('.bubble-text').textContent()).toBe('Buy oat milk on Wednesday');
  });

  it('refuses on the server to edit a message that is not in the conversation', async () => {
    const res = await send('POST', '/api/projects/home/messages', { text: 'sneaky', replaces: 'web:1' });
    expect(res.status()).toBe(409);
  });

  it('searches a conversation with /, shows dated hits, and loads an old message to show it', async () => {
    await open('garden');
    // the quince message is older than the 60 shown
    expect(await page.locator('.msg.user', { hasText: 'quince' }).count()).toBe(0);
    await page.locator('main h1').click();
    await page.keyboard.press('/');
    expect(await page.evaluate('document.activeElement?.id')).toBe('chat-search');
    await page.keyboard.type('QUINCE shed');
    await page.keyboard.press('Enter');
    const hit = page.locator('.chat-hits a.hit');
    await hit.first().waitFor();
    expect(await hit.count()).toBe(1);
    const expected = await page.evaluate<string>("new Date(Date.UTC(2026, 9, 3, 8, 0, 0)).toLocaleDateString(undefined, { day: 'numeric', month: 'short' })");
    expect(await hit.locator('time').textContent()).toContain(expected);
    expect(await hit.textContent()).toContain('We planted the quince tree');
    await hit.click();
    const focused = page.locator('.msg.user.focus');
    await focused.waitFor();
    expect(await focused.textContent()).toContain('quince tree');
    // a search that finds nothing says so
    await page.locator('#chat-search').fill('pineapple');
    await page.keyboard.press('Enter');
    await poll(() => page.locator('.chat-hits-status').textContent()).toContain('No message holds');
  });

  it('renames a project (name in project.md, same folder) and archives it, then brings it back', async () => {
    await open('garden');
    const before = readdirSync(f.projectsDir).sort();
    await page.locator('.project-actions button.rename').click();
    await page.locator('#rename-project').fill('Allotment & Garden');
    await page.keyboard.press('Enter');
    await poll(() => page.locator('main h1').textContent()).toBe('Allotment & Garden');
    await poll(() => page.locator('#sidebar a', { hasText: 'Allotment & Garden' }).count()).toBe(1);
    expect(readdirSync(f.projectsDir).sort()).toEqual(before);
    const md = readFileSync(join(f.projectsDir, 'garden', 'project.md'), 'utf8');
    expect(md).toMatch(/^name: .*Allotment & Garden/m);
    expect(md).toContain('web:garden'); // the key (channel mapping) is kept
    // its memory is still there
    expect((await shown('garden')).some((m) => m.includes('Watering note number 149'))).toBe(true);
    // archive: out of the list, under Archived, undone with Unarchive
    await page.locator('.project-actions button.archive').click();
    await poll(() => page.locator('#sidebar nav > ul a', { hasText: 'Allotment' }).count()).toBe(0);
    expect(readFileSync(join(f.projectsDir, 'garden', 'project.md'), 'utf8')).toMatch(/^archived: true$/m);
    await page.locator('#sidebar details.archived-projects summary').click();
    await page.locator('#sidebar details.archived-projects button.unarchive').click();
    await poll(() => page.locator('#sidebar nav > ul a', { hasText: 'Allotment' }).count()).toBe(1);
    expect(readFileSync(join(f.projectsDir, 'garden', 'project.md'), 'utf8')).toMatch(/^archived: false$/m);
  });

  it('keeps hostile names as names: nothing leaves projects/, project.md still parses', async () => {
    const before = readdirSync(f.projectsDir).sort();
    const hostile = ['../../etc/passwd', 'a/b\\c', 'line\n---\nschema: 2\nid: x', "'; rm -rf / #", `x${'y'.repeat(100)}`, '\u0000\u0007'];
    const outcomes: [number, string][] = [];
    for (const name of hostile) {
      const res = await send('PATCH', '/api/projects/trip', { name });
      const body = (await res.json()) as { name?: string };
      outcomes.push([res.status(), body.name ?? '']);
    }
    expect(outcomes.map(([s]) => s)).toEqual([200, 200, 200, 200, 400, 400]);
    expect(outcomes[0]?.[1]).toBe('../../etc/passwd');
    expect(outcomes[2]?.[1]).toBe('line --- schema: 2 id: x');
    expect(readdirSync(f.projectsDir).sort()).toEqual(before);
    expect(readdirSync(join(f.projectsDir, '..')).sort()).toEqual(['data', 'projects']);
    const list = (await (await page.request.get(`${f.web.url}/api/projects`)).json()) as { projects: { project: string; name: string }[] };
    expect(list.projects.find((p) => p.project === 'trip')?.name).toBe("'; rm -rf / #");
    // a hostile project address is no project
    for (const bad of ['..%2F..%2Fetc', '%2e%2e', 'trip%00']) expect((await send('PATCH', `/api/projects/${bad}`, { name: 'x' })).status()).toBe(404);
    // the private conversation has no name to change
    expect((await send('PATCH', '/api/projects/@me', { archived: true })).status()).toBe(400);
    await send('PATCH', '/api/projects/trip', { name: 'trip' });
  });

  it('lists the shortcuts on ? in a dialog that keeps focus and closes on Esc; g m goes to Memory', async () => {
    await open('trip');
    await page.locator('main h1').click();
    await page.keyboard.press('?');
    const dialog = page.locator('dialog#shortcuts');
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-labelledby')).toBe('shortcuts-title');
    expect(await dialog.textContent()).toContain('Edit your last message');
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate("Boolean(document.activeElement?.closest('dialog#shortcuts'))")).toBe(true);
    }
    await page.keyboard.press('Escape');
    await poll(() => dialog.isVisible()).toBe(false);
    await page.keyboard.press('g');
    await page.keyboard.press('m');
    await poll(() => page.evaluate('location.hash')).toBe('#/inspect/trip/records');
    await page.keyboard.press('g');
    await page.keyboard.press('c');
    await poll(() => page.evaluate('location.hash')).toBe('#/chat/trip');
  });

  it('tells a record’s history as a timeline, oldest first, with moments in the reader’s locale', async () => {
    await page.goto(`${f.web.url}/#/inspect/trip/records`);
    // a fresh page: the previous test's last move (g c) may still be drawing the chat, and a view
    // that finishes drawing late replaces the one asked for after it (the router has no guard yet)
    await page.reload();
    // a person edits the record: its history gains a step after the one that said it
    await page.locator('.record.kind-fact', { hasText: 'flat options' }).waitFor();
    await page.locator('.record.kind-fact', { hasText: 'flat options' }).locator('button', { hasText: 'Edit' }).click();
    const editor = page.locator('.record.kind-fact .editor');
    await editor.locator('textarea.edit-text').fill('Will send the flat options by Saturday.');
    await editor.locator('button', { hasText: 'Save' }).click();
    await page.locator('.record.kind-fact', { hasText: 'by Saturday' }).waitFor();
    const edited = page.locator('.record.kind-fact', { hasText: 'by Saturday' });
    await edited.locator('.provenance > summary').click();
    const steps = edited.locator('ol.chain.timeline > li');
    await poll(() => steps.count()).toBeGreaterThanOrEqual(2);
    const times = await steps.locator('time').evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime') ?? ''));
    expect([...times].sort()).toEqual(times);
    const said = steps.first();
    expect(await said.locator('.step').textContent()).toBe('Said');
    expect(await said.locator('time').textContent()).toMatch(/4 Nov 2026|Nov 4, 2026/);
    // the voice message it came from, in words, opening the conversation
    expect(await said.locator('.from a').textContent()).toMatch(/^voice message, /);
    expect(await steps.last().locator('.step').textContent()).toBe('Edited');
    // no storage syntax: no ISO times, record ids or archive file names
    expect(await edited.locator('ol.chain').textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}|\br-[0-9a-f]{4}|log\//);
  });

  it('notifies when a reply finishes while the tab is in the background', async () => {
    await open('trip');
    expect(await page.evaluate('Notification.permission')).toBe('granted');
    await page.locator('#composer').fill('answer slowly please');
    await page.keyboard.press('Enter');
    await page.locator('.msg.assistant.live').waitFor();
    // the person switches to another tab
    await page.evaluate("Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' }); document.dispatchEvent(new Event('visibilitychange'))");
    await poll(() => page.evaluate('window.__notes')).toEqual([{ title: 'Charlie replied in trip', body: 'A slow answer that takes its time to arrive.' }]);
    // in the foreground, no notification
    await page.evaluate("void Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' })");
    await page.locator('button.send').waitFor();
    await page.locator('#composer').fill('and a quick one');
    await page.keyboard.press('Enter');
    await poll(lastReply).toBe('You said: and a quick one');
    expect(await page.evaluate('window.__notes.length')).toBe(1);
    expect(errors).toEqual([]);
  });
});
