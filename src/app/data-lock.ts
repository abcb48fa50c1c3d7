/**
 * One Charlie per data folder: `charlie.lock` in DATA_DIR holds the pid of the Charlie that
 * uses the folder. A second one is refused with a message naming that pid; a lock whose process
 * is gone (killed, crashed, the machine restarted) is stale and taken over. The lock is
 * created with O_EXCL, so of two processes starting at once only one gets it. Released on exit.
 */
import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { CharlieError } from '../core/errors.js';
import { processAlive } from '../util/process-alive.js';

export const LOCK_FILE = 'charlie.lock';
/** A lock younger than this that does not read is still being written. */
const FRESH_MS = 5000;

/** Another Charlie is using the data folder. */
export class DataFolderInUseError extends CharlieError {}

const lockSchema = z.object({ pid: z.number().int().positive(), host: z.string(), started: z.string() });
type LockOwner = z.infer<typeof lockSchema>;

function readOwner(file: string): LockOwner | null {
  try {
    const parsed = lockSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function create(file: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  return true;
}

export interface DataLock {
  file: string;
  /** A stale lock (its process gone) that was taken over. */
  tookOver: LockOwner | null;
  release(): void;
}

/**
 * Takes the data folder for this process, or throws DataFolderInUseError naming the Charlie
 * that has it. The folder must exist.
 */
export function lockDataFolder(dataDir: string, pid = process.pid): DataLock {
  const file = join(dataDir, LOCK_FILE);
  const me: LockOwner = { pid, host: hostname(), started: new Date().toISOString() };
  let tookOver: LockOwner | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(file, me)) {
      const release = () => {
        if (readOwner(file)?.pid === pid) rmSync(file, { force: true });
      };
      process.once('exit', release);
      return { file, tookOver, release };
    }
    const owner = readOwner(file);
    // a lock written on another machine (a shared folder) cannot be checked from here: refused
    if (owner && owner.pid !== pid && (owner.host !== me.host || processAlive(owner.pid))) {
      throw new DataFolderInUseError(
        `another Charlie (pid ${owner.pid} on ${owner.host}, started ${owner.started}) is using the data folder ${dataDir}: stop it first, or give this one its own DATA_DIR (the lock is ${file})`,
      );
    }
    // an unreadable lock just made is one being written by a Charlie starting now
    const age = Date.now() - (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    if (!owner && age < FRESH_MS) throw new DataFolderInUseError(`the data folder ${dataDir} is being taken by another Charlie at this moment: try again`);
    // stale (its process is gone) or unreadable and old (cut short by a crash): moved aside, then taken
    tookOver = owner;
    const aside = `${file}.stale-${pid}`;
    try {
      renameSync(file, aside);
      rmSync(aside, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  throw new DataFolderInUseError(`the data folder ${dataDir} is being taken by another Charlie at this moment: try again`);
}
