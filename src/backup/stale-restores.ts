/**
 * The staging copies a restore makes beside the data folder, and their clean-up: apart from
 * restore-file.ts so that a start (which removes stale ones) loads no archiver or age.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { processAlive } from '../util/process-alive.js';

/** Every restore's staging folder starts with this, then the pid of the restoring process. */
export const STAGING = '.charlie-restore-';
/** A staging folder of the format before the pid was in its name is stale after this long. */
const OLD_STAGING_MS = 60 * 60 * 1000;

/**
 * Removes the staging copies that restores killed halfway left beside the data folder: those
 * whose process is gone (the pid is in the name). Returns the folders removed.
 */
export async function removeStaleRestores(dataDir: string): Promise<string[]> {
  const parent = dirname(resolve(dataDir));
  let names: string[];
  try {
    names = (await readdir(parent)).filter((n) => n.startsWith(STAGING));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = /^\.charlie-restore-(\d+)-/.exec(name)?.[1];
    const path = join(parent, name);
    const stale = pid ? Number(pid) !== process.pid && !processAlive(Number(pid)) : Date.now() - (await stat(path)).mtimeMs > OLD_STAGING_MS;
    if (!stale) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}
