/**
 * `npm start` runs Charlie from an esbuild build of the sources (bin/build.mjs), rebuilt only
 * when a source changed, and from the sources with tsx when the build fails. The build's
 * commands load from the build, and `--version` is package.json's.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCommands } from '../../commands/index.js';

const repo = join(import.meta.dirname, '..', '..');
const buildModule = pathToFileURL(join(repo, 'bin', 'build.mjs')).href;
const node = (args: string[], cwd = repo) => spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
/** Runs `code` (an ES module body) with `build` bound to bin/build.mjs. */
const withBuild = (code: string) => node(['--input-type=module', '-e', `const build = await import(${JSON.stringify(buildModule)});\n${code}`]);

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** A tiny tree shaped like Charlie's: src/cli.ts, src/main.ts, commands/index.ts and a command. */
function tinyTree(cli: string): string {
  const root = mkdtempSync(join(tmpdir(), 'charlie-build-'));
  roots.push(root);
  const write = (file: string, text: string) => {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  write('package.json', '{"type":"module"}');
  write('src/cli.ts', cli);
  write('src/words.ts', "export const word: string = 'first';\n");
  write('src/main.ts', 'export const main = 1;\n');
  write('commands/index.ts', 'export const here: string = import.meta.url;\n');
  write('commands/hello.ts', "export default { name: 'hello' };\n");
  return root;
}

const ensure = (root: string) => withBuild(`const dir = await build.ensureBuilt({ root: ${JSON.stringify(root)}, log: (l) => console.log('LOG', l) }); console.log('DIR', dir);`);
const dirOf = (out: string) => /^DIR (.*)$/m.exec(out)?.[1] ?? '';

describe('the start-up build', () => {
  it('answers --version with the version in package.json', () => {
    const run = node(['bin/charlie.mjs', '--version']);
    expect(run.status, run.stderr).toBe(0);
    const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };
    expect(run.stdout.trim()).toBe(`charlie ${version}`);
  });

  it("keeps V8's compile cache of the build's modules in Node's own folder for it", () => {
    // Node's folder is node-compile-cache under the system's temporary folder (TMPDIR here)
    const temp = mkdtempSync(join(tmpdir(), 'charlie-compile-cache-'));
    roots.push(temp);
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: temp };
    delete env.NODE_COMPILE_CACHE;
    const run = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', 'bin/charlie.mjs', '--version'], { cwd: repo, encoding: 'utf8', timeout: 60_000, env });
    expect(run.status, run.stderr).toBe(0);
    // one folder per Node version and flags, a file per module compiled since the launcher turned it on
    const cache = join(temp, 'node-compile-cache');
    const files = readdirSync(cache, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(cache, f)).isFile());
    expect(files.length).toBeGreaterThan(0);
  });

  it("loads every command from the build's own commands folder", async () => {
    const run = withBuild(
      'const dir = await build.ensureBuilt({ log: () => {} }); const { loadCommands, COMMANDS_DIR } = await import(`${dir}/commands/index.js`); const c = await loadCommands(); console.log(JSON.stringify({ dir: COMMANDS_DIR, names: c.map((x) => `${x.name} ${x.subcommand?.name ?? ""}`) }));',
    );
    expect(run.status, run.stderr).toBe(0);
    const built = JSON.parse(run.stdout) as { dir: string; names: string[] };
    expect(built.dir).toMatch(/[/\\]dist[/\\][0-9a-z]+-[0-9a-f]{6}[/\\]commands$/);
    const fromSource = (await loadCommands()).map((x) => `${x.name} ${x.subcommand?.name ?? ''}`);
    expect(built.names).toEqual(fromSource);
  });

  it('rebuilds only when a source it read changed or a command was added', () => {
    const root = tinyTree("import { word } from './words.js';\nconsole.log(word);\n");
    const first = ensure(root);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^LOG charlie: built \d+ modules/m);
    expect(node([join(dirOf(first.stdout), 'cli.js')]).stdout.trim()).toBe('first');

    const again = ensure(root);
    expect(again.stdout).not.toContain('LOG');
    expect(dirOf(again.stdout)).toBe(dirOf(first.stdout));

    writeFileSync(join(root, 'src', 'words.ts'), "export const word: string = 'second, longer';\n");
    const edited = ensure(root);
    expect(edited.stdout).toMatch(/^LOG charlie: built/m);
    expect(node([join(dirOf(edited.stdout), 'cli.js')]).stdout.trim()).toBe('second, longer');

    writeFileSync(join(root, 'commands', 'bye.ts'), "export default { name: 'bye' };\n");
    const added = ensure(root);
    expect(added.stdout).toMatch(/^LOG charlie: built/m);
    const commandsDir = join(dirOf(added.stdout), 'commands');
    expect(node(['--input-type=module', '-e', `const m = await import(${JSON.stringify(pathToFileURL(join(commandsDir, 'index.js')).href)}); console.log(m.here)`]).stdout.trim()).toBe(
      pathToFileURL(join(commandsDir, 'index.js')).href,
    );
    expect(readFileSync(join(commandsDir, 'bye.js'), 'utf8')).toContain('name: "bye"');
  });

  it('rebuilds when its output was cut short or changed, instead of failing to start', () => {
    const root = tinyTree("import { word } from './words.js';\nconsole.log(word);\n");
    const first = ensure(root);
    expect(first.status, first.stderr).toBe(0);
    const cli = join(dirOf(first.stdout), 'cli.js');
    // a build cut short (a full disk, a kill mid-write): half of cli.js
    const whole = readFileSync(cli, 'utf8');
    writeFileSync(cli, whole.slice(0, Math.floor(whole.length / 2)));
    const cut = ensure(root);
    expect(cut.stdout).toMatch(/^LOG charlie: built/m);
    expect(dirOf(cut.stdout)).not.toBe(dirOf(first.stdout));
    const run = node([join(dirOf(cut.stdout), 'cli.js')]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('first');
    // a chunk changed to the same size, and a chunk gone, are caught too
    const target = join(dirOf(cut.stdout), 'cli.js');
    writeFileSync(target, readFileSync(target, 'utf8').replace(/first/g, 'FIRST'));
    expect(ensure(root).stdout).toMatch(/^LOG charlie: built/m);
    const latest = dirOf(ensure(root).stdout);
    rmSync(join(latest, 'commands', 'hello.js'));
    expect(ensure(root).stdout).toMatch(/^LOG charlie: built/m);
  });

  it("gives each bundled module its source's location, as tsx does, and commands/index.ts the built commands folder", () => {
    const root = tinyTree("import { url, dir, file } from './nested/where.js';\nconsole.log(JSON.stringify({ url, dir, file }));\n");
    mkdirSync(join(root, 'src', 'nested'), { recursive: true });
    writeFileSync(join(root, 'src', 'nested', 'where.ts'), 'export const url = import.meta.url;\nexport const dir = import.meta.dirname;\nexport const file = import.meta.filename;\n');
    const built = ensure(root);
    expect(built.status, built.stderr).toBe(0);
    const run = node([join(dirOf(built.stdout), 'cli.js')]);
    expect(run.status, run.stderr).toBe(0);
    const source = join(root, 'src', 'nested', 'where.ts');
    expect(JSON.parse(run.stdout)).toEqual({ url: pathToFileURL(source).href, dir: join(root, 'src', 'nested'), file: source });
  });

  it("leaves no module of Charlie's own build asking where its chunk is", () => {
    // a module that finds files next to itself (the web client's sources, the commands) must not look inside dist/
    const run = withBuild('console.log(await build.ensureBuilt({ log: () => {} }));');
    expect(run.status, run.stderr).toBe(0);
    const dir = run.stdout.trim();
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    expect(files.length).toBeGreaterThan(10);
    const asking = files.filter((f) => /import\.meta\.(url|dirname|filename)\b/.test(readFileSync(join(dir, f), 'utf8')));
    expect(asking).toEqual([]);
  });

  it('runs every script package.json names from a build, never its source with tsx', () => {
    // benchmarks measure the code `npm start` runs (issue 44 §5): bin/run.mjs or bin/tool.mjs, both bin/build.mjs
    const { scripts } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const fromSource = Object.entries(scripts).filter(([, line]) => /\btsx\b|scripts\/[\w-]+\.ts|src\/[\w/-]+\.ts/.test(line));
    expect(fromSource).toEqual([]);
    const tools = Object.values(scripts).flatMap((line) => [...line.matchAll(/bin\/tool\.mjs ([\w-]+)/g)].map((m) => m[1]));
    expect(tools.length).toBeGreaterThan(10);
    const listed = withBuild('console.log(JSON.stringify(build.toolScripts()));');
    expect(JSON.parse(listed.stdout)).toEqual([...new Set(tools)].sort());
  });

  it('builds the tools apart from the start-up build, and neither prunes the other', () => {
    const root = tinyTree("import { word } from './words.js';\nconsole.log(word);\n");
    writeFileSync(join(root, 'package.json'), JSON.stringify({ type: 'module', scripts: { 'bench:x': 'node bin/tool.mjs bench-x' } }));
    mkdirSync(join(root, 'scripts'));
    writeFileSync(join(root, 'scripts', 'bench-x.ts'), "import { word } from '../src/words.js';\nconsole.log(`bench ${word}`);\n");
    const start = dirOf(ensure(root).stdout);
    const tools = (n: number) =>
      Array.from({ length: n }, () => dirOf(withBuild(`console.log('DIR', await build.ensureBuilt({ root: ${JSON.stringify(root)}, set: 'tools', log: () => {} }));`).stdout));
    const [tool] = tools(1);
    expect(tool).toMatch(/[/\\]dist[/\\]tools-[0-9a-z]+-[0-9a-f]{6}$/);
    expect(node([join(tool!, 'bench-x.js')]).stdout.trim()).toBe('bench first');
    // a tools build does not make the start-up build stale, and a start does not rebuild the tools
    const again = ensure(root);
    expect(again.stdout).not.toContain('LOG');
    expect(dirOf(again.stdout)).toBe(start);
    expect(tools(1)[0]).toBe(tool);
    // six edits, each rebuilding both: each set keeps its own newest five
    for (let i = 0; i < 6; i++) {
      writeFileSync(join(root, 'src', 'words.ts'), `export const word: string = 'edit ${i}';\n`);
      ensure(root);
      tools(1);
    }
    const builds = readdirSync(join(root, 'dist')).filter((f) => !f.endsWith('.json'));
    expect(builds.filter((f) => f.startsWith('tools-'))).toHaveLength(5);
    expect(builds.filter((f) => !f.startsWith('tools-'))).toHaveLength(5);
  });

  it("names the sources' lines in stack traces, reading a chunk's map only when a stack passes through it", () => {
    // src/boom.ts throws from its line 3; the build bundles it into cli.js or a chunk
    const root = tinyTree(
      [
        "import { boom } from './boom.js';",
        'try {',
        '  boom();',
        '} catch (error) {',
        '  console.log(`enabled ${process.sourceMapsEnabled}`);',
        '  console.log((error as Error).stack);',
        '}',
        "if (process.argv.includes('--uncaught')) boom();",
        '',
      ].join('\n'),
    );
    writeFileSync(join(root, 'src', 'boom.ts'), "export function boom(): never {\n  const why: string = 'a reason';\n  throw new Error(`boom: ${why}`);\n}\n");
    const launch = (extra: string) =>
      withBuild(`process.argv[1] ??= '-'; process.argv.push(${JSON.stringify(extra)}); await build.launch('cli', 'src/cli.ts', { root: ${JSON.stringify(root)}, log: () => {} });`);
    const caught = launch('--caught');
    expect(caught.status, caught.stderr).toBe(0);
    // Node's own support (which reads every map as its module loads) stays off
    expect(caught.stdout).toContain('enabled false');
    expect(caught.stdout).toContain('Error: boom: a reason');
    expect(caught.stdout).toContain(`${join(root, 'src', 'boom.ts')}:3:9`);
    expect(caught.stdout).toMatch(new RegExp(`at boom \\(${join(root, 'src', 'boom.ts').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:9\\)`));
    expect(caught.stdout).toContain(`${join(root, 'src', 'cli.ts')}:3:`);
    expect(caught.stdout).not.toMatch(/dist[/\\][^\s]*\.js:\d+:\d+/);
    // an error nobody catches is printed by Node through the same hook
    const uncaught = launch('--uncaught');
    expect(uncaught.status, uncaught.stdout + uncaught.stderr).not.toBe(0);
    expect(uncaught.stderr).toContain(`${join(root, 'src', 'boom.ts')}:3:9`);
    // a frame outside the build, or in a chunk whose map is gone, is left as V8 wrote it
    const dir = dirOf(ensure(root).stdout);
    for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' })) if (f.endsWith('.map')) rmSync(join(dir, f));
    const noMaps = launch('--caught');
    expect(noMaps.status, noMaps.stderr).toBe(0);
    expect(noMaps.stdout).toContain('Error: boom: a reason');
    expect(noMaps.stdout).toMatch(/dist[/\\][^\s]*\.js:\d+:\d+/);
  });

  it('runs the source with tsx, saying so, when the build fails', () => {
    // esbuild resolves a literal import() at build time; tsx only if it runs
    const root = tinyTree("if (process.argv.includes('--never')) await import('./missing.js');\nconsole.log('ran from source');\n");
    const run = withBuild(`await build.launch('cli', 'src/cli.ts', { root: ${JSON.stringify(root)}, log: (l) => console.log('LOG', l) });`);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^LOG charlie: the start-up build failed \(src\/cli\.ts:1: Could not resolve "\.\/missing\.js"\); running src\/cli\.ts with tsx/m);
    expect(run.stdout).toContain('ran from source');
  });
});
