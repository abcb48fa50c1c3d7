/**
 * A password or key inside any URL setting never reaches what people see: doctor's lines and
 * fixes, start-up's notices, errors, and log records. The settings come from the config schema
 * itself, so a URL setting added later is covered without touching this test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema, loadConfig } from '../../src/config.js';
import { runParts } from '../../src/doctor/check.js';
import { doctorParts } from '../../src/doctor/parts.js';
import { buildApp } from '../../src/main.js';
import { recordingLogger } from '../support/recording-logger.js';

const SECRET = 'CanaryPass9f31';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Every setting whose name says it holds a URL. */
const URL_SETTINGS = Object.keys(configSchema.shape).filter((k) => /_URL$/.test(k));

describe('credentials in URL settings', () => {
  it('covers the URL settings the schema has', () => {
    expect(URL_SETTINGS).toEqual(expect.arrayContaining(['LLM_BASE_URL', 'MEMORY_LLM_BASE_URL', 'EMBEDDING_BASE_URL', 'STT_BASE_URL']));
  });

  it.each(URL_SETTINGS)(
    '%s: never in doctor output, start-up notices, errors or logs',
    async (key) => {
      const dir = mkdtempSync(join(tmpdir(), 'charlie-urlcred-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      // a closed port on this machine: every probe fails fast, and every failure is reported
      const withSecret = `http://owner:${SECRET}@127.0.0.1:9/v1?api_key=${SECRET}`;
      const env: Record<string, string> = {
        PROJECTS_DIR: join(dir, 'projects'),
        DATA_DIR: join(dir, 'data'),
        EMBEDDER: key === 'EMBEDDING_BASE_URL' ? 'openai' : 'builtin',
        TTS: 'local',
        WEB_PORT: '0',
        WATCH_PROJECTS: 'false',
        LLM_BASE_URL: 'http://127.0.0.1:9/v1',
        LLM_MAX_RETRIES: '0',
        [key]: withSecret,
      };
      let config;
      try {
        config = loadConfig(env, dir);
      } catch (err) {
        // refused by the schema (a hosted memory lane…): the refusal must not show the secret either
        expect(String(err)).not.toContain(SECRET);
        return;
      }
      const shown: string[] = [];
      const results = await runParts(doctorParts({ ok: true, config }, { cwd: dir, loadCommands: async () => [] }), () => {});
      shown.push(JSON.stringify(results));
      const logs: string[] = [];
      try {
        const app = await buildApp(config, recordingLogger(logs));
        cleanups.push(() => app.close());
        shown.push(JSON.stringify(app.notices));
      } catch (err) {
        shown.push(String(err), (err as Error).stack ?? '');
      }
      shown.push(...logs);
      const all = shown.join('\n');
      const at = all.indexOf(SECRET);
      expect(at < 0 ? '' : all.slice(Math.max(0, at - 300), at + 50)).toBe('');
    },
    60_000,
  );
});
