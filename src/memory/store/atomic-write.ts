/**
 * Atomic file writes (temp file in the same folder + fsync + rename) that refuse to replace
 * a file whose bytes changed since they were read (compared by sha256).
 */
import { createHash, randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Version of an absent file. */
export const ABSENT = 'absent';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The file's text, or null when it does not exist. */
export async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** sha256 of the file's bytes, or ABSENT. */
export async function fileVersion(path: string): Promise<string> {
  try {
    return sha256(await readFile(path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ABSENT;
    throw err;
  }
}

async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // some platforms cannot fsync a directory; the rename is still atomic
  }
}

export type AtomicWriteResult = { ok: true } | { ok: false; actual: string };

/**
 * Writes `content` to `path` atomically. With `expected` (a version from `fileVersion`), the
 * file is checked again just before the rename and left alone if it changed.
 */
export async function writeFileAtomic(path: string, content: string, expected?: string): Promise<AtomicWriteResult> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(temp, 'wx', 0o644);
  try {
    await fh.writeFile(content, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    if (expected !== undefined) {
      const actual = await fileVersion(path);
      if (actual !== expected) {
        await rm(temp, { force: true });
        return { ok: false, actual };
      }
    }
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  await syncDir(dir);
  return { ok: true };
}
