/**
 * Charlie's data is private to the account that runs it: every folder under DATA_DIR is 0700
 * and every file 0600 (DM history in private.db, the schedule, usage, the web app's token and
 * session secret, the index, the logs). Databases are created 0600 before SQLite opens them
 * (SQLite gives its -wal and -shm files the database's mode), the data folder is made 0700 on
 * first start, and an older install (0644 files in a 0755 folder) is tightened at start and
 * after a restore.
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;

/**
 * Creates `path` (and its parents) as a private folder; an existing one of this account is made
 * private (one it does not own, such as /tmp, is left as it is).
 */
export function privateFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  try {
    chmodSync(path, PRIVATE_FOLDER_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
  }
}

/** Makes sure `path` exists as a private file (empty when new) before anything else opens it. */
export function privateFile(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  chmodSync(path, PRIVATE_FILE_MODE);
}

/**
 * Every folder under `dir` (and `dir`) 0700, every file 0600; symbolic links are left alone
 * (node_modules of a checkout, a models folder linked in). Returns how many modes it changed.
 */
export function tightenFolder(dir: string): number {
  let changed = 0;
  const fix = (path: string, mode: number): void => {
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink() || (st.mode & 0o777) === mode) return;
    chmodSync(path, mode);
    changed++;
  };
  const walk = (folder: string): void => {
    fix(folder, PRIVATE_FOLDER_MODE);
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) fix(path, PRIVATE_FILE_MODE);
    }
  };
  if (lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) walk(dir);
  return changed;
}
