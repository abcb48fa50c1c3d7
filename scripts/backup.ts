/**
 * One backup file of every project and the data folder's stores (src/backup/backup-file.ts):
 *   npm run backup                                   into BACKUP_DIR, encrypted to BACKUP_AGE_RECIPIENT if set
 *   npm run backup -- --out FILE                     a file of your choosing
 *   npm run backup -- --recipient age1…              encrypted to an age public key
 *   npm run backup -- --passphrase-file FILE         encrypted with the passphrase in FILE (first line)
 * Safe while Charlie runs. Keeps the newest BACKUP_KEEP files in BACKUP_DIR.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { backupName, pruneBackups, writeBackup } from '../src/backup/backup-file.js';
import type { BackupKey } from '../src/backup/backup-crypto.js';

const { values } = parseArgs({ options: { out: { type: 'string' }, recipient: { type: 'string' }, 'passphrase-file': { type: 'string' } } });
const config = loadConfig();
const now = new Date();
const recipient = values.recipient ?? config.BACKUP_AGE_RECIPIENT;
const passphraseFile = values['passphrase-file'];
const key: BackupKey | undefined = passphraseFile ? { passphrase: ((await readFile(passphraseFile, 'utf8')).split(/\r?\n/)[0] ?? '').trim() } : recipient ? { recipient } : undefined;
const dir = resolve(config.BACKUP_DIR);
const out = values.out ? resolve(values.out) : resolve(dir, backupName(now, key !== undefined));
const manifest = await writeBackup({ projectsDir: config.projectsDir, dataDir: config.dataDir, out, now, ...(key ? { key } : {}) });
const bytes = manifest.files.reduce((n, f) => n + f.size, 0);
process.stdout.write(`backed up ${String(manifest.files.length)} files (${(bytes / 1e6).toFixed(1)} MB before compression)${key ? ', encrypted' : ''} to ${out}\n`);
if (dirname(out) === dir) for (const gone of await pruneBackups(dir, config.BACKUP_KEEP)) process.stdout.write(`removed the older backup ${gone}\n`);
