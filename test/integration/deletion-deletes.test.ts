/**
 * Deletion deletes: after /private wipe, after forgetting DM messages, and after forgetting a
 * note, no canary is readable in the raw bytes of private.db (and its write-ahead log) or of
 * the LanceDB index files. Each check first sees the canary in the raw files, so it is not
 * passing only because the storage compresses or encodes text.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { silentLogger, systemClock } from '../../src/core/ports/index.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { buildApp } from '../../src/main.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';
import { tempDirs } from '../support/temp-dir.js';
import { writePage } from '../support/pages.js';

const tempDir = tempDirs('charlie-deletion-');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Every file under `dir` (or the file itself), as raw bytes in latin1 so any byte sequence is searchable. */
function rawBytes(path: string): string {
  if (!existsSync(path)) return '';
  if (!statSync(path).isDirectory()) return readFileSync(path).toString('latin1');
  return readdirSync(path)
    .map((n) => rawBytes(join(path, n)))
    .join('\n');
}

function dbFiles(dbPath: string): string {
  return ['', '-wal', '-shm', '-journal'].map((s) => rawBytes(`${dbPath}${s}`)).join('\n');
}

describe('deletion deletes', () => {
  it('/private wipe leaves no readable text in private.db or its log; forgetting messages neither', () => {
    const dir = tempDir();
    const path = join(dir, 'private.db');
    const store = new SqlitePrivateStore(path);
    cleanups.push(() => store.close());
    const at = '2026-11-20T10:00:00.000Z';
    store.appendMessage('111', { time: at, speaker: 'Dana', source: 'dm:1', text: 'CANARY-WIPE-MSG-71c2 the lab results', role: 'user' });
    store.appendMessage('111', { time: at, speaker: 'Dana', source: 'dm:2', text: 'CANARY-FORGET-MSG-3e90 last message', role: 'user' });
    store.writeLayers('111', { summary: 'CANARY-WIPE-SUM-55aa summary', decisions: [{ date: '2026-11-20', text: 'CANARY-WIPE-DEC-0b1d', source: 'dm:1' }], quotes: [] }, 0);
    store.appendMessage('222', { time: at, speaker: 'Eve', source: 'dm:3', text: 'KEEP-OTHER-USER-9d0e', role: 'user' });
    expect(dbFiles(path)).toContain('CANARY-FORGET-MSG-3e90');

    expect(store.deleteMessages('111', { lastN: 1 })).toBe(1);
    expect(dbFiles(path)).not.toContain('CANARY-FORGET-MSG-3e90');
    expect(dbFiles(path)).toContain('CANARY-WIPE-MSG-71c2');

    store.wipe('111');
    const raw = dbFiles(path);
    for (const c of ['CANARY-WIPE-MSG-71c2', 'CANARY-WIPE-SUM-55aa', 'CANARY-WIPE-DEC-0b1d']) expect(raw).not.toContain(c);
    expect(raw).toContain('KEEP-OTHER-USER-9d0e');
  });

  it('forgetting a note leaves no readable text in the LanceDB files', async () => {
    const dir = tempDir();
    const config = loadConfig(
      { EMBEDDER: 'builtin', WATCH_PROJECTS: 'false', WEB_PORT: '0', LLM_BASE_URL: 'http://127.0.0.1:9/v1', PROJECTS_DIR: join(dir, 'projects'), DATA_DIR: join(dir, 'data') },
      dir,
    );
    const app = await buildApp(config, silentLogger);
    cleanups.push(() => app.close());
    const place: Place = { kind: 'project', origin: { name: 'general', key: 'terminal:general' } };
    await app.assistant.settings.showMemory(place);
    const graph = new Wiki({ projectsDir: config.projectsDir, clock: systemClock, logger: silentLogger });
    expect(await writePage(graph, 'general', { title: 'Vault', category: 'Topics', facts: ['CANARYLANCE7f3a the vault code is behind the painting.'] })).toBe('Topics/Vault.md');
    const hits = await app.assistant.memory.searchMemory(place, 'vault painting');
    expect(hits.some((h) => h.text.includes('CANARYLANCE7f3a'))).toBe(true);
    const index = join(dir, 'data', 'index');
    expect(rawBytes(index)).toContain('CANARYLANCE7f3a');

    const out = await app.assistant.memory.forget(place, { kind: 'note', path: 'Topics/Vault.md' }, 'owner');
    expect(out.forgotten).toBe(true);
    expect(rawBytes(index)).not.toContain('CANARYLANCE7f3a');
    expect(await app.assistant.memory.searchMemory(place, 'vault painting')).toEqual([]);
  }, 60_000);
});
