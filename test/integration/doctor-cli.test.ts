import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function runDoctor(cwd: string, env: Record<string, string>, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = resolve('scripts/doctor.ts');
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--import', import.meta.resolve('tsx'), script, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

describe('npm run doctor (the script, as a user runs it)', () => {
  it('with no model server and nothing configured: says what to do, JSON on request, exit code 1', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'charlie-doctor-cli-'));
    dirs.push(cwd);
    // builtin embedder and the local voice: nothing in this test may try the network
    const env = { LLM_BASE_URL: `http://127.0.0.1:${String(await closedPort())}/v1`, EMBEDDER: 'builtin', TTS: 'local', STT_ALLOW_DOWNLOAD: 'false', WEB_PORT: String(await closedPort()) };
    const { code, stdout, stderr } = await runDoctor(cwd, env, ['--json']);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { ok: boolean; checks: { name: string; status: string; detail: string; fix?: string }[] };
    expect(report.ok).toBe(false);
    const by = (name: string) => report.checks.find((c) => c.name === name);
    expect(by('config: settings')?.status).toBe('ok');
    expect(by('config: front doors')?.detail).toMatch(/^npm start opens the terminal chat \(no DISCORD_TOKEN\) and the web app on 127\.0\.0\.1:\d+/);
    expect(by('web app: port')?.status).toBe('ok');
    expect(by('chat lane: server')?.status).toBe('fail');
    expect(by('chat lane: server')?.fix).toMatch(/start the server \(LM Studio/);
    expect(by('discord')?.status).toBe('skip');
    expect(by('embedder')?.status).toBe('ok');
    expect(by('text to speech: local voice (fallback)')?.status).toBe('ok');
    expect(by('speech to text')?.status).toBe('fail');
    expect(by('storage: projects/')?.status).toBe('ok');
    expect(report.checks.filter((c) => c.status === 'fail').every((c) => (c.fix ?? '').length > 0)).toBe(true);
  }, 60_000);

  it('an invalid setting is one failing line naming the variable, and nothing else runs', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'charlie-doctor-cli-'));
    dirs.push(cwd);
    const { code, stdout } = await runDoctor(cwd, { LLM_TIMEOUT_MS: 'soon' }, []);
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAIL {2}config: settings: invalid configuration: LLM_TIMEOUT_MS: .*\(got "soon"\)/);
    expect(stdout).toContain('→ fix the named variables in .env');
    expect(stdout).not.toContain('chat lane');
  }, 60_000);
});
