/**
 * What a device keeps about its syncs, under `data/sync/` (device state, never synced): the
 * state file (last sync, last error, the notes of the last merge), the lock one sync at a time
 * holds (a lock whose process is gone is stale and taken over), and the apply journal that lets a
 * sync cut off while updating the projects folder finish on the next run.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { SyncError } from '../core/errors.js';
import { writeFileReplacing } from '../files/atomic-write.js';

const stateSchema = z.object({
  lastSync: z.string().default(''),
  lastError: z.string().default(''),
  notes: z.array(z.string()).default([]),
});
export type SyncState = z.infer<typeof stateSchema>;

const journalSchema = z.object({ from: z.string(), to: z.string() });
export type ApplyJournal = z.infer<typeof journalSchema>;

export function syncPaths(dataDir: string) {
  const dir = join(dataDir, 'sync');
  return { dir, gitDir: join(dir, 'repo.git'), state: join(dir, 'state.json'), lock: join(dir, 'lock'), journal: join(dir, 'apply.json'), mergeIndex: join(dir, 'merge.index') };
}

async function readJson<T>(file: string, schema: z.ZodType<T>): Promise<T | null> {
  try {
    const parsed = schema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function writeJson(file: string, value: unknown): Promise<void> {
  return writeFileReplacing(file, `${JSON.stringify(value, null, 2)}\n`);
}

export class SyncFiles {
  readonly paths: ReturnType<typeof syncPaths>;
  constructor(dataDir: string) {
    this.paths = syncPaths(dataDir);
  }

  async state(): Promise<SyncState> {
    return (await readJson(this.paths.state, stateSchema)) ?? stateSchema.parse({});
  }

  async saveState(update: Partial<SyncState>): Promise<void> {
    const now = await this.state();
    await mkdir(this.paths.dir, { recursive: true });
    await writeJson(this.paths.state, { ...now, ...update });
  }

  journal(): Promise<ApplyJournal | null> {
    return readJson(this.paths.journal, journalSchema);
  }

  writeJournal(j: ApplyJournal): Promise<void> {
    return writeJson(this.paths.journal, j);
  }

  clearJournal(): Promise<void> {
    return rm(this.paths.journal, { force: true });
  }

  /** Takes the lock, or throws `busy` when a live process holds it; returns whether the last holder died mid-sync. */
  async lock(): Promise<{ stale: boolean; release: () => Promise<void> }> {
    await mkdir(this.paths.dir, { recursive: true });
    let stale = false;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await writeFile(this.paths.lock, String(process.pid), { flag: 'wx' });
        return { stale, release: () => rm(this.paths.lock, { force: true }) };
      } catch {
        const pid = Number((await readFile(this.paths.lock, 'utf8').catch(() => '')).trim());
        if (pid > 0 && pid !== process.pid && alive(pid)) throw new SyncError(`another sync is running (process ${String(pid)})`, 'busy');
        stale = true;
        await rm(this.paths.lock, { force: true });
      }
    }
    throw new SyncError(`could not take the sync lock ${this.paths.lock}`, 'busy');
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
