/**
 * Debian's Chromium driven by playwright-core (no Playwright browser download, ever). In CI the
 * browser must be there (.ci/run installs it); elsewhere tests that need it are skipped with the
 * reason when /usr/bin/chromium is missing.
 */
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
