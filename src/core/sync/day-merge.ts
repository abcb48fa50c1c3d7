/**
 * An archive day file (`log/YYYY-MM-DD.md`) merged as a union: every entry either device has,
 * in time order, an entry one device removed (forgetting redacts the archive) left out. The
 * entries of this device keep their order; the other's are put in by their time. Pure.
 */
import type { MemoryGrammar } from '../ports/sync.js';

interface DayEntry {
  time: string;
  key: string;
  text: string;
}

function split(text: string, g: MemoryGrammar): { head: string[]; entries: DayEntry[] } {
  const head: string[] = [];
  const entries: DayEntry[] = [];
  let current: { time: string; lines: string[] } | null = null;
  const close = () => {
    if (!current) return;
    while (current.lines.length > 1 && current.lines[current.lines.length - 1]?.trim() === '') current.lines.pop();
    const body = current.lines.join('\n');
    const seen = entries.filter((e) => e.text === body).length;
    entries.push({ time: current.time, key: `${String(seen)}\n${body}`, text: body });
  };
  for (const line of text.split('\n')) {
    const time = g.entryTime(line);
    if (time !== null) {
      close();
      current = { time, lines: [line] };
    } else if (current) current.lines.push(line);
    else head.push(line);
  }
  close();
  return { head, entries };
}

function render(head: readonly string[], entries: readonly DayEntry[]): string {
  const h = [...head];
  while (h.length && h[h.length - 1]?.trim() === '') h.pop();
  return `${h.join('\n')}${h.length ? '\n' : ''}${entries.map((e) => `\n${e.text}\n`).join('')}`;
}

/** The union of two devices' versions of one day file, from their common version (`base`, '' when new on both). */
export function mergeDayFile(base: string, ours: string, theirs: string, g: MemoryGrammar): string {
  if (ours === theirs || theirs === base) return ours;
  if (ours === base) return theirs;
  const b = new Set(split(base, g).entries.map((e) => e.key));
  const o = split(ours, g);
  const t = split(theirs, g);
  const oKeys = new Set(o.entries.map((e) => e.key));
  const tKeys = new Set(t.entries.map((e) => e.key));
  const kept = o.entries.filter((e) => !(b.has(e.key) && !tKeys.has(e.key)));
  const arriving = t.entries.filter((e) => !oKeys.has(e.key) && !b.has(e.key));
  const out: DayEntry[] = [];
  let i = 0;
  for (const e of kept) {
    while (i < arriving.length && (arriving[i]?.time ?? '') < e.time) out.push(arriving[i++] as DayEntry);
    out.push(e);
  }
  out.push(...arriving.slice(i));
  return render(o.head.length ? o.head : t.head, out);
}
