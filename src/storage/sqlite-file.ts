/**
 * Opens a SQLite database for one of Charlie's stores: its folder is created (0700) and the file
 * made 0600 before SQLite opens it (src/storage/private-files.ts), the store's
 * schema is applied, and a database whose schema cannot be applied is closed before the error
 * reaches the caller (no handle left open on a file another process may want to repair).
 */
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { privateFile, privateFolder } from './private-files.js';

/** `path` is a file (its folder is created) or `:memory:`. */
export function openSqliteFile(path: string, applySchema: (db: DatabaseSync) => void): DatabaseSync {
  if (path !== ':memory:') {
    privateFolder(dirname(path));
    privateFile(path);
  }
  const db = new DatabaseSync(path);
  try {
    applySchema(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
