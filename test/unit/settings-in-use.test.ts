/**
 * Settings tell what is really in use: an embedder that fell back is named as the built-in one,
 * with why the configured one did not load (no path of this machine); a speech model that is not
 * installed is "not available". DATA_DIR/settings.json wins over .env, drops a .env key meant for
 * another server, and a damaged one is refused with its name.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { settingsView } from '../../src/web/settings.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'charlie-in-use-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({ DATA_DIR: join(root, 'data'), PROJECTS_DIR: join(root, 'projects'), ...extra });

describe('what Settings shows as in use', () => {
  it('names the built-in embedder and why the configured model failed to load', () => {
    const config = loadConfig(env({ EMBEDDER: 'transformers' }), root);
    const item = settingsView(config, [], { embedderFallback: 'Xenova/all-MiniLM-L6-v2 is not in /home/ann/charlie/data/models and may not be downloaded' }).items.find((i) =>
      i.job.startsWith('Finds related'),
    );
    expect(item).toMatchObject({ what: 'built-in embedder (by wording, not meaning)', where: 'this machine' });
    expect(item?.why).toMatch(/^the configured model Xenova\/all-MiniLM-L6-v2 failed to load: Xenova\/all-MiniLM-L6-v2 is not in .* and may not be downloaded$/);
    expect(item?.why).not.toContain('/home/ann');
    // in use as configured: the model, no fallback named
    expect(settingsView(config).items.find((i) => i.job.startsWith('Finds related'))?.what).toBe('Xenova/all-MiniLM-L6-v2');
  });

  it('shows a speech model that is not installed as not available, with what to do', () => {
    const config = loadConfig(env(), root);
    const item = settingsView(config, [], {
      listening: { available: false, reason: 'The speech-to-text model is not installed on this machine.', fix: 'Install it with: npm run models -- pull whisper' },
    }).items.find((i) => i.job === 'Understands speech');
    expect(item).toMatchObject({ what: 'not available', why: 'The speech-to-text model is not installed on this machine. — Install it with: npm run models -- pull whisper' });
  });
});

describe('DATA_DIR/settings.json', () => {
  const write = (text: string) => {
    writeFileSync(join(root, 'data', 'settings.json'), text);
  };
  beforeEach(() => {
    mkdirSync(join(root, 'data'), { recursive: true });
  });

  it('wins over the environment, and a key of .env is not sent to the server it names', () => {
    write(JSON.stringify({ schema: 1, settings: { LLM_BASE_URL: 'http://192.168.1.9:1234/v1', TTS: 'local' }, updated: '2026-12-06T10:00:00Z' }));
    const config = loadConfig(env({ LLM_BASE_URL: 'https://api.example.com/v1', LLM_API_KEY: 'sk-for-example-com', TTS: 'edge' }), root);
    expect(config).toMatchObject({ LLM_BASE_URL: 'http://192.168.1.9:1234/v1', TTS: 'local', fromSettingsFile: ['LLM_BASE_URL', 'TTS'], llmLocal: true });
    expect(config.LLM_API_KEY).toBeUndefined();
    // without the file (another data folder): .env as it is
    const plain = loadConfig(env({ DATA_DIR: join(root, 'other'), LLM_API_KEY: 'sk-kept' }), root);
    expect(plain).toMatchObject({ fromSettingsFile: [], LLM_API_KEY: 'sk-kept' });
  });

  it('refuses a damaged file with its name, and one that sets anything else', () => {
    write('{ not json');
    expect(() => loadConfig(env(), root)).toThrow(/settings\.json is damaged .*delete it to go back to \.env/);
    write(JSON.stringify({ schema: 1, settings: { DISCORD_TOKEN: 'x' }, updated: 'now' }));
    expect(() => loadConfig(env(), root)).toThrow(/damaged/);
  });
});
