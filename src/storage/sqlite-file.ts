/**
 * Opens a SQLite database for one of Charlie's stores: its folder is created, the store's
 * schema is applied, and a database whose schema cannot be applied is closed before the error
 * reaches the caller (no handle left open on a file another process may want to repair).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** `path` is a file (its folder is created) or `:memory:`. */
export function openSqliteFile(path: string, applySchema: (db: DatabaseSync) => void): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  try {
    applySchema(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
