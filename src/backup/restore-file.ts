/**
 * Restores a backup file (backup-file.ts) into an empty projects folder and an empty data
 * folder. Nothing is put in place until the whole backup has been read and checked: every file
 * the manifest lists is there with its size and SHA-256, nothing else is, every name stays inside
 * projects/ or data/, and every SQLite database passes `PRAGMA integrity_check`. An encrypted
 * backup needs its passphrase or secret key; a wrong one opens nothing.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { cp, mkdir, mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import { z } from 'zod';
import { AGE_MAGIC, BackupKeyError, decryptStage, type BackupUnlock } from './backup-crypto.js';
import { BACKUP_FORMAT, MANIFEST } from './backup-file.js';
import { errorMessage } from '../util/error-text.js';
import { removeStaleRestores, STAGING } from './stale-restores.js';
import { tightenFolder } from '../storage/private-files.js';

export { removeStaleRestores } from './stale-restores.js';

export class BackupError extends Error {}

export interface RestoreOptions {
  file: string;
  projectsDir: string;
  dataDir: string;
  unlock?: BackupUnlock;
}

export interface RestoreReport {
  files: number;
  projects: string[];
  databases: string[];
  created: string;
}

const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(1),
  created: z.string(),
  files: z.array(z.object({ path: z.string(), size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});

const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/** A name inside the backup that may be written: under projects/ or data/, no `..`, no absolute path. */
function safeName(name: string): boolean {
  if (!/^(?:projects|data)\/./.test(name) || name.includes('\0') || name.includes('\\')) return false;
  return name.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

async function isEmpty(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

/** Whether a backup file is encrypted (an age file). */
export async function isEncrypted(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(AGE_MAGIC.length);
    await fh.read(buf, 0, buf.length, 0);
    return buf.toString('latin1') === AGE_MAGIC;
  } finally {
    await fh.close();
  }
}

export async function restoreBackup(o: RestoreOptions): Promise<RestoreReport> {
  for (const dir of [o.projectsDir, o.dataDir]) {
    if (!(await isEmpty(dir))) throw new BackupError(`${dir} is not empty: a backup is restored into an empty folder (move the old one aside first)`);
  }
  const encrypted = await isEncrypted(o.file);
  if (encrypted && !o.unlock) throw new BackupKeyError('this backup is encrypted: give its passphrase (--passphrase-file) or the age secret key (--identity)');
  const parent = dirname(resolve(o.dataDir));
  await mkdir(parent, { recursive: true });
  await removeStaleRestores(o.dataDir);
  const staging = await mkdtemp(join(parent, `${STAGING}${process.pid}-`));
  try {
    const ex = extract();
    const input = createReadStream(o.file) as Readable;
    const feeding = encrypted && o.unlock ? pipeline(input, decryptStage(o.unlock), createGunzip(), ex) : pipeline(input, createGunzip(), ex);
    const failed: unknown[] = [];
    feeding.catch((err: unknown) => failed.push(err));
    const seen = new Map<string, { size: number; sha256: string }>();
    let manifestText = '';
    try {
      for await (const entry of ex) {
        const name = entry.header.name;
        if (name === MANIFEST) {
          for await (const chunk of entry) {
            manifestText += (chunk as Buffer).toString('utf8');
            if (manifestText.length > MAX_MANIFEST_BYTES) throw new BackupError('the manifest is too large to be a Charlie backup');
          }
          continue;
        }
        if (entry.header.type !== 'file' || !safeName(name)) throw new BackupError(`the backup holds "${name}", which is not a file under projects/ or data/: refused`);
        if (seen.has(name)) throw new BackupError(`the backup holds ${name} twice`);
        const hash = createHash('sha256');
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of entry) {
          hash.update(chunk as Buffer);
          chunks.push(chunk as Buffer);
          size += (chunk as Buffer).length;
        }
        const target = join(staging, ...name.split('/'));
        await mkdir(dirname(target), { recursive: true, mode: 0o700 });
        await writeFile(target, Buffer.concat(chunks), { mode: 0o600 });
        seen.set(name, { size, sha256: hash.digest('hex') });
      }
      await feeding;
    } catch (err) {
      const cause = failed[0] ?? err;
      if (cause instanceof BackupKeyError || cause instanceof BackupError) throw cause;
      throw new BackupError(`the backup does not read (${errorMessage(cause)}): it is damaged or cut short`);
    }
    if (!manifestText) throw new BackupError('the backup has no manifest: it is cut short or not a Charlie backup');
    let manifest;
    try {
      manifest = manifestSchema.parse(JSON.parse(manifestText));
    } catch {
      throw new BackupError('the manifest does not read: not a Charlie backup of this version');
    }
    const listed = new Set(manifest.files.map((f) => f.path));
    for (const f of manifest.files) {
      const got = seen.get(f.path);
      if (!got) throw new BackupError(`${f.path} is listed but missing: the backup is cut short`);
      if (got.size !== f.size || got.sha256 !== f.sha256) throw new BackupError(`${f.path} does not match its checksum: the backup was altered or damaged`);
    }
    for (const name of seen.keys()) if (!listed.has(name)) throw new BackupError(`${name} is in the backup but not in its manifest`);
    const databases = manifest.files.map((f) => f.path).filter((p) => /^data\/.*\.(?:db|sqlite3?)$/i.test(p));
    for (const db of databases) {
      const conn = new DatabaseSync(join(staging, ...db.split('/')), { readOnly: true });
      try {
        const row = conn.prepare('PRAGMA integrity_check').get() as { integrity_check?: string } | undefined;
        if (row?.integrity_check !== 'ok') throw new BackupError(`${db} fails SQLite's integrity check (${row?.integrity_check ?? '?'})`);
      } finally {
        conn.close();
      }
    }
    await mkdir(o.projectsDir, { recursive: true });
    await mkdir(o.dataDir, { recursive: true, mode: 0o700 });
    const stagedProjects = join(staging, 'projects');
    const stagedData = join(staging, 'data');
    if (!(await isEmpty(stagedProjects))) await cp(stagedProjects, o.projectsDir, { recursive: true, errorOnExist: true, force: false });
    if (!(await isEmpty(stagedData))) await cp(stagedData, o.dataDir, { recursive: true, errorOnExist: true, force: false });
    // restored data is as private as data made on first start: folders 0700, files 0600
    tightenFolder(o.dataDir);
    const projects = [...new Set(manifest.files.filter((f) => f.path.startsWith('projects/') && f.path.split('/').length > 2).map((f) => f.path.split('/')[1] ?? ''))].filter(Boolean);
    return { files: manifest.files.length, projects, databases, created: manifest.created };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
