/**
 * Chaos (issue 13, item 10): kill -9 at random moments while memory is being written. A child
 * process writes through the real store; after every kill, every file must parse and every
 * acknowledged write must be on disk. The random moments come from a seeded generator (the seed
 * is in the test name), so a failure can be replayed.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../scripts/bench-util.js';
import type { Clock } from '../../src/core/ports/index.js';
import { parseLog } from '../../src/memory/archive-format.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { suiteTempDir } from '../support/temp-dir.js';

const ROOT = join(import.meta.dirname, '../..');
const SEED = 20261130;
const KILLS = 6;
const dir = suiteTempDir('charlie-chaos-kill-');

/** Runs the writer until `killAfterMs` after it is ready, then SIGKILL; returns its acknowledgements. */
function runWriter(first: number, killAfterMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--import', 'tsx', 'test/chaos/memory-writer.ts', dir, String(first)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.startsWith('ready\n') && !child.killed) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`the writer stopped by itself: ${err}`));
      // Only whole lines were acknowledged; a line cut by the kill was not.
      else
        resolve(
          out
            .split('\n')
            .slice(0, -1)
            .filter((l) => l !== 'ready'),
        );
    });
  });
}

describe('kill -9 while memory is being written', () => {
  it(`every file parses after each kill and nothing acknowledged is lost (seed ${SEED}, ${KILLS} kills)`, async () => {
    const next = mulberry32(SEED);
    const acked = { log: new Set<number>(), decision: new Set<number>(), note: new Set<number>() };
    let first = 0;
    const clock: Clock = { now: () => new Date() };
    for (let kill = 0; kill < KILLS; kill++) {
      const lines = await runWriter(first, Math.floor(next() * 1500));
      for (const line of lines) {
        const [kind, n] = line.split(' ') as ['log' | 'decision' | 'note', string];
        acked[kind].add(Number(n));
        first = Math.max(first, Number(n) + 1);
      }
      first += 1; // never reuse an index whose write may have been cut off
      const store = new FileProjectStore({ projectsDir: dir, clock });
      const slug = 'chaos';
      // Every file parses.
      const project = await store.getProject(slug);
      expect(project?.problems).toEqual([]);
      const snap = await store.readLayers(slug);
      expect(snap.problems).toEqual([]);
      const notes = await store.listNotesWithProblems(slug);
      expect(notes.problems).toEqual([]);
      // Nothing acknowledged is lost.
      const logDir = join(dir, slug, 'log');
      const logged = new Set<string>();
      for (const f of readdirSync(logDir)) {
        for (const e of parseLog(readFileSync(join(logDir, f), 'utf8'), f.slice(0, 10))) logged.add(e.text);
      }
      for (const i of acked.log) expect(logged.has(`message ${i}\nwith a second line`), `message ${i}`).toBe(true);
      const decisions = new Set(snap.layers.decisions.map((d) => d.text));
      for (const i of acked.decision) expect(decisions.has(`decision ${i}`), `decision ${i}`).toBe(true);
      const bodies = (await Promise.all(notes.notes.map((n) => store.readNote(slug, n.path)))).map((n) => n?.body ?? '').join('\n');
      for (const i of acked.note) expect(bodies.includes(`fact ${i}`), `fact ${i}`).toBe(true);
      // The distillation cursor still reads.
      await store.readLogSince(slug, await store.getDistillCursor(slug));
    }
    console.info(`chaos kill -9: ${KILLS} kills, acknowledged ${acked.log.size} log entries, ${acked.decision.size} decisions, ${acked.note.size} notes`);
    expect(acked.log.size).toBeGreaterThan(KILLS);
  }, 120_000);
});
