/**
 * The picture of "Ask in the moment" for the docs: Ann's turn in the web app, paused on the
 * consent dialog (a hosted chat model, CONSENT_MODE=ask, her health record), in Chromium:
 * `npx tsx scripts/consent-screenshot.ts [file]` (default docs/images/consent-dialog.png).
 * Needs /usr/bin/chromium. Shrink it afterwards if it grew past 150 KB (`convert -resize`).
 */
import { launchChromium } from '../test/support/browser.js';
import { startConsentWeb } from '../test/support/consent-web.js';

const file = process.argv[2] ?? 'docs/images/consent-dialog.png';
// named as a hosted model usually is (the fake server answers to any name)
const fixture = await startConsentWeb(60_000, { LLM_MODEL: 'gpt-4o' });
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 900, height: 640 }, deviceScaleFactor: 2, colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(fixture.web.loginLinkFor('ann-1', 'Ann'));
  await page.locator('#sidebar a', { hasText: 'general' }).first().waitFor({ timeout: 60_000 });
  await page.goto(`${fixture.web.url}/#/chat/general`);
  await page.locator('button.send').waitFor();
  await page.locator('#composer').fill('What do you remember about my medication?');
  await page.keyboard.press('Enter');
  await page.getByRole('dialog').waitFor();
  // the countdown has ticked once, as a person sees it
  await page.waitForTimeout(2200);
  // the question and the paused reply under it
  const asked = await page.locator('.msg.user').last().boundingBox();
  const reply = await page.locator('.msg.assistant').last().boundingBox();
  if (!asked || !reply) throw new Error('the chat is not drawn');
  const x = Math.min(asked.x, reply.x);
  const clip = { x, y: asked.y, width: Math.max(asked.x + asked.width, reply.x + reply.width) - x, height: reply.y + reply.height - asked.y };
  await page.screenshot({ path: file, clip });
  console.log(`wrote ${file}`);
} finally {
  await browser.close();
  await fixture.close();
}
