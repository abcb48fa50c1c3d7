/**
 * The page manifest (what the index last saw of every page) is not rewritten on every small
 * write: a turn's archive append would cost a write of every page's entry. It is saved at once
 * after a build, at most every 30 s (the index's clock) after small writes, and on close.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports/index.js';
import { HashingEmbedder } from '../../src/memory/index/hashing-embedder.js';
import { MemoryIndex } from '../../src/memory/index/memory-index.js';

let root: string;
let projectsDir: string;
let indexDir: string;
let clock: number;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'charlie-manifest-'));
  projectsDir = join(root, 'projects');
  indexDir = join(root, 'index');
  clock = Date.parse('2026-12-01T10:00:00Z');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(page: string, content: string): void {
  const path = join(projectsDir, 'home', page);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** The pages the manifest on disk names. */
function manifestPages(): string[] {
  const file = readdirSync(indexDir).find((f) => f.endsWith('.pages.json'));
  if (!file) return [];
  return Object.keys((JSON.parse(readFileSync(join(indexDir, file), 'utf8')) as { pages: Record<string, unknown> }).pages).sort();
}

describe('the page manifest', () => {
  it('is saved after the first sync, not after each small write within 30 s, then again once 30 s have passed and on close', async () => {
    const index = new MemoryIndex({ projectsDir, indexDir, embedder: new HashingEmbedder(), logger: silentLogger, racyMs: 0, now: () => clock });
    write('notes/A.md', '# A\n\nAnn likes tea.\n');
    await index.sync('home');
    expect(manifestPages()).toEqual(['notes/A.md']);
    clock += 5_000;
    write('notes/B.md', '# B\n\nBo likes coffee.\n');
    await index.sync('home');
    expect(manifestPages()).toEqual(['notes/A.md']);
    clock += 30_000;
    write('notes/C.md', '# C\n\nCy likes cocoa.\n');
    await index.sync('home');
    expect(manifestPages()).toEqual(['notes/A.md', 'notes/B.md', 'notes/C.md']);
    clock += 1_000;
    write('notes/D.md', '# D\n\nDi likes juice.\n');
    await index.sync('home');
    expect(manifestPages()).not.toContain('notes/D.md');
    await index.close();
    expect(manifestPages()).toEqual(['notes/A.md', 'notes/B.md', 'notes/C.md', 'notes/D.md']);
  });
});
