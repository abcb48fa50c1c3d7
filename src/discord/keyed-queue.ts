/**
 * Runs tasks one at a time per key (a channel), keys in parallel. A failing task does not
 * block the ones behind it. Per instance; nothing global.
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
