/**
 * Debian's Chromium driven by playwright-core (no Playwright browser download, ever). In CI the
 * browser must be there (.ci/run installs it); elsewhere tests that need it are skipped with the
 * reason when /usr/bin/chromium is missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { TOKEN } from './web-fixture.js';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Why browser tests cannot run here, or null when they can (in CI they always must). */
export function browserMissing(ci: string | undefined): string | null {
  if (existsSync(CHROMIUM)) return null;
  if (ci) return null; // in CI a missing browser is a failure, not a skip
  return `${CHROMIUM} is missing — install it with: apt-get install -y chromium`;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface SignedIn {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors of the page's scripts, as they happen. */
  errors: string[];
}

export interface SignInOptions extends BrowserContextOptions {
  /** A script run in every page before the app's (e.g. a hook on the Notification API). */
  initScript?: string;
  /** Permissions granted to the app's origin (notifications, clipboard-read…). */
  permissions?: string[];
  /** The side menu has a link with this text once signed in (default: any link). */
  sidebar?: string;
}

/**
 * A new context (desktop size unless told) signed in as the owner with the printed link, once
 * the side menu is drawn: the first view is built and shown before a test times anything.
 */
export async function signedInPage(browser: Browser, baseUrl: string, options: SignInOptions = {}): Promise<SignedIn> {
  const { initScript, permissions, sidebar, ...contextOptions } = options;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...contextOptions });
  if (permissions) await context.grantPermissions(permissions, { origin: baseUrl });
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${baseUrl}/login?token=${TOKEN}`);
  await page
    .locator('#sidebar a', sidebar === undefined ? {} : { hasText: sidebar })
    .first()
    .waitFor({ timeout: 60_000 });
  return { context, page, errors };
}

/**
 * Serious and critical axe-core violations on each view (`[hash, selector that shows it is drawn]`),
 * signed in with the owner's token in a context that lets axe's script past the CSP.
 */
export async function axeViolations(
  browser: Browser,
  baseUrl: string,
  views: readonly (readonly [string, string])[],
  options: { colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {},
): Promise<string[]> {
  const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 }, bypassCSP: true, colorScheme: options.colorScheme ?? 'light' });
  try {
    const p = await context.newPage();
    await p.goto(`${baseUrl}/login?token=${TOKEN}`);
    const found: string[] = [];
    for (const [hash, ready] of views) {
      await p.goto(`${baseUrl}/${hash}`);
      await p.locator(ready).first().waitFor();
      await p.evaluate(axe);
      const violations = await p.evaluate<{ id: string; impact: string | null; nodes: number }[]>(
        'axe.run().then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })))',
      );
      for (const v of violations) if (v.impact === 'serious' || v.impact === 'critical') found.push(`${hash}: ${v.id} (${v.impact}, ${v.nodes} nodes)`);
    }
    return found;
  } finally {
    await context.close();
  }
}
