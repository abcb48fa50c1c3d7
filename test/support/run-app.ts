/**
 * Runs the real app as `npm start` does (`bin/charlie.mjs`: the start-up build of the sources,
 * built first if a source changed) in a child process with piped input,
 * offline: no Discord token, the built-in embedder, and a model URL where nothing listens
 * unless one is given. For tests of start-up and of what a person sees.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

export interface AppRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runApp(env: Record<string, string>, input: string, timeoutMs = 60_000): Promise<AppRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'bin/charlie.mjs'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        EMBEDDER: 'builtin',
        WATCH_PROJECTS: 'false',
        LLM_BASE_URL: 'http://127.0.0.1:9/v1',
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the app did not exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}
