/**
 * The per-device distillation cursor of a device that syncs (docs/sync.md). Each device distils
 * the messages it archived itself; the archive's day files merge as a union in time order, so the
 * other devices' entries land between and after this device's own, and a byte offset (the
 * project's `distill_cursor` in project.md, which also syncs) can neither skip them exactly nor
 * keep pointing at the same place. Here the cursor is the list of this device's own entries not
 * distilled yet, kept on the device (the DistillLedger, never synced): an entry goes on the list
 * before it is appended to the archive and comes off when its distillation is committed. Entries
 * that arrived from another device are never on it, so no message is distilled on two devices,
 * and none of this device's is skipped wherever a merge puts it.
 */
import { KeyedQueue } from '../keyed-queue.js';
import type { LogEntry, ProjectStore } from '../ports/index.js';
import type { DistillTarget } from './distill.js';

/** Where a device keeps, per project, its own archive entries not distilled yet (a multiset of keys). */
export interface DistillLedger {
  /** The identity of an archive entry, the same for the entry as written and as read back from its day file; starts with its `YYYY-MM-DD`. */
  key(entry: LogEntry): string;
  /** null: this device keeps no list for the project yet. */
  read(project: string): Promise<string[] | null>;
  write(project: string, keys: readonly string[]): Promise<void>;
}

const DAY_MS = 86_400_000;

/** Removes one of each of `gone` from `keys` (two entries with one key are two). */
function without(keys: readonly string[], gone: readonly string[]): string[] {
  const left = [...keys];
  for (const k of gone) {
    const i = left.indexOf(k);
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

export class DeviceCursor {
  private readonly queue = new KeyedQueue();

  constructor(
    private readonly ledger: DistillLedger,
    private readonly store: Pick<ProjectStore, 'readLogSince' | 'getDistillCursor'>,
  ) {}

  /** Called before the entry is appended to the project's archive: it is this device's to distil. */
  archived(project: string, entry: LogEntry): Promise<void> {
    return this.queue.run(project, async () => {
      await this.ledger.write(project, [...(await this.keys(project)), this.ledger.key(entry)]);
    });
  }

  /** This device's entries not distilled yet, in archive order; `commit(n)` takes the first `n` off the list. */
  pending(project: string): ReturnType<DistillTarget['pending']> {
    return this.queue.run(project, async () => {
      const keys = await this.keys(project);
      if (!keys.length) return { entries: [], commit: () => Promise.resolve() };
      const first = keys.map((k) => k.slice(0, 10)).sort()[0] ?? '';
      const tail = await this.store.readLogSince(project, { file: `${first}.md`, offset: 0 });
      const wanted = [...keys];
      const entries: LogEntry[] = [];
      for (const e of tail.entries) {
        const i = wanted.indexOf(this.ledger.key(e));
        if (i < 0) continue;
        wanted.splice(i, 1);
        entries.push(e);
      }
      // a key no entry answers two days before the newest entry read (its append failed after it was noted) is dropped;
      // a newer one may be an entry being appended right now
      const newest = Date.parse(`${tail.entries.at(-1)?.time.slice(0, 10) ?? first}T00:00:00Z`);
      const stale = wanted.filter((k) => Date.parse(`${k.slice(0, 10)}T00:00:00Z`) < newest - DAY_MS);
      if (stale.length) await this.ledger.write(project, without(keys, stale));
      return {
        entries,
        commit: (count: number) =>
          this.queue.run(project, async () => {
            const done = entries.slice(0, count).map((e) => this.ledger.key(e));
            await this.ledger.write(project, without(await this.keys(project), done));
          }),
      };
    });
  }

  /** The list; on first use on this device, what the project's own cursor has not distilled yet. */
  private async keys(project: string): Promise<string[]> {
    const kept = await this.ledger.read(project);
    if (kept) return kept;
    const tail = await this.store.readLogSince(project, await this.store.getDistillCursor(project));
    const seeded = tail.entries.map((e) => this.ledger.key(e));
    await this.ledger.write(project, seeded);
    return seeded;
  }
}
