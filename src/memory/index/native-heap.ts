/**
 * Gives the memory that native code freed back to the system: glibc's `malloc_trim(0)`.
 *
 * glibc keeps what a program frees inside its heaps for the next allocation, and returns only
 * the free space at a heap's top. A bulk read leaves the rest as holes among the few blocks that
 * stay alive: LanceDB's decoding of a whole table (the keyword index's first read), a compaction
 * and its index build. At 10,000 pages those holes were 33–37 MB of a 286–297 MB process
 * (measured by calling `malloc_trim(0)` from gdb at bench:scale's RSS point: 297 → 262 MB; the
 * empty project's process gave back 1 MB; docs/performance.md, "Freed, not given back").
 * `malloc_trim` walks every arena and hands each free page back (`madvise`); Ruby's garbage
 * collector does the same after a full collection.
 *
 * Node has no binding for it, so it is called through koffi (a foreign-function library whose
 * npm package carries its binaries for every platform; nothing is built or downloaded at install).
 * Where there is no glibc (musl, macOS, Windows) or koffi cannot load, nothing is given back and
 * Charlie works as before; `unavailable()` says why (doctor shows it).
 *
 * Trims are asked for after the bulk work and run later, once: asks within
 * `delayMs` of each other become one trim (a walk of the heaps costs a few milliseconds of the
 * main thread per 100 MB), and at most one runs every `minGapMs`.
 */
import { createRequire } from 'node:module';
import type { Logger } from '../../core/ports/index.js';
import { errorMessage } from '../../util/error-text.js';

/** Calls `malloc_trim(pad)`: 1 when memory was given back, 0 when there was none to give. */
export type Trim = (pad: number) => number;

export interface NativeHeap {
  /** Whether freed memory can be given back on this system (binds malloc_trim at the first ask). */
  available: () => boolean;
  /** Why not, when it cannot. */
  unavailable: () => string | undefined;
  /** Bulk work just freed memory (`reason` is logged): a trim runs `delayMs` later, once for all asks meanwhile. */
  freed: (reason: string) => void;
  /** Trims now (tests, benchmarks); false where it is not available. */
  trimNow: (reason: string) => boolean;
  /** Cancels a trim that was asked for (at shutdown). */
  close: () => void;
}

/** What is used of koffi (an optional dependency: where it did not install, nothing is given back). */
interface Koffi {
  load(path: string): { func(declaration: string): (...args: never[]) => unknown };
}

/** koffi's binding of glibc's `malloc_trim`, or why there is none. */
export function loadTrim(): Trim | string {
  if (process.platform !== 'linux') return `no glibc on ${process.platform}`;
  try {
    // musl names its library otherwise (and has no malloc_trim): the load fails, nothing is given back
    const koffi = createRequire(import.meta.url)('koffi') as Koffi;
    const trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
    return (pad) => trim(pad);
  } catch (err) {
    return `koffi could not bind malloc_trim: ${errorMessage(err)}`;
  }
}

/** The debug message of a trim that ran, with its `ms` (benchmarks find the trims by it). */
export const TRIM_LOGGED = 'freed native memory given back';

const DELAY_MS = 2_000;
const MIN_GAP_MS = 10_000;

export function nativeHeap(logger: Logger, options: { load?: () => Trim | string; delayMs?: number; minGapMs?: number; now?: () => number } = {}): NativeHeap {
  const { delayMs = DELAY_MS, minGapMs = MIN_GAP_MS, now = Date.now } = options;
  // bound at the first ask, not at start-up (koffi's library is a native module)
  let loaded: Trim | string | undefined;
  const bound = () => (loaded ??= (options.load ?? loadTrim)());
  const binding = () => {
    const b = bound();
    return typeof b === 'function' ? b : null;
  };
  let timer: NodeJS.Timeout | null = null;
  let lastAt = -Infinity;
  const reasons = new Set<string>();

  const run = (reason: string): boolean => {
    const trim = binding();
    if (!trim) return false;
    const before = process.memoryUsage.rss();
    const started = performance.now();
    const gave = trim(0);
    lastAt = now();
    logger.debug({ reason, ms: Math.round(performance.now() - started), rssBeforeMb: Math.round(before / 2 ** 20), rssAfterMb: Math.round(process.memoryUsage.rss() / 2 ** 20), gave }, TRIM_LOGGED);
    return true;
  };

  return {
    available: () => binding() !== null,
    unavailable: () => {
      const b = bound();
      return typeof b === 'string' ? b : undefined;
    },
    freed: (reason) => {
      if (!binding()) return;
      reasons.add(reason);
      if (timer) return;
      const wait = Math.max(delayMs, lastAt + minGapMs - now());
      timer = setTimeout(() => {
        timer = null;
        const why = [...reasons].join(', ');
        reasons.clear();
        run(why);
      }, wait);
      timer.unref();
    },
    trimNow: run,
    close: () => {
      if (timer) clearTimeout(timer);
      timer = null;
      reasons.clear();
    },
  };
}
