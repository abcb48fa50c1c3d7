/**
 * Start what is used: loading the composition root (what the terminal chat loads before its
 * prompt) brings in no front door or engine it has not been configured for or asked to use.
 * Each entry below once loaded at start-up; together they were half of its ~1,000 modules.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startFakeModelServer } from '../support/fake-model-server.js';
import { tempDirs } from '../support/temp-dir.js';

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
    bundled: ['/chrono-node/', '/node_modules/yaml/', '/node_modules/zod/'],
  },
  // what the tests and the benchmarks run: the sources through tsx
  { way: 'the sources with tsx', args: ['--import', 'tsx', '--input-type=module', '-e', probe(JSON.stringify(join(root, 'src', 'main.ts')))], main: /\/src\/main\.ts$/, bundled: [] },
];

describe('start-up loads what is used', () => {
  it.each(ways)(
    'importing the composition root ($way) loads no Discord, voice, MCP SDK, backup archiver, SSH, calendar or CSV library or non-English date parser, nor one by one what the build bundles',
    ({ args, main, bundled }) => {
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
    },
  );
});

/**
 * Preloaded into the terminal chat: once its prompt line (`— project …`) is written, writes every
 * module URL loaded so far and Node's own list of built-in modules to LISTING_FILE, and exits.
 */
const listingPreload = `
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const seen = [];
registerHooks({ load(url, ctx, next) { seen.push(url); return next(url, ctx); } });
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('— project ')) {
    writeFileSync(process.env.LISTING_FILE, JSON.stringify({ modules: seen, builtins: process.moduleLoadList }));
    process.exit(0);
  }
  return write(chunk, ...rest);
};
`;
const tempDir = tempDirs('charlie-startup-modules-');

describe('the terminal chat up to its prompt', () => {
  it("loads no MCP SDK, no LanceDB, no pino (the log starts after the prompt), none of zod's modules one by one and not Node's fetch (undici), with a model server answering", async () => {
    const dir = tempDir();
    const model = await startFakeModelServer(() => ({ text: 'ok' }));
    try {
      const listingFile = join(dir, 'listing.json');
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        LLM_BASE_URL: model.url,
        LLM_MODEL: 'fake-model',
        EMBEDDER: 'builtin',
        PROJECTS_DIR: join(dir, 'projects'),
        DATA_DIR: join(dir, 'data'),
        WEB_PORT: '0',
        LOG_LEVEL: 'silent',
        LISTING_FILE: listingFile,
      };
      const args = ['--disable-warning=ExperimentalWarning', '--import', `data:text/javascript,${encodeURIComponent(listingPreload)}`, 'bin/charlie.mjs', '--project', 'kitchen'];
      const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, out).toBe(0);
      // the probe found the server: the model line was written before the prompt line
      expect(out).toContain(`model: fake-model@${model.url}`);
      const { modules, builtins } = JSON.parse(readFileSync(listingFile, 'utf8')) as { modules: string[]; builtins: string[] };
      expect(modules.some((u) => /\/dist\/[^/]+\/main\.js$/.test(u))).toBe(true);
      const loaded = (part: string) => modules.filter((u) => u.includes(part));
      expect({ mcp: loaded('/@modelcontextprotocol/'), lancedb: loaded('/@lancedb/'), pino: loaded('/node_modules/pino/'), zod: loaded('/node_modules/zod/') }).toEqual({
        mcp: [],
        lancedb: [],
        pino: [],
        zod: [],
      });
      // Node's fetch loads undici (with HTTP/2, TLS and zlib) at its first call: the model probe does without it
      expect(builtins.filter((b) => b.includes('undici'))).toEqual([]);
    } finally {
      await model.close();
    }
  }, 60_000);
});
