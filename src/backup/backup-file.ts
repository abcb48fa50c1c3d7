/**
 * One backup file of everything Charlie keeps that is not derived: every project folder (pages,
 * layers, archive, inbox, kept page versions) and the data folder's stores — private.db (DM
 * history and private memory), usage.db, waiting candidates, write requests, reflection state
 * and any other store there. The search index, downloaded models, logs and the web app's
 * token and secret are left out: the index is rebuilt (`npm run reindex` or the next start),
 * the rest is re-created.
 *
 * Consistent while Charlie runs: each SQLite database is copied with SQLite's online backup
 * (node:sqlite `backup()`), which sees one committed state; every other file is written by the
 * stores with temp file + rename, so one read sees one whole version; an archive log file is
 * append-only and is cut back to its last whole entry.
 *
 * The file is a tar stream (tar-stream), gzipped, optionally encrypted to an age passphrase or
 * public key (age-encryption, the reference format's TypeScript implementation: no home-made
 * crypto). Its last entry, MANIFEST.json, lists every file with its size and SHA-256, so a
 * restore can tell a whole backup from a cut or altered one.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { backup as sqliteBackup, DatabaseSync } from 'node:sqlite';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack, type Pack } from 'tar-stream';
import { encryptStage, type BackupKey } from './backup-crypto.js';

export const MANIFEST = 'MANIFEST.json';
export const BACKUP_FORMAT = 'charlie-backup';

/** Under the data folder: derived or re-created, never backed up. */
// the vault stays on this machine: its key would open it, and a secret is given again after a restore (docs/machines.md)
const DATA_LEFT_OUT = new Set(['index', 'models', 'logs', 'web', 'vault']);
const SQLITE = /\.(?:db|sqlite3?)$/i;
const SQLITE_SIDECAR = /\.(?:db|sqlite3?)-(?:wal|shm|journal)$/i;
/** A store's temp file mid-write (atomic-write.ts, the write-request store): not a file of its own. */
const TEMP = /\.tmp$/;

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  created: string;
  files: ManifestFile[];
}

export interface BackupOptions {
  projectsDir: string;
  dataDir: string;
  /** The backup file to write (its folder is created). */
  out: string;
  key?: BackupKey;
  now: Date;
}

async function walk(root: string, skipTop: ReadonlySet<string> = new Set()): Promise<string[]> {
  const out: string[] = [];
  const visit = async (dir: string, top: boolean) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (!(top && skipTop.has(e.name))) await visit(path, false);
      } else if (e.isFile() && !TEMP.test(e.name) && !SQLITE_SIDECAR.test(e.name)) out.push(path);
    }
  };
  await visit(root, true);
  return out;
}

/** One whole version of a file: read from one open handle up to the size it had when opened. */
async function snapshot(path: string): Promise<Buffer | null> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null; // renamed away or deleted meanwhile
    throw err;
  }
  try {
    const { size } = await fh.stat();
    const buf = Buffer.alloc(size);
    let done = 0;
    while (done < size) {
      const { bytesRead } = await fh.read(buf, done, size - done, done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return buf.subarray(0, done);
  } finally {
    await fh.close();
  }
}

/** An archive log file is append-only: an entry being appended right now is left for the next backup. */
function wholeEntries(path: string, buf: Buffer): Buffer {
  if (!/[/\\]log[/\\]\d{4}-\d{2}-\d{2}\.md$/.test(path) || buf.length === 0 || buf[buf.length - 1] === 0x0a) return buf;
  const last = buf.lastIndexOf('\n### ');
  return last < 0 ? buf : buf.subarray(0, last + 1);
}

function addEntry(p: Pack, name: string, data: Buffer, mtime: Date): Promise<void> {
  return new Promise((resolve, reject) => {
    p.entry({ name, size: data.length, mtime, mode: 0o644 }, data, (err) => (err ? reject(err) : resolve()));
  });
}

/** Writes the backup; resolves with its manifest. The file appears whole (temp + rename) or not at all. */
export async function writeBackup(o: BackupOptions): Promise<Manifest> {
  await mkdir(dirname(o.out), { recursive: true });
  const staging = await mkdtemp(join(dirname(o.out), '.charlie-backup-'));
  const temp = join(staging, basename(o.out));
  const manifest: Manifest = { format: BACKUP_FORMAT, version: 1, created: o.now.toISOString(), files: [] };
  try {
    const p = pack();
    const written = o.key
      ? pipeline(p as unknown as Readable, createGzip(), encryptStage(o.key), createWriteStream(temp, { mode: 0o600 }))
      : pipeline(p as unknown as Readable, createGzip(), createWriteStream(temp, { mode: 0o600 }));
    // a failed write stops the pack too (and the loop below with it)
    written.catch(() => p.destroy());
    const add = async (name: string, data: Buffer) => {
      manifest.files.push({ path: name, size: data.length, sha256: createHash('sha256').update(data).digest('hex') });
      await addEntry(p, name, data, o.now);
    };
    for (const path of await walk(o.projectsDir)) {
      const data = await snapshot(path);
      if (data) await add(`projects/${relative(o.projectsDir, path).split(sep).join('/')}`, wholeEntries(path, data));
    }
    for (const path of await walk(o.dataDir, DATA_LEFT_OUT)) {
      const name = `data/${relative(o.dataDir, path).split(sep).join('/')}`;
      if (SQLITE.test(path)) {
        // SQLite's online backup: one committed state, while Charlie keeps writing
        const copy = join(staging, `db-${String(manifest.files.length)}.db`);
        const db = new DatabaseSync(path, { readOnly: true });
        try {
          await sqliteBackup(db, copy);
        } finally {
          db.close();
        }
        const data = await snapshot(copy);
        if (data) await add(name, data);
        await rm(copy, { force: true });
      } else {
        const data = await snapshot(path);
        if (data) await add(name, data);
      }
    }
    await addEntry(p, MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`), o.now);
    p.finalize();
    await written;
    await rename(temp, o.out);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Backup files in a folder, newest first (by the time in their name). */
export async function backupFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => /^charlie-backup-.+\.tar\.gz(?:\.age)?$/.test(f)).sort((a, b) => b.localeCompare(a));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** A backup file name for a moment: sorts by time, says whether it is encrypted. */
export function backupName(now: Date, encrypted: boolean): string {
  return `charlie-backup-${now.toISOString().replace(/[:.]/g, '-')}.tar.gz${encrypted ? '.age' : ''}`;
}

/** Keeps the newest `keep` backups in a folder, deletes the rest; returns what it deleted. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const old = (await backupFiles(dir)).slice(Math.max(1, keep));
  for (const f of old) await rm(join(dir, f), { force: true });
  return old;
}
