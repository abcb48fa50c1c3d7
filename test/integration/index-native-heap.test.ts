/**
 * The index tells when its bulk native work has freed memory (a project's table read whole for its
 * keyword index, a compaction), so the composition root's native heap (memory/index/native-heap.ts) gives
 * glibc's holes back to the system: at 10,000 pages they were 33–37 MB of the process.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports/index.js';
import { HashingEmbedder } from '../../src/memory/index/hashing-embedder.js';
import { MemoryIndex } from '../../src/memory/index/memory-index.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'charlie-native-heap-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(page: string, content: string): void {
  const path = join(root, 'projects', 'home', page);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

describe('MemoryIndex and freed native memory', () => {
  it('tells once a table was read whole for a search, and after the compaction of a forget', async () => {
    for (let i = 0; i < 6; i++) write(`notes/People/N${i}.md`, `---\nschema: 1\ntitle: Note ${i}\n---\n\n## Facts\n\n- The boiler needs a service in month ${i}\n`);
    const told: string[] = [];
    const embedder = new HashingEmbedder();
    const index = new MemoryIndex({ projectsDir: join(root, 'projects'), indexDir: join(root, 'index'), embedder, logger: silentLogger, racyMs: 0, freed: (reason) => told.push(reason) });
    try {
      await index.sync('home');
      expect(told).not.toContain('a table read whole');
      const query = { vector: (await embedder.embed(['boiler service']))[0]!, terms: ['boiler'], limit: 5, contextBoost: 0 };
      expect((await index.search('home', query)).keyword.length).toBeGreaterThan(0);
      expect(told.filter((r) => r === 'a table read whole')).toHaveLength(1);
      // read once: later searches use what is in memory
      await index.search('home', query);
      expect(told.filter((r) => r === 'a table read whole')).toHaveLength(1);

      rmSync(join(root, 'projects', 'home', 'notes', 'People', 'N0.md'));
      const compactions = told.filter((r) => r === 'a compaction').length;
      await index.purge('home');
      expect(told.filter((r) => r === 'a compaction').length).toBe(compactions + 1);
    } finally {
      await index.close();
    }
  });
});
