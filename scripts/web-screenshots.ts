/**
 * Screenshots of the web app (sign-in, chat with a code reply and a cut reply, a sent photo and an
 * answer cut at the model's length limit after a reload (`chat-kept-desktop-light`), inspector with its
 * review queue and candidates, graph — also at 24 and 1,000 pages —, reminders, settings) at desktop and phone sizes, light and dark, against a
 * scripted model and demo memory: `npx tsx scripts/web-screenshots.ts [outDir]` (default
 * /tmp/web-shots). Needs /usr/bin/chromium.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/support/browser.js';
import { demoFiles, writeWaiting } from '../test/support/web-demo-data.js';
import { bigWiki, householdWiki } from '../test/support/web-graph-data.js';
import { startWebFixture, TOKEN } from '../test/support/web-fixture.js';

const out = process.argv[2] ?? '/tmp/web-shots';
mkdirSync(out, { recursive: true });
const fixture = await startWebFixture({
  files: { ...demoFiles(), ...householdWiki('household'), ...bigWiki('big', 1000) },
  script: (body: { messages: { role: string; content: unknown }[] }) => {
    const users = body.messages.filter((m) => m.role === 'user');
    const asked = JSON.stringify(users[users.length - 1]?.content ?? '');
    if (asked.includes('script'))
      return {
        text: 'Here is a backup script:\n\n```bash\n# copy the notes\nrsync -a projects/ /mnt/backup/projects/\necho "done: $(date)"\n```\n\n| step | when |\n| --- | --- |\n| backup | nightly |',
      };
    if (asked.includes('meal plan')) return { text: 'Here is the plan:\n\n| Day | Meal |\n|---|---|\n| Mon | Soup |\n| Tue | Pa', finishReason: 'length' };
    if (asked.includes('photo')) return { text: 'An orange sunset over the river, with the old tram stop on the right.' };
    if (asked.includes('crash')) return { text: 'The museum opens at ten and the tram stop is by the river, so we', chunkDelayMs: 30, dieAfterChunks: 3 };
    return body.messages[body.messages.length - 1]?.role === 'tool'
      ? { text: 'You decided to **fly to Lisbon on 14 March** and to book a flat near Alfama. Sarah wants to see the tiles museum.', chunkDelayMs: 20 }
      : { toolCalls: [{ name: 'search_memory', arguments: JSON.stringify({ query: 'Lisbon trip plans' }) }] };
  },
});
writeWaiting(fixture.dataDir);
// one version reflection kept, so the page view shows its Earlier versions
const kept = join(fixture.projectsDir, 'trip', '.history', 'notes', 'People');
mkdirSync(kept, { recursive: true });
writeFileSync(join(kept, 'Sarah-Chen.2026-11-20T10-00-00.000Z.md'), readFileSync(join(fixture.projectsDir, 'trip', 'notes', 'People', 'Sarah-Chen.md')));
/** A 240×150 picture (an orange sunset's colours) as a PNG, made here: nothing is downloaded. */
function sunset(): Buffer {
  const [w, hgt] = [240, 150];
  const rows: Buffer[] = [];
  for (let y = 0; y < hgt; y++) {
    const row = Buffer.alloc(1 + w * 3);
    for (let x = 0; x < w; x++) row.set([255, Math.round(90 + (120 * y) / hgt), Math.round(40 + (60 * x) / w)], 1 + x * 3);
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const size = Buffer.alloc(4);
    size.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([size, body, crc]);
  };
  const head = Buffer.alloc(13);
  head.writeUInt32BE(w, 0);
  head.writeUInt32BE(hgt, 4);
  head.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', head), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

/** A new conversation with a photo sent and an answer the model cut at its length limit, after a reload: what the chat keeps. */
async function keptShot(page: Page, path: string): Promise<void> {
  await page.locator('main button.new-conversation').click();
  await page.locator('.messages .greeting').waitFor();
  await page.locator('#image-file').setInputFiles({ name: 'sunset.png', mimeType: 'image/png', buffer: sunset() });
  await page.locator('.attached img').waitFor();
  for (const q of ['What is in this photo?', 'Make a meal plan for the week']) {
    await page.locator('#composer').fill(q);
    await page.keyboard.press('Enter');
    await page.locator('.msg.assistant:not(.live)').nth(-1).waitFor();
    await page.locator('button.send').waitFor();
  }
  await page.reload();
  await page.locator('.notice.cut').waitFor();
  await page
    .locator('.msg.user img.thumb')
    .first()
    .evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
  await page.screenshot({ path });
  await page.goBack();
  await page.locator('.hljs-comment').first().waitFor();
}

const browser = await launchChromium();
try {
  let asked = false;
  let reminded = false;
  for (const [size, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      const label = `${size}-${scheme}`;
      const context = await browser.newContext({ viewport, deviceScaleFactor: 1, colorScheme: scheme });
      const page = await context.newPage();
      await page.goto(`${fixture.web.url}/`);
      await page.locator('.login-box').waitFor();
      await page.screenshot({ path: join(out, `signin-${label}.png`) });
      await page.goto(`${fixture.web.url}/login`);
      await page.screenshot({ path: join(out, `login-form-${label}.png`) });
      await page.goto(`${fixture.web.url}/login?token=${TOKEN}`);
      await page.goto(`${fixture.web.url}/#/chat/trip`);
      if (!asked) {
        // the conversation is asked once; every later screenshot shows it from history (trace kept)
        asked = true;
        for (const q of ['What did we decide about the trip?', 'Write me a backup script', 'crash now']) {
          await page.locator('button.send').waitFor();
          await page.locator('#composer').fill(q);
          await page.keyboard.press('Enter');
          await page.locator('.msg.assistant:not(.live)').nth(-1).waitFor();
          await page.locator('button.send').waitFor();
        }
        await page.reload();
      }
      await page.locator('.msg.assistant .related').first().waitFor();
      await page.locator('.hljs-comment').first().waitFor();
      await page.screenshot({ path: join(out, `chat-${label}.png`) });
      if (label === 'desktop-light') await keptShot(page, join(out, `chat-kept-${label}.png`));
      await page.locator('.code-block').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(out, `chat-code-${label}.png`) });
      // searching the conversation, and the shortcut list on ?
      await page.locator('#chat-search').fill('trip');
      await page.keyboard.press('Enter');
      await page.locator('.chat-hits a.hit').first().waitFor();
      await page.screenshot({ path: join(out, `chat-search-${label}.png`) });
      await page.keyboard.press('Escape');
      await page.locator('main h1').click();
      await page.keyboard.press('?');
      await page.locator('dialog#shortcuts').waitFor();
      await page.screenshot({ path: join(out, `shortcuts-${label}.png`) });
      await page.keyboard.press('Escape');
      await page.goto(`${fixture.web.url}/#/inspect/trip/records`);
      await page.locator('.record').first().waitFor();
      await page.screenshot({ path: join(out, `inspector-${label}.png`) });
      await page.goto(`${fixture.web.url}/#/inspect/trip/review`);
      await page.locator('.pair').first().waitFor();
      await page.screenshot({ path: join(out, `review-${label}.png`) });
      await page.goto(`${fixture.web.url}/#/inspect/trip/candidates`);
      await page.locator('.candidate').first().waitFor();
      await page.screenshot({ path: join(out, `candidates-${label}.png`) });
      await page.goto(`${fixture.web.url}/#/inspect/trip/records`);
      await page.locator('.record').first().waitFor();
      const more = page.locator('.more-filters:not([open]) summary');
      if (await more.count()) await more.click();
      await page.selectOption('#filter-kind', 'fact');
      await page.locator('.record.kind-fact').first().waitFor();
      // one record's "why": its provenance and its history, as /memory why tells it
      const promise = page.locator('.record.kind-fact', { hasText: 'tiles museum' });
      await promise.locator('.provenance > summary').click();
      await promise.locator('ol.chain li').first().waitFor();
      await page.screenshot({ path: join(out, `facts-${label}.png`) });
      await page.goto(`${fixture.web.url}/#/page/trip/${encodeURIComponent('notes/People/Sarah-Chen.md')}`);
      await page.locator('.markdown-body').waitFor();
      await page.screenshot({ path: join(out, `page-${label}.png`) });
      await page.locator('.versions').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(out, `versions-${label}.png`) });
      await page.goto(`${fixture.web.url}/#/inspect/trip/recall`);
      await page.locator('#recall-query').fill('tiles museum');
      await page.keyboard.press('Enter');
      await page.locator('.hit').first().waitFor();
      await page.screenshot({ path: join(out, `recall-${label}.png`) });
      await page.goto(`${fixture.web.url}/#/graph/trip`);
      await page.locator('.graph-canvas canvas').first().waitFor();
      await page.waitForTimeout(800);
      await page.screenshot({ path: join(out, `graph-${label}.png`) });
      for (const [slug, pages] of [
        ['household', 24],
        ['big', 1000],
      ] as const) {
        await page.goto(`${fixture.web.url}/#/graph/${slug}`);
        await page.locator('.graph-labels .graph-label').first().waitFor({ timeout: 60_000 });
        await page.waitForTimeout(500);
        await page.screenshot({ path: join(out, `graph-${pages}-${label}.png`) });
      }
      await page.goto(`${fixture.web.url}/#/reminders/trip`);
      await page.locator('.reminder-form').waitFor();
      if (!reminded) {
        reminded = true;
        await page.locator('#reminder-when').fill('Friday at 6');
        await page.locator('#reminder-what').fill('book the flat near Alfama');
        await page.locator('.reminder-form button[type=submit]').click();
      }
      await page.locator('.reminder', { hasText: 'book the flat' }).waitFor();
      await page.screenshot({ path: join(out, `reminders-${label}.png`) });
      await page.goto(`${fixture.web.url}/#/settings`);
      await page.locator('table.settings').first().waitFor();
      await page.screenshot({ path: join(out, `settings-${label}.png`) });
      // Run checks (the first click runs the doctor, later ones show its results again) and the projects' styles
      await page.locator('#run-checks').click();
      await page.locator('table.checks tr.check').first().waitFor({ timeout: 60_000 });
      await page.screenshot({ path: join(out, `settings-checks-${label}.png`), fullPage: true });
      if (size === 'phone') {
        await page.locator('#menu-button').click();
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(out, `menu-${label}.png`) });
      }
      await context.close();
    }
  }
  console.log(`screenshots in ${out}`);
} finally {
  await browser.close();
  await fixture.close();
}
