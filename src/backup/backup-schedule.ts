/**
 * The scheduled backup (BACKUP_EVERY_HOURS > 0): a `backup` job of the one scheduler checks every
 * ten minutes, and a backup is written when the newest one in BACKUP_DIR is older than the
 * interval (so a restart does not start the count again), encrypted to BACKUP_AGE_RECIPIENT when
 * set, and only the newest BACKUP_KEEP are kept. It runs under the backup kind's deadline beside
 * the other jobs, never in front of a reminder.
 */
import { join } from 'node:path';
import type { Clock, Logger } from '../core/ports/index.js';
import { keepInternalJob } from '../core/time/internal-jobs.js';
import type { JobStore } from '../core/time/jobs.js';
import type { Scheduler } from '../core/time/scheduler.js';

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

/** The backup job's id in the job store. */
export const BACKUP_JOB_ID = 'internal-backup';

/** Registers the backup job kind and keeps its job (every ten minutes) while BACKUP_EVERY_HOURS > 0. */
export function attachBackups(scheduler: Scheduler, jobs: JobStore, o: BackupScheduleOptions & { tz: string }): void {
  scheduler.handle('backup', async () => {
    if (o.everyHours > 0) await backupIfDue(o);
  });
  keepInternalJob(jobs, { id: BACKUP_JOB_ID, kind: 'backup', cron: '*/10 * * * *', tz: o.tz }, o.everyHours > 0, o.clock);
}
