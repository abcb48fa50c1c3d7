/**
 * doctor: the memory budget (CHARLIE_MEMORY_BUDGET), how it is shared out, and what the running
 * Charlie keeps resident, from the status file it writes beside the index (resident-status.ts):
 * a project over its share alone, and LanceDB's index cache grown past its share, are warned of.
 * It also says whether native memory freed by the index's bulk work is given back to the system
 * (memory/index/native-heap.ts: glibc's malloc_trim, 33–37 MB of a 10,000-page process).
 */
import { join } from 'node:path';
import type { Config } from '../config.js';
import { memoryBudget } from '../memory/index/memory-budget.js';
import { loadResidentStatus } from '../memory/index/resident-status.js';
import { ok, warn, type Check } from './check.js';
import { silentLogger } from '../core/ports/index.js';
import { nativeHeap, type NativeHeap } from '../memory/index/native-heap.js';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Whether process `pid` runs (signal 0 only checks). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function memoryBudgetCheck(config: Config, now: () => number = Date.now, heap: Pick<NativeHeap, 'unavailable'> = nativeHeap(silentLogger)): Check {
  return {
    name: 'storage: memory budget',
    run() {
      const b = memoryBudget(config.CHARLIE_MEMORY_BUDGET);
      const why = heap.unavailable();
      const giveBack = why ? `native memory freed by the index is not given back here (${why})` : 'native memory freed by the index is given back (malloc_trim)';
      const shares = `CHARLIE_MEMORY_BUDGET ${mb(b.bytes)}: ${mb(b.residentBytes)} for projects' search data, LanceDB caches ${mb(b.indexCacheBytes)} + ${mb(b.metadataCacheBytes)}; ${giveBack}`;
      const status = loadResidentStatus(join(config.dataDir, 'index'));
      if (!status || !running(status.pid)) return Promise.resolve(ok(`${shares}; Charlie is not running, nothing is resident`));
      const minutes = (t: number) => `${Math.max(0, Math.round((now() - t) / 60_000)).toString()} min ago`;
      const list = status.projects.map((p) => `${p.project} ${mb(p.bytes)} (searched ${minutes(p.usedAt)})`).join(', ') || 'no project';
      const over = status.projects.find((p) => p.bytes > status.residentBytes);
      // LanceDB's index cache grows past its share to hold the vector indexes of the projects opened (lance-connect.ts)
      const bound = status.indexCacheBoundBytes ?? status.indexCacheBytes;
      const grown =
        bound > status.indexCacheBytes
          ? `; LanceDB's index cache may hold ${mb(bound)}, past its ${mb(status.indexCacheBytes)} share, to keep the vector indexes of the projects opened (${mb(status.vectorIndexBytes ?? 0)} on disk) whole`
          : '';
      const text = `${shares}; resident (as of ${minutes(status.at)}): ${list}${grown}`;
      if (over)
        return Promise.resolve(
          warn(text, `${over.project} alone needs more than the budget's share: it stays in memory while used, but others are let go each time; raise CHARLIE_MEMORY_BUDGET if this machine has room`),
        );
      if (grown)
        return Promise.resolve(
          warn(
            text,
            `Charlie may use ${mb(bound - status.indexCacheBytes)} more than CHARLIE_MEMORY_BUDGET says (a smaller cache would make searches read and decode the vector index again: up to a second of CPU each at 100,000 chunks); count it when sizing the machine`,
          ),
        );
      return Promise.resolve(ok(text));
    },
  };
}
