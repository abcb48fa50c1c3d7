/** A bounded set of recently seen ids (oldest forgotten first), to answer each message once. */
export class SeenIds {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity = 5000) {}

  /** True the first time an id is offered, false for a repeat. */
  firstTime(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.values().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
    return true;
  }

  get size(): number {
    return this.ids.size;
  }
}
