/**
 * The picture of conversations for the docs, in Chromium: a project with two conversations in the
 * side menu, an answer regenerated (‹ 2/2 ›) and an older message being edited. Needs
 * /usr/bin/chromium: `npx tsx scripts/conversations-screenshot.ts [file]` (default
 * docs/images/conversations.png).
 */
import { launchChromium, signedInPage } from '../test/support/browser.js';
import { projectFile, startWebFixture } from '../test/support/web-fixture.js';

const file = process.argv[2] ?? 'docs/images/conversations.png';
let n = 0;
const f = await startWebFixture({
  files: { 'home/project.md': projectFile('home', 'web:home') },
  script: () => ({ text: ++n === 1 ? 'Lisbon in May: the train takes about eight hours from Madrid; the old town is near the river.' : `Booked, option ${n - 1}: the morning train on the 12th.` }),
});
const browser = await launchChromium();
try {
  const { page } = await signedInPage(browser, f.web.url, { sidebar: 'home' });
  await page.goto(`${f.web.url}/#/chat/home`);
  await page.locator('.greeting').waitFor();
  for (const q of ['Plan the trip to Lisbon in May', 'Book the train']) {
    await page.locator('#composer').fill(q);
    await page.keyboard.press('Enter');
    await page.locator('.msg.assistant:not(.live)').nth(-1).waitFor();
    await page.locator('button.send').waitFor();
  }
  await page.locator('.msg.assistant').last().locator('button.regenerate').click();
  await page.locator('.alt-count').waitFor();
  await page.locator('#sidebar .new-conversation').click();
  await page.locator('.greeting').waitFor();
  await page.locator('#composer').fill('What do we need for the garden this spring?');
  await page.keyboard.press('Enter');
  await page.locator('.msg.assistant:not(.live)').nth(-1).waitFor();
  await page.goto(`${f.web.url}/#/chat/home`);
  await page.locator('.alt-count').waitFor();
  await page.locator('.msg.user').first().locator('button.edit').click();
  await page.screenshot({ path: file });
  console.log(`saved ${file}`);
} finally {
  await browser.close();
  await f.close();
}
