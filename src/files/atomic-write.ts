/**
 * Atomic file writes (temp file in the same folder + fsync + rename) that refuse to replace
 * a file whose bytes changed since they were read (compared by sha256); `writeFileAtomicSync`
 * is the same write for the few callers that are synchronous (small state files).
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync, type Dirent } from 'node:fs';
import { open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CharlieError, MemoryUnavailableError } from '../core/errors.js';
import type { FileProblem } from '../core/ports/index.js';
import { errorMessage } from '../util/error-text.js';

/** Version of an absent file. */
export const ABSENT = 'absent';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A file under projects/ that is not UTF-8 text; the message says what it is and what to do. */
export class FileEncodingError extends CharlieError {
  constructor(
    message: string,
    readonly line: number,
    /** A best-effort decoding, only for finding things in it (never written back). */
    readonly roughText: string,
  ) {
    super(message);
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const SAVE_AS_UTF8 = "save it as UTF-8 (most editors: 'Save with Encoding' → UTF-8)";

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Decodes a file's bytes as UTF-8, refusing what is not: a UTF-16 byte order mark or NUL bytes
 * (UTF-16 without one), and invalid UTF-8 (Latin-1 / Windows-1252 editors). Reading those
 * leniently turned bytes into U+FFFD, so the text's hash never matched the file's and every
 * write was refused as a concurrent edit.
 */
export function decodeUtf8(bytes: Buffer): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new FileEncodingError(`is saved as UTF-16 (it starts with a UTF-16 byte order mark); ${SAVE_AS_UTF8}`, 1, bytes.subarray(2).toString('utf16le'));
  }
  if (bytes.includes(0)) throw new FileEncodingError(`contains NUL bytes, so it looks like UTF-16 or not text at all; ${SAVE_AS_UTF8}`, 1, bytes.toString('utf16le'));
  if (isUtf8(bytes)) return bytes.toString('utf8');
  // Find the first line that does not decode, to say where.
  let line = 1;
  for (let start = 0; start < bytes.length; line++) {
    const nl = bytes.indexOf(10, start);
    const end = nl < 0 ? bytes.length : nl;
    if (!isUtf8(bytes.subarray(start, end))) break;
    start = end + 1;
  }
  throw new FileEncodingError(`is not valid UTF-8 (first at line ${line}; probably saved as Latin-1 / Windows-1252); ${SAVE_AS_UTF8}`, line, bytes.toString('latin1'));
}

/** The file's text, or null when it does not exist. Throws FileEncodingError when it is not UTF-8. */
export async function readIfExists(path: string): Promise<string | null> {
  try {
    return decodeUtf8(await readFile(path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The entries of a folder (`recursive`: of everything below it); a folder that does not exist has none. */
export async function entriesIfExists(dir: string, options: { recursive?: boolean } = {}): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true, recursive: options.recursive ?? false });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Like readIfExists, but a file that is not UTF-8 comes back as a problem reported under `shown`. */
export async function readTextOrProblem(path: string, shown: string): Promise<{ text: string } | { problem: FileProblem; roughText: string } | null> {
  try {
    const text = await readIfExists(path);
    return text === null ? null : { text };
  } catch (err) {
    if (err instanceof FileEncodingError) return { problem: { path: shown, line: err.line, message: `${basename(shown)} ${err.message}` }, roughText: err.roughText };
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

/** The part of a file handle the store writes through (node's FileHandle fits). */
export interface WritableFile {
  write(buffer: Uint8Array, offset: number, length: number, position: number | null): Promise<{ bytesWritten: number }>;
  stat(): Promise<{ size: number }>;
  truncate(length: number): Promise<void>;
  sync(): Promise<void>;
  datasync(): Promise<void>;
  close(): Promise<void>;
}

/** The file-system edge for writes: a parameter, so tests can script a full disk. */
export type OpenFile = (path: string, flags: 'a' | 'wx', mode?: number) => Promise<WritableFile>;

export const openFile: OpenFile = (path, flags, mode) => open(path, flags, mode);

const WRITE_FAILURES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EIO: 'the disk reported an input/output error',
};

/** A write that failed or stopped short, as the person should read it. */
export function writeFailure(path: string, err: unknown, consequence: string): MemoryUnavailableError {
  if (err instanceof MemoryUnavailableError) return err;
  const code = (err as NodeJS.ErrnoException | null)?.code ?? '';
  const known = WRITE_FAILURES[code];
  const why = known ? `${known} (${code})` : errorMessage(err);
  return new MemoryUnavailableError(`Couldn't save ${path}: ${why}. ${consequence}`, { cause: err });
}

/** Writes every byte of `data` or throws: a write that stops short is an error, never a cut-off file. */
export async function writeAll(fh: WritableFile, data: Uint8Array, position: number | null): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const { bytesWritten } = await fh.write(data, done, data.length - done, position === null ? null : position + done);
    if (bytesWritten <= 0) throw Object.assign(new Error(`short write: ${done} of ${data.length} bytes written`), { code: 'ENOSPC' });
    done += bytesWritten;
  }
}

export type AtomicWriteResult = { ok: true } | { ok: false; actual: string };

/**
 * Writes `content` to `path` atomically. With `expected` (a version from `fileVersion`), the
 * file is checked again just before the rename and left alone if it changed. A failed or short
 * write leaves the old file and no temp file, and throws a MemoryUnavailableError.
 */
export async function writeFileAtomic(path: string, content: string, expected?: string, openFn: OpenFile = openFile): Promise<AtomicWriteResult> {
  const dir = dirname(path);
  const temp = tempBeside(path);
  try {
    const fh = await openFn(temp, 'wx', 0o644);
    try {
      await writeAll(fh, Buffer.from(content, 'utf8'), 0);
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch (err) {
    await rm(temp, { force: true });
    throw writeFailure(path, err, 'The file was left as it was.');
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

/** The temp file beside `path` that a write goes through (same folder, so the rename is atomic). */
function tempBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Writes `content` to `path` atomically, synchronously: a crash or a failed write leaves the old
 * file (or none) and no temp file, and throws a MemoryUnavailableError. `mode` is the new file's
 * (0o600 for a secret).
 */
export function writeFileAtomicSync(path: string, content: string, options: { mode?: number } = {}): void {
  const temp = tempBeside(path);
  try {
    const fd = openSync(temp, 'wx', options.mode ?? 0o644);
    try {
      const data = Buffer.from(content, 'utf8');
      for (let done = 0; done < data.length;) {
        const n = writeSync(fd, data, done, data.length - done);
        if (n <= 0) throw Object.assign(new Error(`short write: ${done} of ${data.length} bytes written`), { code: 'ENOSPC' });
        done += n;
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw writeFailure(path, err, 'The file was left as it was.');
  }
}

/**
 * Writes `data` to `path` atomically (a temp file beside it, synced, renamed over it), async: the
 * old file or the new one, never half of one. `mode` is the new file's (0o600 for a secret).
 */
export async function writeFileReplacing(path: string, data: string | Uint8Array, options: { mode?: number } = {}): Promise<void> {
  const temp = tempBeside(path);
  try {
    const fh = await open(temp, 'wx', options.mode ?? 0o644);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
