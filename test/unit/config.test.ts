import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, isLocalHost, loadConfig } from '../../src/config.js';
import { tempDirs } from '../support/temp-dir.js';

const tmp = tempDirs('charlie-config-');

describe('config', () => {
  it('has defaults for a fresh machine', () => {
    const c = loadConfig({}, tmp());
    expect(c.LLM_BASE_URL).toBe('http://localhost:1234/v1');
    expect(c.llmLocal).toBe(true);
    expect(c.PROJECTS_DIR).toBe('./projects');
    expect(c.DISCORD_TOKEN).toBeUndefined();
  });

  it('names the variable and what to do when a value is invalid', () => {
    expect(() => loadConfig({ LLM_BASE_URL: 'localhost:1234' }, tmp())).toThrow(/LLM_BASE_URL: expected a URL.*see \.env\.example/);
    expect(() => loadConfig({ TURN_MAX_STEPS: '0' }, tmp())).toThrow(/TURN_MAX_STEPS/);
    expect(() => loadConfig({ DISCORD_ALLOWED_USERS: 'alice' }, tmp())).toThrow(/DISCORD_ALLOWED_USERS: expected comma-separated numeric Discord ids/);
  });

  it('never echoes a secret in its error', () => {
    try {
      loadConfig({ DISCORD_TOKEN: 'short-secret' }, tmp());
      expect.unreachable();
    } catch (e) {
      expect(String(e)).toMatch(/DISCORD_TOKEN/);
      expect(String(e)).not.toContain('short-secret');
    }
  });

  it('reads .env, and the environment wins', () => {
    const dir = tmp();
    writeFileSync(join(dir, '.env'), '# comment\nLLM_MODEL="qwen"\nLLM_BASE_URL=https://api.example.com/v1 # hosted\nDISTILL_EVERY=7\n');
    const c = loadConfig({ DISTILL_EVERY: '3' }, dir);
    expect(c.LLM_MODEL).toBe('qwen');
    expect(c.DISTILL_EVERY).toBe(3);
    expect(c.llmLocal).toBe(false);
    expect(c.projectsDir).toBe(join(dir, 'projects'));
  });

  it('locality: explicit setting wins, auto decides from the host', () => {
    expect(loadConfig({ LLM_BASE_URL: 'http://192.168.1.20:11434/v1' }, tmp()).llmLocal).toBe(true);
    expect(loadConfig({ LLM_BASE_URL: 'https://api.openai.com/v1', LLM_LOCALITY: 'local' }, tmp()).llmLocal).toBe(true);
    expect(loadConfig({ LLM_LOCALITY: 'hosted' }, tmp()).llmLocal).toBe(false);
    expect(['127.0.0.1', '[::1]', '10.0.0.5', '172.20.1.1', 'box.local'].every(isLocalHost)).toBe(true);
    expect(['8.8.8.8', 'api.openai.com', '172.32.0.1'].some(isLocalHost)).toBe(false);
  });

  it('reads .env lines with export, quotes and comments (node:util parseEnv)', () => {
    const dir = tmp();
    writeFileSync(join(dir, '.env'), "export LLM_MODEL=qwen\nASSISTANT_NAME='Max Power'\n# DISTILL_EVERY=3\nHISTORY_MESSAGES=9 # note\n");
    const c = loadConfig({}, dir);
    expect([c.LLM_MODEL, c.ASSISTANT_NAME, c.DISTILL_EVERY, c.HISTORY_MESSAGES]).toEqual(['qwen', 'Max Power', 5, 9]);
  });

  it('.env.example mirrors the schema, a comment per variable', () => {
    const example = readFileSync('.env.example', 'utf8');
    const documented = [...example.matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);
    expect(documented.sort()).toEqual(Object.keys(configSchema.shape).sort());
    const lines = example.split('\n');
    for (const name of documented) {
      const i = lines.findIndex((l) => l.startsWith(`${name}=`));
      const block = lines.slice(0, i).reverse();
      expect(
        block.findIndex((l) => l.startsWith('#')),
        `${name} has a comment above it`,
      ).toBeLessThan(4);
    }
  });
});
