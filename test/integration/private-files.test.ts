/**
 * Files are private by default: Charlie started on an empty data folder (its web app on, so
 * the owner token and session secret are written, and one DM answered, so private.db holds a
 * row) leaves the data folder and every folder in it 0700 and every file 0600 — databases,
 * their -wal files, the token, the logs, the index. An older install (0644 files in a 0755
 * folder) is tightened at start, and a restore gives the same modes.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startWebApp } from '../../src/app/web-door.js';
import { writeBackup } from '../../src/backup/backup-file.js';
import { restoreBackup } from '../../src/backup/restore-file.js';
import { loadConfig } from '../../src/config.js';
import { dataFiles } from '../../src/data-files.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { buildApp } from '../../src/main.js';
import { startFakeModelServer } from '../support/fake-model-server.js';
import { tempDirs } from '../support/temp-dir.js';
import { freePort, offlineAppEnv } from '../support/web-fixture.js';

const tempDir = tempDirs('charlie-private-files-');
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

const mode = (path: string) => (lstatSync(path).mode & 0o777).toString(8);

/** Every path under `dir` (and `dir`) whose mode is not 0700 (folders) or 0600 (files). */
function loose(dir: string): string[] {
  const out = mode(dir) === '700' ? [] : [`. ${mode(dir)}`];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(e.parentPath, e.name);
    if (e.isSymbolicLink()) continue;
    const want = e.isDirectory() ? '700' : '600';
    if (mode(path) !== want) out.push(`${relative(dir, path)} ${mode(path)}`);
  }
  return out;
}

async function start(root: string) {
  const model = await startFakeModelServer([{ text: 'Noted.' }]);
  closers.push(() => model.close());
  const config = loadConfig({ ...offlineAppEnv(model.url, join(root, 'projects'), join(root, 'data')), WEB_PORT: String(await freePort()), TTS: 'local' }, root);
  const app = await buildApp(config, silentLogger);
  const web = await startWebApp(config, app, silentLogger, {}, new Writable({ write: (_c, _e, done) => done() }));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await web?.close();
    await app.close();
  };
  closers.push(stop);
  await app.assistant.conversation.handle({ place: { kind: 'private', userId: '111', userName: 'Dana' }, speaker: 'Dana', text: 'my locker code is 4411', source: 'dm:1' });
  return { app, config, stop };
}

describe('files are private by default', () => {
  it('first start on an empty data folder: the folder 0700, every file 0600', async () => {
    const root = tempDir();
    const { config } = await start(root);
    const files = dataFiles(config.dataDir);
    // the ones the issue names exist, so the walk below is not vacuous
    for (const f of [files.private, files.schedule, files.usage, files.webToken, files.webSecret]) expect(statSync(f).isFile(), f).toBe(true);
    expect(loose(config.dataDir)).toEqual([]);
  }, 60_000);

  it('an older install (0644 in 0755) is tightened at start', async () => {
    const root = tempDir();
    const data = join(root, 'data');
    mkdirSync(join(data, 'web'), { recursive: true, mode: 0o755 });
    chmodSync(data, 0o755);
    writeFileSync(join(data, 'web', 'owner-token'), 'an-old-owner-token-of-enough-length\n', { mode: 0o644 });
    writeFileSync(join(data, 'notes.json'), '{}', { mode: 0o644 });
    expect(loose(data).length).toBeGreaterThan(0);
    const { config } = await start(root);
    expect(loose(config.dataDir)).toEqual([]);
  }, 60_000);

  it('a restore gives the same modes', async () => {
    const root = tempDir();
    const { config, stop } = await start(root);
    await stop();
    const out = join(root, 'backups', 'b.tar.gz');
    await writeBackup({ projectsDir: config.projectsDir, dataDir: config.dataDir, out, now: new Date() });
    const target = tempDir();
    await restoreBackup({ file: out, projectsDir: join(target, 'projects'), dataDir: join(target, 'data') });
    expect(statSync(join(target, 'data', 'private.db')).isFile()).toBe(true);
    expect(loose(join(target, 'data'))).toEqual([]);
  }, 60_000);
});
