/**
 * The distillation cursor as the project file keeps it: where in which day file the memory lane
 * has read to, with what the store needs to find its place again after hand edits.
 */
import { UnsafeNameError } from '../../core/errors.js';
import type { LogCursor } from '../../core/ports/index.js';
import { LOG_FILE } from '../archive-format.js';

/** A cursor as stored by this adapter: also the time of the last entry read, used after hand edits. */
export interface StoredLogCursor extends LogCursor {
  time?: string;
  /**
   * The end of what was read of the log file before `file`. An entry created before midnight
   * but archived after the cursor moved into the next day's file lands there, after this offset.
   */
  previous?: LogCursor;
}

/** The cursor as the project file keeps it; a cursor that names no day file, or a bad offset, is refused. */
export function cursorToStore(cursor: LogCursor): StoredLogCursor {
  const valid = (c: LogCursor | undefined): c is LogCursor => !!c && LOG_FILE.test(c.file) && Number.isInteger(c.offset) && c.offset >= 0;
  if (!valid(cursor)) throw new UnsafeNameError(`not a log cursor: ${JSON.stringify(cursor).slice(0, 100)}`);
  const { time, previous } = cursor as StoredLogCursor;
  return { file: cursor.file, offset: cursor.offset, ...(time ? { time } : {}), ...(valid(previous) ? { previous: { file: previous.file, offset: previous.offset } } : {}) };
}
