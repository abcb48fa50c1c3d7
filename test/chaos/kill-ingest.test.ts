/**
 * Chaos (issue 26): kill -9 while a big CSV is being ingested. A child process runs the real
 * IngestService over a 30,000-row file generated here (never committed); it is SIGKILLed at a
 * random moment (seeded: the seed and the moment are printed), restarted, and the records it
 * wrote must equal a clean run's — none twice, none missing. In the same runs, another project's
 * small inbox file is read while the big one is still part-way (one huge file starves no one).
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../scripts/bench-util.js';

const ROOT = join(import.meta.dirname, '../..');
const SEED = 20261201;
// 30,000 rows are 100 batches of 300: enough moments to kill at; 200,000 took 217 s of the suite
const ROWS = 30_000;
/** The worker's stand-in model makes one fact of every 1000th row. */
const FACTS = ROWS / 1000;
let root: string;

async function seedProjects(dir: string): Promise<void> {
  await mkdir(join(dir, 'big', 'inbox'), { recursive: true });
  await mkdir(join(dir, 'small', 'inbox'), { recursive: true });
  await writeFile(join(dir, 'small', 'inbox', 'note.txt'), 'Remember that the boiler is serviced on 3 March.\n');
  const out = createWriteStream(join(dir, 'big', 'inbox', 'rows.csv'));
  out.write('id,name,note\n');
  for (let i = 1; i <= ROWS; i++) if (!out.write(`${String(i)},"Item ${String(i)}","a note, with a comma"\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

interface Run {
  lines: string[];
  killed: boolean;
  ms: number;
}

/** Runs the worker to its end, or until `killAfterMs` after it is ready, then SIGKILL. */
function runWorker(dir: string, killAfterMs?: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--import', 'tsx', 'test/chaos/ingest-worker.ts', dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (killAfterMs !== undefined && out.startsWith('ready\n') && !child.killed) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const lines = out.split('\n').filter(Boolean);
      if (signal === 'SIGKILL') resolve({ lines, killed: true, ms: performance.now() - started });
      else if (code === 0) resolve({ lines, killed: false, ms: performance.now() - started });
      else reject(new Error(`the worker failed (${String(code)}): ${err}`));
    });
  });
}

/** Every typed record line on a project's pages, by statement. */
async function statements(dir: string, project: string): Promise<string[]> {
  const notes = join(dir, project, 'notes');
  const files = (await readdir(notes, { recursive: true })).filter((f) => f.endsWith('.md') && !f.startsWith('_'));
  const out: string[] = [];
  for (const f of files)
    for (const line of (await readFile(join(notes, f), 'utf8')).split('\n')) if (/\^r-[0-9a-f]+$/.test(line)) out.push(line.replace(/ \[said:: [^\]]*\]/, '').replace(/ \^r-[0-9a-f]+$/, ''));
  return out.sort();
}

const progressDone = async (dir: string) => {
  const text = await readFile(join(dir, 'big', 'inbox', '.progress.json'), 'utf8').catch(() => null);
  return text === null ? null : ((JSON.parse(text) as Record<string, { done: number }>)['rows.csv']?.done ?? null);
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'charlie-chaos-ingest-'));
  await seedProjects(join(root, 'clean'));
  await cp(join(root, 'clean'), join(root, 'killed'), { recursive: true });
}, 120_000);
afterAll(async () => rm(root, { recursive: true, force: true }));

describe('kill -9 while a 30,000-row CSV is ingested', () => {
  it(`resumes from its checkpoint and ends with exactly a clean run's records (seed ${String(SEED)})`, async () => {
    const clean = join(root, 'clean');
    const killedDir = join(root, 'killed');
    const reference = await runWorker(clean);
    expect(reference.lines.at(-1)).toBe('done');
    // the small project's file was read while the big one was part-way
    const small = reference.lines.find((l) => l.startsWith('small '));
    expect(small).toBeDefined();
    const bigDoneThen = Number(small!.split(' ')[1]);
    expect(bigDoneThen).toBeGreaterThanOrEqual(0);
    expect(bigDoneThen).toBeLessThan(ROWS / 10);
    expect(reference.lines.indexOf(small!)).toBeLessThan(reference.lines.indexOf('done'));
    expect((await statements(clean, 'small')).join('\n')).toContain('the boiler is serviced on 3 March');
    const want = await statements(clean, 'big');
    expect(want).toHaveLength(FACTS);
    expect(new Set(want).size).toBe(FACTS);

    // a moment between 15% and 85% of a clean run, from the seed
    const killAfterMs = Math.round((0.15 + 0.7 * mulberry32(SEED)()) * reference.ms);
    console.log(`kill -9 ingest: seed ${String(SEED)}, killed ${String(killAfterMs)} ms after ready (a clean run took ${String(Math.round(reference.ms))} ms)`);
    const first = await runWorker(killedDir, killAfterMs);
    expect(first.killed).toBe(true);
    expect(first.lines).not.toContain('done');
    const doneAtKill = await progressDone(killedDir);
    console.log(`  checkpoint at the kill: ${String(doneAtKill)} of ${String(ROWS)} rows`);
    expect(doneAtKill).toBeGreaterThan(0);
    expect(doneAtKill).toBeLessThan(ROWS);

    const second = await runWorker(killedDir);
    expect(second.lines.at(-1)).toBe('done');
    expect(await progressDone(killedDir)).toBeNull();
    expect(await statements(killedDir, 'big')).toEqual(want);
    expect(await readFile(join(killedDir, 'big', 'notes', '_log.md'), 'utf8')).toMatch(new RegExp(`ingested inbox/rows\\.csv — sha256 [0-9a-f]{64}, ${String(ROWS)} items`));
    expect(await statements(killedDir, 'small')).toEqual(await statements(clean, 'small'));
  }, 900_000);
});
