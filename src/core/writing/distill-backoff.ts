/**
 * After a failed distillation, the automatic runs wait before they try again: a memory model that
 * answers nothing usable (or is down) otherwise made every turn read the whole backlog, build the
 * graph's view of the project and send a request doomed like the last, each costing more than the
 * one before as the backlog grew (bench:scale at 10,000 pages: a few ms of every turn). The wait
 * is counted in runs asked for (one a turn): the project's DISTILL_EVERY, doubled at each failure
 * in a row up to `maxFactor` times; a success ends it. A run asked for by a person (`/project
 * distill`) never waits. Nothing is lost: the messages stay pending until a run succeeds.
 */
export class DistillBackoff {
  private readonly waits = new Map<string, { left: number; failures: number }>();

  constructor(private readonly maxFactor = 16) {}

  /** Whether an automatic run of `key` may try now; when not, one more ask is counted off its wait. */
  mayTry(key: string): boolean {
    const w = this.waits.get(key);
    if (!w || w.left <= 0) return true;
    w.left--;
    return false;
  }

  /** How many more asks `key` waits for (0: none). */
  waiting(key: string): number {
    return this.waits.get(key)?.left ?? 0;
  }

  failed(key: string, every: number): void {
    const w = this.waits.get(key) ?? { left: 0, failures: 0 };
    w.failures++;
    w.left = Math.max(1, every) * Math.min(this.maxFactor, 2 ** (w.failures - 1));
    this.waits.set(key, w);
  }

  succeeded(key: string): void {
    this.waits.delete(key);
  }
}
