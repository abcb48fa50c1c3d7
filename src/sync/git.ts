/**
 * The system `git`, run for sync: one repository whose git folder lives in the data folder
 * (`data/sync/repo.git`, device state) and whose work tree is the projects folder, so nothing of
 * git's is ever put inside projects/. Every call has the sync deadline (SYNC_TIMEOUT_MS) and the
 * caller's abort signal; a refusal becomes a SyncError that carries git's own words.
 */
import { execFile } from 'node:child_process';
import { SyncError } from '../core/errors.js';
import { childEnvironment } from '../config.js';

export interface GitOptions {
  gitDir: string;
  workTree: string;
  device: string;
  timeoutMs: number;
  /** core.sshCommand for SSH remotes (SYNC_SSH_COMMAND), e.g. a key of its own. */
  sshCommand?: string;
}

export interface GitRun {
  stdout: string;
  stderr: string;
  code: number;
}

export type Git = (args: readonly string[], o?: { input?: string; ok?: readonly number[]; env?: Record<string, string>; signal?: AbortSignal }) => Promise<GitRun>;

const firstLines = (s: string) => s.trim().split('\n').slice(-4).join(' / ');

export function gitRunner(o: GitOptions): Git {
  const base = [
    '--git-dir',
    o.gitDir,
    '--work-tree',
    o.workTree,
    '-c',
    `user.name=${o.device}`,
    '-c',
    `user.email=${o.device}@charlie.invalid`,
    '-c',
    'core.autocrlf=false',
    '-c',
    'core.quotePath=false',
  ];
  if (o.sshCommand) base.push('-c', `core.sshCommand=${o.sshCommand}`);
  return (args, run = {}) =>
    new Promise((resolve, reject) => {
      const child = execFile(
        'git',
        [...base, ...args],
        {
          cwd: o.workTree,
          timeout: o.timeoutMs,
          maxBuffer: 256 * 1024 * 1024,
          encoding: 'utf8',
          env: childEnvironment({ GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...run.env }),
          ...(run.signal ? { signal: run.signal } : {}),
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
          if (error && (error.killed || error.signal || error.name === 'AbortError'))
            reject(new SyncError(`git ${args[0] ?? ''} did not finish within ${String(o.timeoutMs)} ms (SYNC_TIMEOUT_MS): ${firstLines(stderr)}`, 'timeout', { cause: error }));
          else if (code !== 0 && !(run.ok ?? []).includes(code))
            reject(new SyncError(`git ${args.join(' ').slice(0, 120)} failed (${String(code)}): ${firstLines(stderr || stdout)}`, 'engine', { cause: error }));
          else resolve({ stdout, stderr, code });
        },
      );
      if (run.input !== undefined) child.stdin?.end(run.input);
    });
}
