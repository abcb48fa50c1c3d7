/**
 * Opening a SQLite store whose file is current commits nothing: a start that changes nothing
 * writes nothing, so it never waits for a disk sync on the way to its prompt (schedule.db's
 * schema transaction once set user_version at every open; docs/performance.md, "Stack traces
 * read their maps when a stack is read"). Every store in src/storage that opens a database for
 * writing is listed here; the last test fails when one is added and not listed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';
import { SqliteUsageStore } from '../../src/storage/usage-store.js';
import { tempDirs } from '../support/temp-dir.js';

const tmp = tempDirs('charlie-store-open-');

/** Each store's file, opened and closed. */
const STORES: Record<string, (path: string) => { close(): void }> = {
  'job-store.ts': (path) => new SqliteJobStore(path),
  'private-store.ts': (path) => new SqlitePrivateStore(path),
  'usage-store.ts': (path) => new SqliteUsageStore(path),
};

describe('opening a current store', () => {
  for (const [file, open] of Object.entries(STORES)) {
    it(`${file}: a second open commits nothing`, () => {
      const path = join(tmp(), 'store.db');
      open(path).close();
      // another connection sees data_version move when anyone else commits
      const watcher = new DatabaseSync(path);
      const version = () => (watcher.prepare('PRAGMA data_version').get() as { data_version: number }).data_version;
      const before = version();
      open(path).close();
      expect(version()).toBe(before);
      // the watcher does see a commit: a table written by another connection moves it
      const writer = new DatabaseSync(path);
      writer.exec('CREATE TABLE seen_by_the_watcher (x INTEGER)');
      writer.close();
      expect(version()).not.toBe(before);
      watcher.close();
    });
  }

  it('lists every store in src/storage that opens a database for writing', () => {
    const dir = join(import.meta.dirname, '..', '..', 'src', 'storage');
    const opening = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && f !== 'sqlite-file.ts')
      .filter((f) => /openSqliteFile\(|new DatabaseSync\((?![^)]*readOnly)/.test(readFileSync(join(dir, f), 'utf8')));
    expect(opening.sort()).toEqual(Object.keys(STORES).sort());
  });
});
