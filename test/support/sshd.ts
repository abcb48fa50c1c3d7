/**
 * A real OpenSSH server for tests, on 127.0.0.1 and a free port, with its own host key and config
 * in a temp folder: one test user that logs in with a key (with a passphrase) or a password.
 * Needs Debian's openssh-server (.ci/run installs it) and root (to make the user and run sshd);
 * `sshdMissing()` names what is missing so a test can skip with that reason.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

const SSHD = '/usr/sbin/sshd';
export const TEST_USER = 'charlie-ssh-test';

export function sshdMissing(): string | null {
  if (!existsSync(SSHD)) return `${SSHD} is not installed (apt-get install openssh-server)`;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'not root: the test cannot make its SSH user or run sshd';
  return null;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  await new Promise<void>((r) => server.close(() => r()));
  return typeof address === 'object' && address ? address.port : 0;
}

export interface TestSshd {
  port: number;
  user: string;
  password: string;
  privateKey: string;
  passphrase: string;
  /** `SHA256:…` of the server's host key, as ssh-keygen -l shows it. */
  fingerprint: string;
  dir: string;
  /** Starts the server again on the same port with a new host key. */
  rekey(): Promise<void>;
  stop(): Promise<void>;
}

function keygen(path: string, passphrase: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', 'charlie-test', '-f', path]);
}

function fingerprintOf(pub: string): string {
  return /SHA256:[A-Za-z0-9+/]+/.exec(execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', pub], { encoding: 'utf8' }))?.[0] ?? '';
}

/** The test user, made once (idempotent) with a fresh password each run. */
function ensureUser(password: string): void {
  try {
    execFileSync('id', [TEST_USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['-M', '-d', '/tmp', '-s', '/bin/sh', TEST_USER]);
  }
  execFileSync('chpasswd', { input: `${TEST_USER}:${password}\n` });
}

async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`sshd exited (${child.exitCode}): ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`sshd did not listen on ${port}: ${log()}`);
}

export async function startSshd(dir: string): Promise<TestSshd> {
  mkdirSync('/run/sshd', { recursive: true });
  // sshd reads authorized_keys as the test user: it must be able to walk to it
  chmodSync(dirname(dir), 0o755);
  chmodSync(dir, 0o755);
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  const passphrase = `pp-${randomBytes(9).toString('base64url')}`;
  ensureUser(password);
  keygen(join(dir, 'client_key'), passphrase);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_key.pub')));
  chmodSync(join(dir, 'authorized_keys'), 0o644);
  const port = await freePort();
  let generation = 0;
  let child: ChildProcess | null = null;
  let stderr = '';
  const state = { fingerprint: '' };
  const start = async () => {
    generation++;
    const hostKey = join(dir, `host_key_${generation}`);
    keygen(hostKey, '');
    state.fingerprint = fingerprintOf(`${hostKey}.pub`);
    const config = [
      `HostKey ${hostKey}`,
      'ListenAddress 127.0.0.1',
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'UsePAM no',
      'StrictModes no',
      'PermitRootLogin no',
      `AllowUsers ${TEST_USER}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'Subsystem sftp internal-sftp',
      'LogLevel VERBOSE',
    ].join('\n');
    writeFileSync(join(dir, 'sshd_config'), `${config}\n`);
    child = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config'), '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    await listening(port, child, () => stderr);
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((r) => {
      c.once('exit', () => r());
      c.kill('SIGTERM');
    });
  };
  await start();
  return {
    port,
    user: TEST_USER,
    password,
    privateKey: readFileSync(join(dir, 'client_key'), 'utf8'),
    passphrase,
    get fingerprint() {
      return state.fingerprint;
    },
    dir,
    rekey: async () => {
      await stop();
      await start();
    },
    stop,
  };
}
