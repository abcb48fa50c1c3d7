/**
 * Restores a backup file (npm run backup) into an empty projects folder and data folder:
 *   npm run restore -- FILE                              into PROJECTS_DIR and DATA_DIR (both must be empty)
 *   npm run restore -- FILE --passphrase-file FILE       an encrypted backup, with its passphrase
 *   npm run restore -- FILE --identity KEYFILE           an encrypted backup, with the age secret key
 * The backup is checked whole (checksums, SQLite integrity) before anything is written. Then run
 * `npm run reindex` (or just start Charlie): the search index is rebuilt, not restored.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { restoreBackup } from '../src/backup/restore-file.js';
import type { BackupUnlock } from '../src/backup/backup-crypto.js';
import { errorMessage } from '../src/util/error-text.js';

const { values, positionals } = parseArgs({ options: { 'passphrase-file': { type: 'string' }, identity: { type: 'string' } }, allowPositionals: true });
const file = positionals[0];
if (!file) {
  process.stderr.write('usage: npm run restore -- FILE [--passphrase-file FILE | --identity KEYFILE]\n');
  process.exit(2);
}
const config = loadConfig();
const firstLine = async (path: string) => ((await readFile(path, 'utf8')).split(/\r?\n/).find((l) => l.trim() && !l.startsWith('#')) ?? '').trim();
const unlock: BackupUnlock | undefined = values['passphrase-file']
  ? { passphrase: await firstLine(values['passphrase-file']) }
  : values.identity
    ? { identity: await firstLine(values.identity) }
    : undefined;
try {
  const r = await restoreBackup({ file, projectsDir: config.projectsDir, dataDir: config.dataDir, ...(unlock ? { unlock } : {}) });
  process.stdout.write(
    `restored ${String(r.files)} files from the backup of ${r.created}: projects ${r.projects.join(', ') || '(none)'}; databases ${r.databases.join(', ') || '(none)'}.\n` +
      'The search index is rebuilt on the next start (or run npm run reindex).\n',
  );
} catch (err) {
  process.stderr.write(`not restored: ${errorMessage(err)}\n`);
  process.exitCode = 1;
}
