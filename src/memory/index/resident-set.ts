/**
 * The projects whose in-memory search data (keyword index, rows, vectors) is kept: a least
 * recently used set bounded by bytes (CHARLIE_MEMORY_BUDGET's share, memory-budget.ts) and by
 * idleness. A project is touched by each search; past the budget the least recently used
 * others are let go, and any not searched for `idleMs` is let go by `sweep`. The one just used
 * always stays, even alone over the budget (its searches would otherwise read the whole table
 * every time). A project let go is read again from its table on its next search.
 */

export interface Resident {
  /** Bytes it holds in memory now (an estimate; 0 while nothing is loaded). */
  bytes(): number;
  /** Lets go of what it holds in memory. */
  release(): void;
}

export interface ResidentInfo {
  project: string;
  bytes: number;
  /** When it was last searched (ms since the epoch). */
  usedAt: number;
}

export class ResidentSet {
  /** In order of use, least recent first (a Map keeps insertion order; a touch re-inserts). */
  private readonly items = new Map<string, { resident: Resident; usedAt: number }>();

  constructor(
    private readonly budgetBytes: number,
    private readonly idleMs: number,
    private readonly now: () => number = Date.now,
    /** Hears when a project comes or goes (the status file doctor reads). */
    private readonly onChange: () => void = () => {},
  ) {}

  /** `project` was just used: it becomes the most recent, and the least recent others go while the set is over budget. Returns the projects let go. */
  touch(project: string, resident: Resident): string[] {
    const known = this.items.delete(project);
    this.items.set(project, { resident, usedAt: this.now() });
    const dropped: string[] = [];
    let total = this.total();
    for (const [name, item] of this.items) {
      if (total <= this.budgetBytes || name === project) break;
      total -= item.resident.bytes();
      item.resident.release();
      this.items.delete(name);
      dropped.push(name);
    }
    if (!known || dropped.length > 0) this.onChange();
    return dropped;
  }

  /** Lets go of every project not used for `idleMs`. Returns the projects let go. */
  sweep(): string[] {
    const before = this.now() - this.idleMs;
    const dropped: string[] = [];
    for (const [name, item] of this.items) {
      if (item.usedAt > before) continue;
      item.resident.release();
      this.items.delete(name);
      dropped.push(name);
    }
    if (dropped.length > 0) this.onChange();
    return dropped;
  }

  /** No longer tracked (its table was dropped or closed); nothing is released. */
  forget(project: string): void {
    this.items.delete(project);
  }

  /** Tracks nothing any more (the index closed or dropped every table). */
  clear(): void {
    this.items.clear();
  }

  total(): number {
    let sum = 0;
    for (const item of this.items.values()) sum += item.resident.bytes();
    return sum;
  }

  /** What is resident, most recently used first. */
  list(): ResidentInfo[] {
    return [...this.items].map(([project, item]) => ({ project, bytes: item.resident.bytes(), usedAt: item.usedAt })).reverse();
  }
}
