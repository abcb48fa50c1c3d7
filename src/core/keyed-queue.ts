/**
 * Runs tasks one at a time per key (a channel, a project, an index table), keys in parallel.
 * A failing task does not block the ones behind it. Per instance; nothing global. The one
 * serial-queue mechanism of the codebase (Discord channels, distillation, project files, the
 * search index): hand-rolled copies drift apart. p-queue and friends order one queue, not one
 * per key, and the AI SDK's SerialJobExecutor is not exported on its own.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves when every queued task has settled. */
  async idle(): Promise<void> {
    while (this.tails.size) await Promise.all([...this.tails.values()]);
  }

  get activeKeys(): number {
    return this.tails.size;
  }
}
