/**
 * The one statement a store that removes a DM's passages needs of the recall index (dm_recall,
 * private.db): on its own, so the record store depends on no search code.
 */
import type { DatabaseSync } from 'node:sqlite';

/** Deletes the index rows of these passages now (a store that removes them calls it). */
export function dropRecallRows(db: DatabaseSync, userId: string, keys: readonly string[]): void {
  const del = db.prepare('DELETE FROM dm_recall WHERE user_id = ? AND key = ?');
  for (const k of keys) del.run(userId, k);
}
