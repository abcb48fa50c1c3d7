/**
 * The constellation at a few thousand pages, for `npm run bench:web`: a seeded project of `nodes`
 * entity pages with two to four [[links]] each, then, in Debian's headless Chromium, the time the
 * graph API takes, the time from opening the view to the first drawn frame (fetch, ForceAtlas2
 * layout, WebGL), and frame times while zooming.
 * Headless Chromium renders WebGL in software (SwiftShader): a real GPU draws faster.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM, launchChromium } from '../test/support/browser.js';
import { projectFile, TOKEN, writeProjectFiles, type WebFixture } from '../test/support/web-fixture.js';
import { hubLinks, mulberry32, percentile } from './bench-util.js';

const CATEGORIES = ['People', 'Places', 'Topics', 'Work', 'Trips', 'Health'];

/** `nodes` linked entity pages under projects/<slug>/notes (deterministic). */
export function graphProjectFiles(slug: string, nodes: number): Record<string, string> {
  const rand = mulberry32(7);
  const files: Record<string, string> = { [`${slug}/project.md`]: projectFile(slug, `web:${slug}`) };
  const path = (i: number) => `${CATEGORIES[i % CATEGORIES.length] ?? 'Topics'}/Page-${String(i).padStart(5, '0')}`;
  for (let i = 0; i < nodes; i++) {
    const links = hubLinks(rand, i, nodes);
    const category = CATEGORIES[i % CATEGORIES.length] ?? 'Topics';
    const related = [...links].map((j) => `- [[${path(j)}]] (related)`).join('\n');
    files[`${slug}/notes/${path(i)}.md`] = `---\nschema: 1\ntitle: Page ${i}\ncategory: ${category}\n---\n\nAbout page ${i}.\n\n## Related\n${related}\n`;
  }
  return files;
}

/** `timeoutMs`: how long each wait in the browser may take (bench-web.ts scales it with the machine's load). */
export async function benchGraph(fixture: WebFixture, nodes: number, timeoutMs = 30_000): Promise<void> {
  console.log(`\nThe graph at ${nodes} pages:`);
  if (!existsSync(CHROMIUM)) {
    console.log(`  skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
    return;
  }
  const slug = 'constellation';
  writeProjectFiles(fixture.projectsDir, graphProjectFiles(slug, nodes));
  const apiTimes: number[] = [];
  let edges = 0;
  for (let i = 0; i < 4; i++) {
    const started = performance.now();
    const res = await fetch(`${fixture.web.url}/api/projects/${slug}/graph`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const body = (await res.json()) as { nodes: unknown[]; edges: unknown[] };
    if (i > 0) apiTimes.push(performance.now() - started);
    edges = body.edges.length;
  }
  console.log(`  GET /api/projects/:project/graph:   p50 ${percentile(apiTimes, 50).toFixed(0)} ms (${nodes} nodes, ${edges} links, from the knowledge graph's cached pages)`);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(timeoutMs);
    context.setDefaultNavigationTimeout(timeoutMs);
    const page = await context.newPage();
    await page.goto(`${fixture.web.url}/login?token=${TOKEN}`);
    const opened: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.goto(`${fixture.web.url}/#/chat/${slug}`);
      await page.locator('main h1').waitFor();
      const started = Date.now();
      await page.evaluate(`location.hash = '#/graph/${slug}'`);
      await page.locator('.graph-canvas canvas').first().waitFor();
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
      opened.push(Date.now() - started);
    }
    console.log(`  open the view → first frame:        p50 ${percentile(opened, 50).toFixed(0)} ms (fetch, layout, WebGL), runs: ${opened.join(', ')} ms`);
    const shot = join(tmpdir(), `charlie-graph-${nodes}.png`);
    await page.screenshot({ path: shot });
    console.log(`  how it looks at rest:               ${shot}`);
    const box = await page.locator('.graph-canvas').boundingBox();
    if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.evaluate(`window.__frames = []; (function tick(t) { window.__frames.push(t); if (window.__frames.length < 400) requestAnimationFrame(tick); })(performance.now())`);
    for (let i = 0; i < 30; i++) {
      await page.mouse.wheel(0, i < 15 ? -120 : 120);
      await page.waitForTimeout(40);
    }
    const stamps = await page.evaluate<number[]>('window.__frames');
    const gaps = stamps.slice(1).map((t, i) => t - (stamps[i] ?? t));
    console.log(`  frame time while zooming:           p50 ${percentile(gaps, 50).toFixed(1)} ms · p95 ${percentile(gaps, 95).toFixed(1)} ms (${gaps.length} frames)`);
    await context.close();
  } finally {
    await browser.close();
  }
}
