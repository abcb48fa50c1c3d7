/**
 * The camping-trip project the egress tests seed: one marked (`marker`, e.g. `[sensitivity:: personal]`)
 * item in each of its layers — a decision, a quote, the summary and an archived message — beside
 * unmarked ones, so a test can tell what leaked from what was allowed out.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes a note page under `<root>/notes/`, making its folder. */
export function writeNote(root: string, path: string, text: string): void {
  mkdirSync(join(root, 'notes', path, '..'), { recursive: true });
  writeFileSync(join(root, 'notes', path), text);
}

export interface MarkedLayers {
  decision: string;
  quote: string;
  summary: string;
  /** The archived message; `logTail` is appended to that day's log after it. */
  log: string;
  logTail?: string;
}

/** Writes decisions.md, quotes.md, the summary in project.md (which must exist) and log/2026-11-20.md of the project at `root`. */
export function writeMarkedLayers(root: string, marker: string, items: MarkedLayers): void {
  writeFileSync(join(root, 'decisions.md'), `# Decisions\n\n- **2026-11-20** — Use the blue tent ([source](terminal:1))\n- **2026-11-21** — ${items.decision} ${marker} ([source](terminal:2))\n`);
  writeFileSync(join(root, 'quotes.md'), `# Quotes\n\n> "${items.quote} ${marker}"\n> — Alice, 2026-11-21 ([source](terminal:3))\n`);
  const projectMd = readFileSync(join(root, 'project.md'), 'utf8');
  writeFileSync(join(root, 'project.md'), `${projectMd.trimEnd()}\n\nWe plan a camping trip.\n\n${items.summary} ${marker}\n`);
  mkdirSync(join(root, 'log'), { recursive: true });
  writeFileSync(
    join(root, 'log', '2026-11-20.md'),
    `# 2026-11-20\n\n### 10:00:00 · Alice · [↗](terminal:10)\n\nWe should buy a tent.\n\n### 10:01:00 · Alice · [↗](terminal:11)\n\n${items.log} ${marker}\n${items.logTail ?? ''}`,
  );
}
