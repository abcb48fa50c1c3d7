/**
 * The memory budget's LRU: past the budget, the search data of the least recently searched
 * project is let go, and its next search reads it again from the table with the same answers.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src/core/ports/index.js';
import { HashingEmbedder } from '../../src/memory/index/hashing-embedder.js';
import { MemoryIndex } from '../../src/memory/index/memory-index.js';
import { memoryBudget } from '../../src/memory/index/memory-budget.js';
import { loadResidentStatus } from '../../src/memory/index/resident-status.js';
import type { Candidates } from '../../src/memory/index/search-query.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'charlie-resident-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(project: string, page: string, content: string): void {
  const path = join(root, 'projects', project, page);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

const notes = (project: string) =>
  Array.from(
    { length: 12 },
    (_, i) => `---\nschema: 1\ntitle: ${project} note ${i}\n---\n\n## Facts\n\n- The ${project} boiler needs a service in month ${i} [source:: terminal:${i}]\n- Keys are with neighbour ${i}\n`,
  );

/** What a search found, as plain data (page, line, score) in rank order. */
const answers = (c: Candidates) => [...c.vector, ...c.keyword].map((h) => [h.page, h.lineStart, Number(h.score.toFixed(6))]);

describe('MemoryIndex memory budget', () => {
  it('lets go of the least recently searched project past the budget and reads it again with the same answers', async () => {
    for (const project of ['home', 'work', 'club']) notes(project).forEach((text, i) => write(project, `notes/People/N${i}.md`, text));
    const embedder = new HashingEmbedder();
    const indexDir = join(root, 'index');
    // room for about one of these projects' search data
    const index = new MemoryIndex({ projectsDir: join(root, 'projects'), indexDir, embedder, logger: silentLogger, racyMs: 0, budget: { ...memoryBudget(64), residentBytes: 150_000 } });
    try {
      await index.syncAll();
      const query = async (text: string) => ({ vector: (await embedder.embed([text]))[0]!, terms: ['boiler', 'servic'], limit: 10, contextBoost: 0.8 });
      const first = answers(await index.search('home', await query('boiler service')));
      expect(first.length).toBeGreaterThan(0);
      expect(index.resident.list().map((r) => r.project)).toEqual(['home']);
      const home = index.resident.list()[0]!.bytes;
      expect(home).toBeGreaterThan(0);
      expect(home).toBeLessThan(150_000);
      expect(home * 2).toBeGreaterThan(150_000);

      await index.search('work', await query('boiler service'));
      expect(index.resident.list().map((r) => r.project)).toEqual(['work']);
      await index.search('club', await query('boiler service'));
      expect(index.resident.list().map((r) => r.project)).toEqual(['club']);

      // home was let go: read again on its next search, with the same answers
      const again = answers(await index.search('home', await query('boiler service')));
      expect(again).toEqual(first);
      expect(index.resident.list().map((r) => r.project)).toEqual(['home']);
      // doctor's view of it
      await vi.waitFor(() => expect(loadResidentStatus(indexDir)?.projects.map((p) => p.project)).toEqual(['home']));
      expect(loadResidentStatus(indexDir)?.pid).toBe(process.pid);
    } finally {
      await index.close();
    }
  });

  it('keeps every searched project while they fit the budget', async () => {
    for (const project of ['home', 'work']) notes(project).forEach((text, i) => write(project, `notes/People/N${i}.md`, text));
    const embedder = new HashingEmbedder();
    const index = new MemoryIndex({ projectsDir: join(root, 'projects'), indexDir: join(root, 'index'), embedder, logger: silentLogger, racyMs: 0, budget: memoryBudget(64) });
    try {
      const query = { vector: (await embedder.embed(['keys neighbour']))[0]!, terms: ['kei', 'neighbour'], limit: 5, contextBoost: 0.8 };
      await index.search('home', query);
      await index.search('work', query);
      expect(index.resident.list().map((r) => r.project)).toEqual(['work', 'home']);
    } finally {
      await index.close();
    }
  });
});
