/**
 * The three browser engines the web app is tested in, each a real browser from Debian driven by
 * the automation protocol it speaks natively — no Playwright-patched build is ever downloaded:
 *
 * - Chromium (`chromium`): the Chrome DevTools Protocol, through playwright-core.
 * - Firefox (`firefox-esr`): WebDriver BiDi, through puppeteer-core (it launches the given binary
 *   and never downloads one).
 * - WebKit, Safari's engine (`webkit2gtk-driver`): classic W3C WebDriver, through
 *   selenium-webdriver talking to a WebKitWebDriver we start ourselves (so Selenium Manager never
 *   runs); WebKitGTK's MiniBrowser has no headless mode, so it draws on an Xvfb (`xvfb`) display.
 *
 * Each engine is used through the same small session (go, click, type, read, cookies, screenshot),
 * so that one test body runs unchanged in all three. In CI every engine must be there (.ci/run
 * installs them) and a missing one fails naming its Debian package; elsewhere it is skipped with
 * that reason printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { Builder, By, type WebDriver, type WebElement } from 'selenium-webdriver';
import { CHROMIUM, CHROMIUM_ARGS } from './browser.js';
import { freePort } from './web-fixture.js';

/** A cookie as the browser keeps it (the fields every engine reports). */
export interface SeenCookie {
  name: string;
  value: string;
  path: string;
  httpOnly: boolean;
  secure: boolean;
  sameSite: string;
}

/** One browser, driven the way a person uses it. Selectors are CSS; `text` narrows to an element containing it. */
export interface EngineSession {
  goto(url: string): Promise<void>;
  /** Clicks the first element matching `selector` (and containing `text`), waiting for it to appear. */
  click(selector: string, text?: string): Promise<void>;
  /** Types into the first element matching `selector`, key by key, after emptying it. */
  type(selector: string, text: string): Promise<void>;
  /** The value of a JavaScript expression in the page (plain JSON values only). */
  evaluate(expression: string): Promise<unknown>;
  url(): Promise<string>;
  cookies(): Promise<SeenCookie[]>;
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

export interface Engine {
  name: 'Chromium' | 'Firefox' | 'WebKit';
  /** Files that must exist, and the Debian packages that bring them. */
  needs: readonly { file: string; apt: string }[];
  launch(): Promise<EngineSession>;
}

const FIREFOX = '/usr/bin/firefox-esr';
const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const XVFB = '/usr/bin/Xvfb';
const FIND_TIMEOUT_MS = 15_000;
const VIEWPORT = { width: 1280, height: 800 };

/** Polls `find` until it yields an element (browser automation has no clock to inject). */
async function waitFor<T>(what: string, find: () => Promise<T | undefined>): Promise<T> {
  const until = Date.now() + FIND_TIMEOUT_MS;
  for (;;) {
    const found = await find().catch(() => undefined);
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`no ${what} after ${FIND_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const describeTarget = (selector: string, text?: string) => (text === undefined ? selector : `${selector} containing "${text}"`);

async function launchChromiumEngine(): Promise<EngineSession> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const target = (selector: string, text?: string) => page.locator(selector, text === undefined ? {} : { hasText: text }).first();
  return {
    goto: async (url) => {
      await page.goto(url);
    },
    click: (selector, text) => target(selector, text).click({ timeout: FIND_TIMEOUT_MS }),
    type: async (selector, text) => {
      const field = target(selector);
      await field.fill('', { timeout: FIND_TIMEOUT_MS });
      await field.pressSequentially(text);
    },
    evaluate: (expression) => page.evaluate(expression),
    url: () => Promise.resolve(page.url()),
    cookies: async () => (await context.cookies()).map((c) => ({ name: c.name, value: c.value, path: c.path, httpOnly: c.httpOnly, secure: c.secure, sameSite: c.sameSite })),
    screenshot: async (path) => {
      await page.screenshot({ path });
    },
    close: () => browser.close(),
  };
}

async function launchFirefoxEngine(): Promise<EngineSession> {
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true, defaultViewport: VIEWPORT });
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const find = (selector: string, text?: string) =>
    waitFor(describeTarget(selector, text), async () => {
      for (const el of await page.$$(selector)) {
        if (text === undefined || ((await el.evaluate((e) => e.textContent)) ?? '').includes(text)) return el;
      }
      return undefined;
    });
  return {
    goto: async (url) => {
      await page.goto(url);
    },
    click: async (selector, text) => (await find(selector, text)).click(),
    type: async (selector, text) => {
      const field = await find(selector);
      await field.evaluate((e) => {
        (e as unknown as { value: string }).value = '';
      });
      await field.type(text);
    },
    evaluate: (expression) => page.evaluate(expression),
    url: () => Promise.resolve(page.url()),
    cookies: async () => (await context.cookies()).map((c) => ({ name: c.name, value: c.value, path: c.path, httpOnly: c.httpOnly ?? false, secure: c.secure, sameSite: c.sameSite ?? 'None' })),
    screenshot: async (path) => {
      await page.screenshot({ path });
    },
    close: () => browser.close(),
  };
}

/** Starts `Xvfb` on a free display (it writes the number it took to fd 3). */
async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const x = spawn(XVFB, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  const fd3 = x.stdio[3] as Readable;
  const display = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    x.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    fd3.once('data', (d: Buffer) => resolve(`:${d.toString().trim()}`));
    x.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before taking a display: ${stderr.slice(-500)}`)));
  });
  return { display, process: x };
}

async function launchWebKitEngine(): Promise<EngineSession> {
  const xvfb = await startXvfb();
  const port = await freePort();
  const driverProcess = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=local'], { stdio: 'ignore', env: { ...process.env, DISPLAY: xvfb.display } });
  const stop = () => {
    driverProcess.kill();
    xvfb.process.kill();
  };
  try {
    await waitFor('WebKitWebDriver listening', async () => ((await fetch(`http://127.0.0.1:${port}/status`)).ok ? true : undefined));
    const capabilities = { browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] } };
    const driver: WebDriver = await new Builder().usingServer(`http://127.0.0.1:${port}`).withCapabilities(capabilities).build();
    await driver.manage().window().setRect(VIEWPORT);
    const find = (selector: string, text?: string) =>
      waitFor(describeTarget(selector, text), async (): Promise<WebElement | undefined> => {
        for (const el of await driver.findElements(By.css(selector))) {
          if (text === undefined || String(await driver.executeScript('return arguments[0].textContent', el)).includes(text)) return el;
        }
        return undefined;
      });
    return {
      goto: (url) => driver.get(url),
      click: async (selector, text) => (await find(selector, text)).click(),
      type: async (selector, text) => {
        const field = await find(selector);
        await field.clear();
        await field.sendKeys(text);
      },
      evaluate: (expression) => driver.executeScript(`return (${expression});`),
      url: () => driver.getCurrentUrl(),
      cookies: async () =>
        (await driver.manage().getCookies()).map((c) => ({
          name: c.name,
          value: c.value,
          path: c.path ?? '/',
          httpOnly: c.httpOnly ?? false,
          secure: c.secure ?? false,
          sameSite: c.sameSite ?? 'None',
        })),
      screenshot: async (path) => writeFile(path, Buffer.from(await driver.takeScreenshot(), 'base64')),
      close: async () => {
        try {
          await driver.quit();
        } finally {
          stop();
        }
      },
    };
  } catch (err) {
    stop();
    throw err;
  }
}

/** Every engine, in the order the tests run them. */
export const ENGINES: readonly Engine[] = [
  { name: 'Chromium', needs: [{ file: CHROMIUM, apt: 'chromium' }], launch: launchChromiumEngine },
  { name: 'Firefox', needs: [{ file: FIREFOX, apt: 'firefox-esr' }], launch: launchFirefoxEngine },
  {
    name: 'WebKit',
    needs: [
      { file: WEBKIT_DRIVER, apt: 'webkit2gtk-driver' },
      { file: MINIBROWSER, apt: 'webkit2gtk-driver' },
      { file: XVFB, apt: 'xvfb' },
    ],
    launch: launchWebKitEngine,
  },
];

/** Why `engine` cannot run on this machine (naming the Debian packages to install), or null when it can. */
export function engineMissing(engine: Engine): string | null {
  const absent = engine.needs.filter((n) => !existsSync(n.file));
  if (absent.length === 0) return null;
  return `${engine.name} is missing (${absent.map((n) => n.file).join(', ')}) — install it with: apt-get install -y ${[...new Set(absent.map((n) => n.apt))].join(' ')}`;
}
