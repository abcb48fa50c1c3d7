/**
 * What this process holds, for the benchmarks' memory-over-turns figures: V8's own counters
 * beside what Linux says (/proc/self/status, smaps_rollup) and the threads by name (LanceDB's
 * tokio and lance pools each show up as their own name). Linux only; elsewhere the /proc figures
 * are NaN and the thread list is empty.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

export interface ProcMemory {
  rss: number;
  heapUsed: number;
  /** What V8's heap holds in physical memory (used, free within its pages, code): part of `rssAnon`. */
  heapPhysical: number;
  external: number;
  arrayBuffers: number;
  /** Anonymous resident memory (malloc'd, V8 heap, thread stacks): what grows when a leak or fragmentation does. */
  rssAnon: number;
  /** File-backed resident memory (the code of node and of the native modules, mapped files). */
  rssFile: number;
  threads: number;
  /** Thread count by name (`tokio-runtime-w`, `lance-cpu`, `node`, ...), largest first. */
  threadNames: [string, number][];
}

const kb = (text: string, key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? NaN) * 1024;

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

export function threadNames(): [string, number][] {
  const names = new Map<string, number>();
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return [];
  }
  for (const t of tasks) {
    const name = read(`/proc/self/task/${t}/comm`).trim() || '?';
    names.set(name, (names.get(name) ?? 0) + 1);
  }
  return [...names].sort((a, b) => b[1] - a[1]);
}

export function procMemory(): ProcMemory {
  const m = process.memoryUsage();
  const status = read('/proc/self/status');
  return {
    rss: m.rss,
    heapUsed: m.heapUsed,
    heapPhysical: getHeapStatistics().total_physical_size,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    rssAnon: kb(status, 'RssAnon'),
    rssFile: kb(status, 'RssFile'),
    threads: kb(status, 'Threads') / 1024,
    threadNames: threadNames(),
  };
}

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);

/** One line: `rss 197.0 · anon 120.3 · file 76.7 · heap 40.1 · external 9.0 (arrayBuffers 1.2) MB · 23 threads (tokio-runtime-w 8, …)`. */
export function formatProcMemory(p: ProcMemory): string {
  const names = p.threadNames.map(([n, c]) => `${n} ${c}`).join(', ');
  return `rss ${mb(p.rss)} · anon ${mb(p.rssAnon)} · file ${mb(p.rssFile)} · heap ${mb(p.heapUsed)} (V8 resident ${mb(p.heapPhysical)}) · external ${mb(p.external)} (arrayBuffers ${mb(p.arrayBuffers)}) MB · ${p.threads} threads (${names})`;
}

/**
 * Resident anonymous memory by kind of mapping, from /proc/self/smaps: `brk heap` (glibc's main
 * malloc arena), `64 MB arenas` (glibc's other arenas reserve 64 MB each), `stacks` (mappings
 * just after a guard page, 8 MB or Rust's 2 MB), and `other` (V8's heap pages, mmap'd buffers).
 */
export function anonByKind(): Record<string, number> {
  const out: Record<string, number> = { 'brk heap': 0, '64 MB arenas': 0, stacks: 0, other: 0 };
  const lines = read('/proc/self/smaps').split('\n');
  let kind: string | null = null;
  let prevGuard = false;
  for (const line of lines) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (head) {
      const size = parseInt(head[2]!, 16) - parseInt(head[1]!, 16);
      const perms = head[3]!;
      const name = head[5]!.trim();
      const anon = head[4] === '0' && (name === '' || name === '[heap]' || name === '[stack]' || name.startsWith('[anon'));
      if (!anon || perms.startsWith('---')) kind = null;
      else if (name === '[heap]') kind = 'brk heap';
      else if (name === '[stack]' || prevGuard) kind = prevGuard && size <= 8 * 1024 * 1024 + 4096 && size >= 1024 * 1024 ? 'stacks' : 'other';
      else if (size <= 64 * 1024 * 1024 && (parseInt(head[1]!, 16) & (64 * 1024 * 1024 - 1)) === 0) kind = '64 MB arenas';
      else kind = 'other';
      prevGuard = perms.startsWith('---') && size <= 64 * 1024;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && kind) out[kind] = (out[kind] ?? 0) + Number(rss[1]) * 1024;
  }
  return out;
}

export const formatAnonByKind = (a: Record<string, number>) =>
  `anon by mapping: ${Object.entries(a)
    .map(([k, v]) => `${k} ${mb(v)}`)
    .join(' · ')} MB`;

/** V8's heap by space, resident (physical) size: which space a growth of `heapPhysical` is in. */
export const formatHeapSpaces = () =>
  `V8 resident by space: ${getHeapSpaceStatistics()
    .map((s) => `${s.space_name.replace(/_space$/, '')} ${mb(s.physical_space_size)}`)
    .join(' · ')} MB`;

/**
 * A full garbage collection that also gives memory back (V8's "last resort" flavour, as on memory
 * pressure): plain `gc()` leaves the pages V8 keeps pooled for reuse and a grown young generation
 * resident, which V8 releases by itself only after the process has been idle for several seconds
 * (bench:web: 319 MB after 200 back-to-back turns, 266 MB 20 s later, with no other change).
 * A no-op without --expose-gc.
 */
export function reducingGc(): void {
  const gc = (globalThis as { gc?: (options?: object) => void }).gc;
  gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
