/**
 * Chaos (issue 27): kill -9 at random moments while the scheduler is delivering. A child process
 * runs the real scheduler on SQLite; its deliveries go to a log with their idempotency keys.
 * After every kill and a final run to the end: every job was delivered, no job was claimed under
 * two keys (fired twice), every occurrence marked delivered is in the log, and a key seen twice
 * in the log is only ever a redelivery of an occurrence whose process died before marking it —
 * which the front door drops by its key (Discord's enforced nonce). Seeded, so a failure replays.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../scripts/bench-util.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { suiteTempDir } from '../support/temp-dir.js';

const ROOT = join(import.meta.dirname, '../..');
const SEED = 20261201;
const KILLS = 6;
const ONE_OFF = 4000;
const dir = suiteTempDir('charlie-chaos-schedule-');

/** Runs the worker; kills it `killAfterMs` after it is ready, or (null) lets it run until drained. */
function runWorker(killAfterMs: number | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--import', 'tsx', 'test/chaos/schedule-worker.ts', dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      const first = out === '';
      out += d.toString();
      if (first && out.startsWith('ready\n') && killAfterMs !== null) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      if (killAfterMs === null && out.includes('drained\n')) child.kill('SIGKILL');
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`the worker stopped by itself: ${err}`))));
  });
}

describe('kill -9 while the scheduler delivers', () => {
  it(`every job is delivered and none fires twice (seed ${SEED}, ${KILLS} kills)`, async () => {
    // The jobs are added by the real store, one commit each; on memory-backed storage where
    // there is one, so that 4,000 fsyncs of set-up (~13 s on this disk) do not count as the
    // test: only the kills and deliveries below run on the disk. Closing checkpoints the WAL.
    const seedDir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'charlie-chaos-seed-'));
    const store = new SqliteJobStore(join(seedDir, 'schedule.db'));
    const now = new Date();
    const place = { kind: 'private' as const, userId: 'u', userName: 'Ann' };
    for (let i = 0; i < ONE_OFF; i++) store.add({ id: `once-${i}`, kind: 'reminder', owner: 'u', place, due: new Date(now.getTime() - i), tz: 'UTC', payload: {} }, now);
    for (let i = 0; i < 3; i++) store.add({ id: `every-${i}`, kind: 'reminder', owner: 'u', place, due: now, tz: 'UTC', rule: { cron: '* * * * * *' }, payload: {} }, now);
    store.close();
    copyFileSync(join(seedDir, 'schedule.db'), join(dir, 'schedule.db'));
    rmSync(seedDir, { recursive: true, force: true });
    const next = mulberry32(SEED);
    const progress: number[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      await runWorker(Math.floor(next() * 400));
      progress.push(existsSync(join(dir, 'sent.log')) ? readFileSync(join(dir, 'sent.log'), 'utf8').split('\n').length - 1 : 0);
    }
    await runWorker(null);

    const lines = existsSync(join(dir, 'sent.log')) ? readFileSync(join(dir, 'sent.log'), 'utf8').trim().split('\n') : [];
    const sent = lines.map((l) => l.split(' ') as [string, string]);
    const keysByJob = new Map<string, Set<string>>();
    for (const [key] of sent) {
      const id = key.slice(0, key.lastIndexOf('@'));
      keysByJob.set(id, (keysByJob.get(id) ?? new Set()).add(key));
    }
    // every one-off job was delivered, under exactly one key: claimed once, never fired twice
    for (let i = 0; i < ONE_OFF; i++) expect(keysByJob.get(`once-${i}`)?.size, `once-${i}`).toBe(1);
    // a key written twice is only ever a redelivery after a kill (the front door drops it by key)
    const seen = new Set<string>();
    let redeliveries = 0;
    for (const [key, again] of sent) {
      if (seen.has(key)) {
        expect(again, key).toBe('1');
        redeliveries++;
      }
      seen.add(key);
    }
    // the store says delivered only what was delivered; nothing claimed is left open
    const db = new DatabaseSync(join(dir, 'schedule.db'));
    const rows = db.prepare('SELECT key, state FROM deliveries').all() as { key: string; state: string }[];
    db.close();
    for (const r of rows.filter((r) => r.state === 'sent')) expect(seen.has(r.key), r.key).toBe(true);
    for (const key of seen) expect(rows.some((r) => r.key === key)).toBe(true);
    console.info(
      `chaos kill -9 (scheduler): ${KILLS} kills, ${seen.size} occurrences delivered, ${redeliveries} redelivered with the same key after a kill; delivered after each kill: ${progress.join(', ')}`,
    );
    // the kills landed while deliveries were under way, not before or after them
    expect(progress.some((n) => n > 0 && n < ONE_OFF)).toBe(true);
  }, 120_000);
});
