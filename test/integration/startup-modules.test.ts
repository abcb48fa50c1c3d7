/**
 * Start what is used: loading the composition root (what the terminal chat loads before its
 * prompt) brings in no front door or engine it has not been configured for or asked to use.
 * Each entry below once loaded at start-up; together they were half of its ~1,000 modules.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
/** Prints every module URL the process loaded, once src/main.ts is imported. */
const probe = `
import { registerHooks } from 'node:module';
const seen = [];
registerHooks({ load(url, ctx, next) { seen.push(url); return next(url, ctx); } });
await import(${JSON.stringify(join(root, 'src', 'main.ts'))});
process.stdout.write(JSON.stringify(seen));
`;

describe('start-up loads what is used', () => {
  it('importing the composition root loads no Discord, voice, MCP SDK, backup archiver or non-English date parser', () => {
    const run = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', '--import', 'tsx', '--input-type=module', '-e', probe], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const loaded = JSON.parse(run.stdout) as string[];
    expect(loaded.some((u) => u.includes('/src/main.ts'))).toBe(true);
    const forbidden = [
      '/discord.js/',
      '/@discordjs/',
      '/@modelcontextprotocol/',
      '/age-encryption/',
      '/tar-stream/',
      '/chrono-node/dist/esm/locales/de/',
      '/@lancedb/',
      '/edge-tts-universal/',
      '/@huggingface/',
    ];
    const hits = forbidden.filter((f) => loaded.some((u) => u.includes(f)));
    expect(hits).toEqual([]);
  });
});
