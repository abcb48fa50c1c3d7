/**
 * A PROJECTS_DIR or DATA_DIR that cannot be created, or that exists but cannot be written to,
 * ends start-up with what, where and why (the error's code), not a raw mkdir stack or a later
 * ENOENT from a store.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { buildApp } from '../../src/main.js';
import { tempDirs } from '../support/temp-dir.js';

const tempDir = tempDirs('charlie-folders-');

describe('start-up folders', () => {
  it.each(['PROJECTS_DIR', 'DATA_DIR'])('%s under a file: a ConfigError that names the setting and the path', async (setting) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a-file'), 'x');
    const bad = join(dir, 'a-file', 'inside');
    const env = { PROJECTS_DIR: join(dir, 'projects'), DATA_DIR: join(dir, 'data'), EMBEDDER: 'builtin', WEB_PORT: '0', WATCH_PROJECTS: 'false', [setting]: bad };
    const started = buildApp(loadConfig(env, dir), silentLogger);
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toThrow(`${setting}=${bad} cannot be created (a part of that path is a file)`);
  });

  it('an existing folder Charlie may not write to: says so, with the path and EACCES', () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    const projects = join(dir, 'projects');
    mkdirSync(projects);
    chmodSync(projects, 0o555);
    // root writes anywhere: the check runs as an unprivileged user (nobody), as Charlie would
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const code = `import { makeFolder } from ${JSON.stringify(join(import.meta.dirname, '..', '..', 'src', 'app', 'startup.ts'))};
try { makeFolder('PROJECTS_DIR', ${JSON.stringify(projects)}); console.log('made'); } catch (e) { console.log(e.constructor.name, e.message); }`;
    const run = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', '--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: join(import.meta.dirname, '..', '..'),
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, HOME: dir, TSX_TSCONFIG_PATH: join(import.meta.dirname, '..', '..', 'tsconfig.json') },
      ...asUser,
    });
    expect(run.stdout.trim(), run.stderr).toBe(
      `ConfigError PROJECTS_DIR=${projects} cannot be written to (no permission to write in it (EACCES)): point PROJECTS_DIR at a folder Charlie may write to`,
    );
  });
});
