/**
 * Draws the web app's icons (an SVG: a speech bubble holding a small constellation) and renders
 * them to PNG with the system Chromium through playwright-core. Run once when the design changes:
 *   npx tsx scripts/make-icons.ts     (needs /usr/bin/chromium; writes src/web/client/icons/)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CLIENT_SRC } from '../src/web/client-build.js';

function svg(size: number, maskable: boolean): string {
  const pad = maskable ? size * 0.2 : size * 0.06;
  const s = size - pad * 2;
  const at = (x: number, y: number) => `${(pad + x * s).toFixed(1)},${(pad + y * s).toFixed(1)}`;
  const dots: [number, number, number][] = [
    [0.3, 0.36, 0.055],
    [0.55, 0.28, 0.045],
    [0.7, 0.5, 0.06],
    [0.42, 0.6, 0.05],
  ];
  const lines = [
    [0, 1],
    [1, 2],
    [2, 3],
    [3, 0],
    [0, 2],
  ]
    .map(
      ([a, b]) =>
        `<line x1="${at(dots[a!]![0], dots[a!]![1]).split(',')[0]}" y1="${at(dots[a!]![0], dots[a!]![1]).split(',')[1]}" x2="${at(dots[b!]![0], dots[b!]![1]).split(',')[0]}" y2="${at(dots[b!]![0], dots[b!]![1]).split(',')[1]}" stroke="#a5d8ff" stroke-width="${s * 0.018}"/>`,
    )
    .join('');
  const circles = dots.map(([x, y, r]) => `<circle cx="${at(x, y).split(',')[0]}" cy="${at(x, y).split(',')[1]}" r="${r * s}" fill="#ffffff"/>`).join('');
  const bubble = `<path d="M ${at(0.08, 0.12)} Q ${at(0.08, 0.04)} ${at(0.18, 0.04)} L ${at(0.82, 0.04)} Q ${at(0.92, 0.04)} ${at(0.92, 0.14)} L ${at(0.92, 0.7)} Q ${at(0.92, 0.8)} ${at(0.82, 0.8)} L ${at(0.42, 0.8)} L ${at(0.2, 0.96)} L ${at(0.24, 0.8)} L ${at(0.18, 0.8)} Q ${at(0.08, 0.8)} ${at(0.08, 0.7)} Z" fill="#1d4ed8"/>`;
  const bg = maskable ? `<rect width="${size}" height="${size}" fill="#1d3557"/>` : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">${bg}${bubble}${lines}${circles}</svg>`;
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless', '--disable-gpu'] });
const page = await browser.newPage();
for (const [name, size, maskable] of [
  ['icon-192.png', 192, false],
  ['icon-512.png', 512, false],
  ['maskable-512.png', 512, true],
] as const) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg(size, maskable)}</body></html>`);
  writeFileSync(join(CLIENT_SRC, 'icons', name), await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }));
  console.log(`wrote icons/${name}`);
}
await browser.close();
