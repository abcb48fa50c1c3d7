/**
 * Assembles OpenAI `delta.tool_calls` fragments into whole tool calls, keyed by `index`.
 * Tolerates servers that omit `index` (one call per array slot, or matched by id), repeat
 * the id or name in every fragment, send whole arguments at once, or give no id at all.
 */
import type { ToolCall } from '../core/ports/index.js';

interface Partial {
  id: string | undefined;
  name: string;
  args: string;
}

export class ToolCallAssembler {
  private readonly calls = new Map<number, Partial>();

  get size(): number {
    return this.calls.size;
  }

  add(deltas: unknown): void {
    if (!Array.isArray(deltas)) return;
    deltas.forEach((raw, position) => {
      if (!raw || typeof raw !== 'object') return;
      const delta = raw as { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } };
      const id = typeof delta.id === 'string' && delta.id !== '' ? delta.id : undefined;
      const index = this.slotFor(delta.index, id, position);
      const call = this.calls.get(index) ?? { id: undefined, name: '', args: '' };
      if (id && !call.id) call.id = id;
      const name = delta.function?.name;
      if (typeof name === 'string' && name !== '' && call.name === '') call.name = name;
      const args = delta.function?.arguments;
      if (typeof args === 'string') call.args += args;
      else if (args && typeof args === 'object') call.args += JSON.stringify(args); // some servers send an object
      this.calls.set(index, call);
    });
  }

  /** The assembled calls in index order (nameless fragments dropped); clears the assembler. */
  finish(newId: () => string): { calls: ToolCall[]; dropped: number } {
    const out: ToolCall[] = [];
    const usedIds = new Set<string>();
    let dropped = 0;
    for (const [, call] of [...this.calls.entries()].sort((a, b) => a[0] - b[0])) {
      if (!call.name) {
        dropped++;
        continue;
      }
      let id = call.id;
      if (!id || usedIds.has(id)) id = newId();
      usedIds.add(id);
      out.push({ id, name: call.name, arguments: call.args.trim() === '' ? '{}' : call.args });
    }
    this.calls.clear();
    return { calls: out, dropped };
  }

  private slotFor(index: unknown, id: string | undefined, position: number): number {
    if (typeof index === 'number' && Number.isInteger(index)) return index;
    if (id) {
      for (const [i, call] of this.calls) if (call.id === id) return i;
      // a new id without an index: a new call after the existing ones
      return this.calls.size === 0 ? position : Math.max(...this.calls.keys()) + 1;
    }
    return position;
  }
}
