/** Real SQLite private stores for tests: each in a fresh temp folder, closed and removed after its test. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';

/** Returns a maker of private stores; `file` is the private.db, for tests that read it directly. */
export function tempPrivateStores(prefix: string): () => { privateStore: SqlitePrivateStore; file: string } {
  const open: { privateStore: SqlitePrivateStore; dir: string }[] = [];
  afterEach(() => {
    for (const { privateStore, dir } of open.splice(0)) {
      privateStore.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    const file = join(dir, 'private.db');
    const privateStore = new SqlitePrivateStore(file);
    open.push({ privateStore, dir });
    return { privateStore, file };
  };
}
