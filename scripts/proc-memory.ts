/**
 * What this process holds, for the benchmarks' memory-over-turns figures: V8's own counters
 * beside what Linux says (/proc/self/status, smaps_rollup) and the threads by name (LanceDB's
 * tokio and lance pools each show up as their own name). Linux only; elsewhere the /proc figures
 * are NaN and the thread list is empty.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcMemory {
  rss: number;
  heapUsed: number;
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
  return `rss ${mb(p.rss)} · anon ${mb(p.rssAnon)} · file ${mb(p.rssFile)} · heap ${mb(p.heapUsed)} · external ${mb(p.external)} (arrayBuffers ${mb(p.arrayBuffers)}) MB · ${p.threads} threads (${names})`;
}
