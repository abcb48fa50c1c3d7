/**
 * Debian's Chromium driven by playwright-core (no Playwright browser download, ever). In CI the
 * browser must be there (.ci/run installs it); elsewhere tests that need it are skipped with the
 * reason when /usr/bin/chromium is missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser } from 'playwright-core';
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
