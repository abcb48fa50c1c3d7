/**
 * The per-device distillation cursor's list (src/core/writing/device-cursor.ts) in a file of this
 * device's, `data/sync/distill-pending.json`: per project, the keys of the archive entries this
 * device archived and has not distilled yet. Never synced (it is under data/), written whole and
 * atomically, so a `kill -9` leaves the old list or the new one. A key is an entry's header as
 * the archive writes it and reads it back (time to the second, speaker, reply or not, source).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { LogEntry } from '../core/ports/index.js';
import type { DistillLedger } from '../core/writing/device-cursor.js';
import { writeFileReplacing } from '../files/atomic-write.js';
import { formatLogEntry, parseLog } from '../memory/archive-format.js';

const fileSchema = z.object({ schema: z.literal(1), projects: z.record(z.string(), z.array(z.string().max(2000))) });
type LedgerFile = z.infer<typeof fileSchema>;

export class FileDistillLedger implements DistillLedger {
  constructor(private readonly path: string) {}

  key(entry: LogEntry): string {
    const day = entry.time.slice(0, 10);
    // through the archive's own writer and parser: the key of an entry written is the key of it read back
    const read = parseLog(formatLogEntry({ ...entry, text: '.' }), day)[0];
    const e = read ?? entry;
    return `${e.time.slice(0, 19)}|${e.role}|${e.speaker}|${e.source}`;
  }

  async read(project: string): Promise<string[] | null> {
    return (await this.load()).projects[project] ?? null;
  }

  async write(project: string, keys: readonly string[]): Promise<void> {
    const file = await this.load();
    file.projects[project] = [...keys];
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await writeFileReplacing(this.path, `${JSON.stringify(file, null, 1)}\n`, { mode: 0o600 });
  }

  /** How many of this device's messages wait for its distillation, in every project (the doctor's check); throws when the list is damaged. */
  async waiting(): Promise<number> {
    return Object.values((await this.load()).projects).reduce((n, keys) => n + keys.length, 0);
  }

  private async load(): Promise<LedgerFile> {
    const text = await readFile(this.path, 'utf8').catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    });
    if (text === null) return { schema: 1, projects: {} };
    // a damaged list is an error, not an empty one: an empty list would skip this device's messages
    return fileSchema.parse(JSON.parse(text));
  }
}
