/**
 * The page manifest (what the index last saw of every page) is not rewritten on every small
 * write: a turn's archive append would cost a write of every page's entry. It is saved at once
 * after a build, at most every 30 s (the index's clock) after small writes, and on close.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports/index.js';
import { HashingEmbedder } from '../../src/memory/index/hashing-embedder.js';
import { MemoryIndex } from '../../src/memory/index/memory-index.js';
import { loadManifest } from '../../src/memory/index/page-manifest.js';

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

const manifestFile = () => readdirSync(indexDir).find((f) => f.endsWith('.pages.json'));

/** The pages the manifest on disk names (the file and its journal, as the index reads them at start). */
async function manifestPages(): Promise<string[]> {
  const file = manifestFile();
  if (!file) return [];
  return [...(await loadManifest(join(indexDir, file))).keys()].sort();
}

/** The pages the manifest file itself names (without its journal). */
function filePages(): string[] {
  const file = manifestFile();
  if (!file) return [];
  return Object.keys((JSON.parse(readFileSync(join(indexDir, file), 'utf8')) as { pages: Record<string, unknown> }).pages).sort();
}

const journalLines = () => {
  const file = manifestFile();
  return file && existsSync(join(indexDir, `${file}.log`))
    ? readFileSync(join(indexDir, `${file}.log`), 'utf8')
        .split('\n')
        .filter(Boolean)
    : [];
};

describe('the page manifest', () => {
  it('is saved after the first sync, not after each small write within 30 s, then again once 30 s have passed and on close', async () => {
    const index = new MemoryIndex({ projectsDir, indexDir, embedder: new HashingEmbedder(), logger: silentLogger, racyMs: 0, now: () => clock });
    write('notes/A.md', '# A\n\nAnn likes tea.\n');
    await index.sync('home');
    expect(await manifestPages()).toEqual(['notes/A.md']);
    clock += 5_000;
    write('notes/B.md', '# B\n\nBo likes coffee.\n');
    await index.sync('home');
    expect(await manifestPages()).toEqual(['notes/A.md']);
    clock += 30_000;
    write('notes/C.md', '# C\n\nCy likes cocoa.\n');
    await index.sync('home');
    expect(await manifestPages()).toEqual(['notes/A.md', 'notes/B.md', 'notes/C.md']);
    clock += 1_000;
    write('notes/D.md', '# D\n\nDi likes juice.\n');
    await index.sync('home');
    expect(await manifestPages()).not.toContain('notes/D.md');
    await index.close();
    expect(await manifestPages()).toEqual(['notes/A.md', 'notes/B.md', 'notes/C.md', 'notes/D.md']);
  });

  it('saves a small write as the lines of the pages it changed, not the whole list, and folds them in on close', async () => {
    const index = new MemoryIndex({ projectsDir, indexDir, embedder: new HashingEmbedder(), logger: silentLogger, racyMs: 0, now: () => clock });
    for (const name of ['A', 'B', 'C', 'D']) write(`notes/${name}.md`, `# ${name}\n\n${name} likes tea.\n`);
    await index.sync('home');
    expect(filePages()).toEqual(['notes/A.md', 'notes/B.md', 'notes/C.md', 'notes/D.md']);
    // a hand edit of one page, then one removed, each more than 30 s after the last save
    clock += 31_000;
    write('notes/B.md', '# B\n\nB likes coffee now.\n');
    await index.changed('home', ['notes/B.md']);
    clock += 31_000;
    unlinkSync(join(projectsDir, 'home', 'notes', 'C.md'));
    await index.changed('home', ['notes/C.md']);
    expect(journalLines().map((l) => (JSON.parse(l) as unknown[])[0])).toEqual(['notes/B.md', 'notes/C.md']);
    expect(filePages()).toEqual(['notes/A.md', 'notes/B.md', 'notes/C.md', 'notes/D.md']); // not rewritten
    const seen = await loadManifest(join(indexDir, manifestFile()!));
    expect([...seen.keys()].sort()).toEqual(['notes/A.md', 'notes/B.md', 'notes/D.md']);
    expect(seen.get('notes/B.md')?.size).toBe('# B\n\nB likes coffee now.\n'.length);
    // a line cut short by a crash is passed over (that page is only read again)
    writeFileSync(join(indexDir, `${manifestFile()!}.log`), `${journalLines().join('\n')}\n["notes/D.md", "ab`);
    expect([...(await loadManifest(join(indexDir, manifestFile()!))).keys()].sort()).toEqual(['notes/A.md', 'notes/B.md', 'notes/D.md']);
    await index.close();
    expect(filePages()).toEqual(['notes/A.md', 'notes/B.md', 'notes/D.md']);
    expect(journalLines()).toEqual([]);
  });
});
