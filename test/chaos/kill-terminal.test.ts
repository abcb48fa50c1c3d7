/**
 * Chaos (issue 27): the terminal has no nonce to drop a repeated post, so it checks the job
 * store before it prints and marks the occurrence delivered right after. A child process runs
 * the terminal's delivery path on SQLite and is killed with SIGKILL in the middle of a delivery —
 * at a seeded random post, just before its print or just after it (before the scheduler marked
 * it delivered: where a door without that check prints it again) — then restarted; everything
 * it ever printed is collected. Every reminder is printed exactly once. (Random kills at any
 * instruction are the scheduler's chaos test, kill-schedule.test.ts.)
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { mulberry32 } from '../../scripts/bench-util.js';
import { suiteTempDir } from '../support/temp-dir.js';

const ROOT = join(import.meta.dirname, '../..');
const SEED = 20261202;
const KILLS = 8;
const REMINDERS = 200;
const dir = suiteTempDir('charlie-chaos-terminal-');

/** Runs the worker, which kills itself at post `killAt` (`phase` its print), or (null) until drained. */
function runWorker(kill: { at: number; phase: 'before' | 'after' } | null): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = ['--disable-warning=ExperimentalWarning', '--import', 'tsx', 'test/chaos/terminal-worker.ts', dir, ...(kill ? [String(kill.at), kill.phase] : [])];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('drained\n')) child.kill('SIGKILL');
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (_code, signal) => (signal === 'SIGKILL' ? resolve(out) : reject(new Error(`the worker stopped by itself: ${err}`))));
  });
}

describe('kill -9 while the terminal prints reminders', () => {
  it(`prints each reminder once (seed ${SEED}, ${KILLS} kills)`, async () => {
    const store = new SqliteJobStore(join(dir, 'schedule.db'));
    const now = new Date();
    const place = { kind: 'project' as const, origin: { name: 'general', key: 'terminal:general' } };
    for (let i = 0; i < REMINDERS; i++)
      store.add({ id: `rem-${i}`, kind: 'reminder', owner: 'terminal:general:dana', place, due: new Date(now.getTime() - i), tz: 'UTC', payload: { text: `n-${i}`, by: 'dana' } }, now);
    store.close();
    const next = mulberry32(SEED);
    let printed = '';
    const progress: number[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      printed += await runWorker({ at: 1 + Math.floor(next() * 30), phase: kill % 2 ? 'before' : 'after' });
      progress.push(printed.match(/⏰ Reminder: n-\d+\n/g)?.length ?? 0);
    }
    printed += await runWorker(null);

    const counts = new Map<string, number>();
    for (const m of printed.matchAll(/⏰ Reminder: (n-\d+)\n/g)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1).map(([k]) => k);
    const missing = Array.from({ length: REMINDERS }, (_, i) => `n-${i}`).filter((k) => !counts.has(k));
    console.info(`chaos kill -9 (terminal): ${KILLS} kills, ${counts.size} of ${REMINDERS} printed, ${twice.length} twice, ${missing.length} lost; printed after each kill: ${progress.join(', ')}`);
    expect(twice).toEqual([]);
    expect(missing).toEqual([]);
    // the kills landed while reminders were being printed, not before or after
    expect(progress.some((n) => n > 0 && n < REMINDERS)).toBe(true);
  }, 180_000);
});
