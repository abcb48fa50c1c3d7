/**
 * A real CalDAV server for tests: Radicale (Debian's `radicale`, installed by .ci/run) on
 * 127.0.0.1, a free port, a temporary storage folder and no authentication. `available` is false
 * where the program is missing, so a test can skip with that reason.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from './web-fixture.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const radicaleAvailable = spawnSync('radicale', ['--version'], { stdio: 'ignore' }).status === 0;

export interface Radicale {
  url: string;
  close(): Promise<void>;
}

export async function startRadicale(): Promise<Radicale> {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-radicale-'));
  const port = await freePort();
  const config = join(dir, 'config');
  writeFileSync(config, `[server]\nhosts = 127.0.0.1:${port}\n[auth]\ntype = none\n[storage]\nfilesystem_folder = ${join(dir, 'collections')}\n[logging]\nlevel = warning\n`);
  const child: ChildProcess = spawn('radicale', ['--config', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const url = `http://127.0.0.1:${port}/`;
  const end = Date.now() + 15_000;
  for (;;) {
    const up = await fetch(url, { signal: AbortSignal.timeout(1000) }).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > end || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`radicale did not start: ${err}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    close: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
