/** A PROJECTS_DIR or DATA_DIR that cannot be created ends start-up with what and where, not a raw mkdir stack. */
import { writeFileSync } from 'node:fs';
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
});
