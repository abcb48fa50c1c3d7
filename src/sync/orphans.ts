/**
 * A sync killed with SIGKILL leaves its git child running (a fetch, a push): the next sync must not
 * run git on the same repository beside it, or the two race for the same refs and locks. On Linux
 * the processes whose command line names this repository are found in /proc; the next sync waits
 * for them (up to the sync deadline) and then ends them. Elsewhere there is nothing to read, and
 * git's own lock files are the only guard.
 */
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

async function gitProcesses(gitDir: string): Promise<number[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const out: number[] = [];
  for (const e of entries) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    const cmd = await readFile(`/proc/${e}/cmdline`, 'utf8').catch(() => '');
    if (cmd.split('\0').includes(gitDir)) out.push(Number(e));
  }
  return out;
}

/** Waits for the git processes a dead sync left on `gitDir`, ends those still there after `timeoutMs`; returns how many there were. */
export async function settleOrphans(gitDir: string, timeoutMs: number): Promise<number> {
  const first = await gitProcesses(gitDir);
  if (!first.length) return 0;
  const deadline = Date.now() + timeoutMs;
  let left = first;
  while (left.length && Date.now() < deadline) {
    await sleep(100);
    left = await gitProcesses(gitDir);
  }
  for (const pid of left)
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // gone already
    }
  return first.length;
}
