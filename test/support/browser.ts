/**
 * Debian's Chromium driven by playwright-core (no Playwright browser download, ever). In CI the
 * browser must be there (.ci/run installs it); elsewhere tests that need it are skipped with the
 * reason when /usr/bin/chromium is missing.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
