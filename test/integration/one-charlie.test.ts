/**
 * One Charlie per data folder, with real processes: a second one on the same folder is refused
 * with a message naming the first; once the first is killed (-9, no clean-up) its lock is stale
 * and taken over. A restore killed halfway leaves a staging copy beside the data folder: the
 * next restore (and the next start) removes it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataFolderInUseError, LOCK_FILE, lockDataFolder } from '../../src/app/data-lock.js';
import { writeBackup } from '../../src/backup/backup-file.js';
import { removeStaleRestores, restoreBackup } from '../../src/backup/restore-file.js';

const ROOT = join(import.meta.dirname, '..', '..');
const roots: string[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

async function tempRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'charlie-one-'));
  roots.push(root);
  return root;
}

/** Starts a process that takes the data folder; resolves with its first line (locked / refused: …). */
function second(dataDir: string): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--import', 'tsx', 'test/support/data-lock-worker.ts', dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve({ child, line: out.split('\n')[0] ?? '' });
    });
    child.once('exit', (code) => (out.includes('\n') ? undefined : reject(new Error(`the worker exited (${String(code)}) saying nothing`))));
  });
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

describe('one Charlie per data folder', () => {
  it('refuses a second process while the first runs, and takes over the lock of one killed with -9', async () => {
    const dataDir = join(await tempRoot(), 'data');
    await mkdir(dataDir);
    const first = await second(dataDir);
    expect(first.line).toBe('locked');
    const pid = first.child.pid ?? 0;

    // this process, and another process, are both refused, each told who has the folder
    expect(() => lockDataFolder(dataDir)).toThrow(DataFolderInUseError);
    expect(() => lockDataFolder(dataDir)).toThrow(new RegExp(`another Charlie \\(pid ${String(pid)} .*is using the data folder ${dataDir}`));
    const other = await second(dataDir);
    expect(other.line).toMatch(new RegExp(`^refused: another Charlie \\(pid ${String(pid)} `));
    await exited(other.child);
    expect(other.child.exitCode).toBe(3);

    // kill -9: the lock stays behind, stale; the next Charlie takes it over
    first.child.kill('SIGKILL');
    await exited(first.child);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(true);
    const lock = lockDataFolder(dataDir);
    expect(lock.tookOver?.pid).toBe(pid);
    lock.release();
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  }, 60_000);

  it('a lock cut short by a crash is taken over once it is old, and one being written now is not', async () => {
    const dataDir = join(await tempRoot(), 'data');
    await mkdir(dataDir);
    await writeFile(join(dataDir, LOCK_FILE), '');
    expect(() => lockDataFolder(dataDir)).toThrow(/being taken by another Charlie at this moment/);
    await utimes(join(dataDir, LOCK_FILE), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const lock = lockDataFolder(dataDir);
    expect(lock.tookOver).toBeNull();
    lock.release();
  });
});

describe('restore cleans up after itself', () => {
  it('removes the staging copy a restore killed halfway left, and keeps a live one', async () => {
    const root = await tempRoot();
    const source = { projectsDir: join(root, 'src-projects'), dataDir: join(root, 'src-data') };
    await mkdir(join(source.projectsDir, 'general', 'notes'), { recursive: true });
    await writeFile(join(source.projectsDir, 'general', 'notes', 'A.md'), '# A\n');
    await mkdir(source.dataDir, { recursive: true });
    const file = join(root, 'backup.tar.gz');
    await writeBackup({ ...source, out: file, now: new Date('2026-12-01T10:00:00Z') });

    // a restore killed with -9 leaves its staging folder (named with its pid) beside the data folder
    const target = { projectsDir: join(root, 'restored', 'projects'), dataDir: join(root, 'restored', 'data') };
    const gone = spawn(process.execPath, ['-e', '']); // a pid whose process has ended
    await exited(gone);
    const stale = join(root, 'restored', `.charlie-restore-${String(gone.pid)}-AbCdEf`);
    const live = join(root, 'restored', `.charlie-restore-${String(process.pid)}-GhIjKl`);
    for (const dir of [stale, live]) {
      await mkdir(join(dir, 'projects'), { recursive: true });
      await writeFile(join(dir, 'projects', 'half.md'), 'half');
    }
    await restoreBackup({ file, ...target });
    const left = (await readdir(join(root, 'restored'))).filter((n) => n.startsWith('.charlie-restore-'));
    expect(left).toEqual([`.charlie-restore-${String(process.pid)}-GhIjKl`]);
    expect(await removeStaleRestores(target.dataDir)).toEqual([]);
  }, 60_000);
});
