/**
 * Two (or more) Charlie devices for the sync tests: each its own projects and data folders and
 * settings read by the real loadConfig, syncing through a real git remote (a local bare
 * repository, one over a local SSH server, or a gcrypt-encrypted one).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { createSync } from '../../src/sync/create.js';
import type { GitSync } from '../../src/sync/git-sync.js';
import { readTree } from './temp-dir.js';

export interface Device {
  name: string;
  projectsDir: string;
  dataDir: string;
  env: Record<string, string>;
  config: Config;
  sync: GitSync;
  write(path: string, text: string): void;
  append(path: string, text: string): void;
  read(path: string): string;
  /** The synced memory: every file git carries, by path. */
  memory(): Map<string, string>;
}

export function makeDevice(root: string, name: string, env: Record<string, string>): Device {
  const projectsDir = join(root, name, 'projects');
  const dataDir = join(root, name, 'data');
  mkdirSync(projectsDir, { recursive: true });
  const full = { PROJECTS_DIR: projectsDir, DATA_DIR: dataDir, SYNC_DEVICE: name, SYNC_TIMEOUT_MS: '60000', ...env };
  const config = loadConfig(full, join(root, name));
  const file = (p: string) => join(projectsDir, p);
  return {
    name,
    projectsDir,
    dataDir,
    env: full,
    config,
    sync: createSync(config),
    write(p, text) {
      mkdirSync(dirname(file(p)), { recursive: true });
      writeFileSync(file(p), text);
    },
    append(p, text) {
      mkdirSync(dirname(file(p)), { recursive: true });
      writeFileSync(file(p), (existsSync(file(p)) ? readFileSync(file(p), 'utf8') : '') + text);
    },
    read: (p) => readFileSync(file(p), 'utf8'),
    memory() {
      const out = new Map<string, string>();
      const tracked = execFileSync('git', ['--git-dir', join(dataDir, 'sync', 'repo.git'), '--work-tree', projectsDir, 'ls-files', '-z'], { cwd: projectsDir, encoding: 'utf8' });
      const all = readTree(projectsDir);
      for (const p of tracked.split('\0').filter(Boolean)) out.set(p, all.get(p) ?? '<missing>');
      return out;
    },
  };
}

/** Runs one sync of `d` in a child process (for kill -9). */
export function syncChild(d: Device): ChildProcess {
  return spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--import', 'tsx', join(import.meta.dirname, 'sync-child.ts')], {
    env: { ...process.env, ...d.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

/** Why the SSH suite cannot run here, or null. */
export function sshMissing(): string | null {
  if (process.getuid?.() !== 0) return 'the local SSH server needs root (it logs in as root with a key of its own)';
  if (!existsSync('/usr/sbin/sshd')) return 'openssh-server is not installed (/usr/sbin/sshd)';
  return null;
}

/** A local sshd on 127.0.0.1 with its own host key, letting in one key of its own; returns the ssh command for git. */
export async function startSshd(dir: string): Promise<{ port: number; sshCommand: string; stop: () => void }> {
  mkdirSync('/run/sshd', { recursive: true });
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'client_key')]);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_key.pub')));
  const port = await freePort();
  const config = [
    `HostKey ${join(dir, 'host_key')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    'PermitRootLogin prohibit-password',
    'PasswordAuthentication no',
    'StrictModes no',
    'UsePAM no',
    `PidFile ${join(dir, 'sshd.pid')}`,
    'ListenAddress 127.0.0.1',
  ].join('\n');
  writeFileSync(join(dir, 'sshd_config'), `${config}\n`);
  const sshd = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', join(dir, 'sshd_config'), '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  sshd.stderr.on('data', (b: Buffer) => (log += b.toString()));
  const sshCommand = `ssh -i ${join(dir, 'client_key')} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR -o ControlMaster=auto -o ControlPath=${join(dir, 'cm-%C')} -o ControlPersist=120`;
  for (let i = 0; i < 100; i++) {
    try {
      execFileSync('sh', ['-c', `${sshCommand} -p ${String(port)} root@127.0.0.1 true`], { stdio: 'ignore', timeout: 5000 });
      return {
        port,
        sshCommand,
        stop: () => {
          spawn('sh', ['-c', `${sshCommand} -O exit -p ${String(port)} root@127.0.0.1`], { stdio: 'ignore' });
          sshd.kill();
        },
      };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  sshd.kill();
  throw new Error(`sshd did not start: ${log}`);
}

/** A GPG home with one key that has no passphrase (for the encrypted remote); returns its fingerprint. */
export function makeGpgKey(home: string): string {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const gpg = (...args: string[]) => execFileSync('gpg', ['--homedir', home, '--batch', '--passphrase', '', ...args], { stdio: 'pipe' });
  gpg('--quick-gen-key', 'Charlie Sync Test <sync@charlie.invalid>', 'ed25519', 'sign', 'never');
  const fpr = /^fpr:+([0-9A-F]{40}):/m.exec(execFileSync('gpg', ['--homedir', home, '--list-keys', '--with-colons'], { encoding: 'utf8' }))?.[1] ?? '';
  gpg('--quick-add-key', fpr, 'cv25519', 'encr', 'never');
  return fpr;
}

/** Why the encrypted-remote test cannot run here, or null. */
export function gcryptMissing(): string | null {
  for (const tool of ['git-remote-gcrypt', 'gpg'])
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      return `${tool} is not installed (apt-get install git-remote-gcrypt gnupg)`;
    }
  return null;
}
