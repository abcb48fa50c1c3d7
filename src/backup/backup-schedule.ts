/**
 * The scheduled backup (BACKUP_EVERY_HOURS > 0): while Charlie runs, a backup is written when the
 * newest one in BACKUP_DIR is older than the interval (so a restart does not start the count
 * again), encrypted to BACKUP_AGE_RECIPIENT when set, and only the newest BACKUP_KEEP are kept.
 */
import { join } from 'node:path';
import type { Clock, Logger } from '../core/ports/index.js';

export interface BackupScheduleOptions {
  everyHours: number;
  keep: number;
  dir: string;
  projectsDir: string;
  dataDir: string;
  recipient?: string;
  clock: Clock;
  logger: Logger;
}

/** The time a backup file's name carries (backupName), or null. */
export function backupTime(name: string): Date | null {
  const m = /^charlie-backup-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z/.exec(name);
  return m ? new Date(`${m[1] ?? ''}T${m[2] ?? ''}:${m[3] ?? ''}:${m[4] ?? ''}.${m[5] ?? ''}Z`) : null;
}

/** Writes a backup when one is due; returns its path, or null when the newest is recent enough. */
export async function backupIfDue(o: BackupScheduleOptions): Promise<string | null> {
  // the archive writer (tar, gzip, age encryption) loads on the first check, not with Charlie
  const { backupFiles, backupName, pruneBackups, writeBackup } = await import('./backup-file.js');
  const now = o.clock.now();
  const newest = (await backupFiles(o.dir)).map(backupTime).find((t) => t !== null);
  if (newest && now.getTime() - newest.getTime() < o.everyHours * 3_600_000) return null;
  const out = join(o.dir, backupName(now, o.recipient !== undefined));
  const manifest = await writeBackup({ projectsDir: o.projectsDir, dataDir: o.dataDir, out, now, ...(o.recipient ? { key: { recipient: o.recipient } } : {}) });
  const removed = await pruneBackups(o.dir, o.keep);
  o.logger.info({ file: out, files: manifest.files.length, removed: removed.length }, 'backup written');
  return out;
}

/** Checks every ten minutes; returns the stop function. */
export function startBackups(o: BackupScheduleOptions): () => void {
  if (o.everyHours <= 0) return () => {};
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    void backupIfDue(o)
      .catch((err: unknown) => o.logger.warn({ err }, 'scheduled backup failed'))
      .finally(() => (running = false));
  };
  const timer = setInterval(tick, 10 * 60_000);
  timer.unref();
  tick();
  return () => clearInterval(timer);
}
