/**
 * Start what is used: loading the composition root (what the terminal chat loads before its
 * prompt) brings in no front door or engine it has not been configured for or asked to use.
 * Each entry below once loaded at start-up; together they were half of its ~1,000 modules.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
/** Prints every module URL the process loaded, once `main` (an expression: its URL) is imported. */
const probe = (main: string) => `
import { registerHooks } from 'node:module';
const main = ${main};
const seen = [];
registerHooks({ load(url, ctx, next) { seen.push(url); return next(url, ctx); } });
await import(main);
process.stdout.write(JSON.stringify(seen));
`;
const ways = [
  // what `npm start` runs: the start-up build of bin/build.mjs (built first if a source changed)
  {
    way: 'the start-up build',
    args: ['--input-type=module', '-e', probe(`(await (await import(${JSON.stringify(pathToFileURL(join(root, 'bin', 'build.mjs')).href)})).ensureBuilt({ log: () => {} })) + '/main.js'`)],
    main: /\/dist\/[^/]+\/main\.js$/,
    // bundled into the build (bin/build.mjs, BUNDLED): none of their modules is loaded one by one
    bundled: ['/chrono-node/', '/node_modules/yaml/'],
  },
  // what the tests and the benchmarks run: the sources through tsx
  { way: 'the sources with tsx', args: ['--import', 'tsx', '--input-type=module', '-e', probe(JSON.stringify(join(root, 'src', 'main.ts')))], main: /\/src\/main\.ts$/, bundled: [] },
];

describe('start-up loads what is used', () => {
  it.each(ways)('importing the composition root ($way) loads no Discord, voice, MCP SDK, backup archiver, SSH, calendar or CSV library or non-English date parser', ({ args, main, bundled }) => {
    const run = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const loaded = JSON.parse(run.stdout) as string[];
    expect(loaded.some((u) => main.test(u))).toBe(true);
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
      // SSH machines, CalDAV / .ics calendars and CSV files load at their first use: 94 modules, about 200 ms of start-up (docs/performance.md)
      '/ssh2/',
      '/tsdav/',
      '/ical.js/',
      '/csv-parse/',
    ];
    const hits = [...forbidden, ...bundled].filter((f) => loaded.some((u) => u.includes(f)));
    expect(hits).toEqual([]);
  });
});
