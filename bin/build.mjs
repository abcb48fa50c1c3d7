/**
 * The start-up build: bundles Charlie's TypeScript (src/, commands/ and the command-line scripts)
 * into plain JavaScript under dist/ with esbuild, so `npm start` does not compile ~500 modules
 * with tsx at every start. Plain JavaScript because it runs before anything is compiled.
 *
 * - Rebuilt only when a source changed: dist/current.json records every input esbuild read
 *   (its metafile) with its size and mtime; a start stats those (~5 ms) and rebuilds if one
 *   differs, is gone, or a command file was added or removed.
 * - The output is checked too: the pointer records the SHA-256 of every module the build wrote,
 *   and a start hashes them again (~1.1 MB, ~15 ms); a module cut short, changed or gone (a disk
 *   full while building, a hand edit) means a rebuild, never a start that dies on a SyntaxError.
 * - Code splitting keeps the lazy `import()`s of front doors and engines lazy; npm packages stay
 *   external (node_modules is resolved as before), except those of BUNDLED.
 * - Each build goes to its own folder (dist/<id>/), so a Charlie that is already running keeps
 *   loading its lazy chunks from the build it started with; the newest KEEP builds are kept.
 * - Linked source maps: the launchers map stack traces through them when a stack is read
 *   (bin/source-stacks.mjs), so stack traces name src/*.ts lines without a start reading every map.
 * - A module's own location (`import.meta.url`, `.dirname`, `.filename`) is where its source is,
 *   as under tsx: bundled code lands in whichever chunk esbuild picks, so every module that finds
 *   files next to itself (the web client's sources, say) would look inside dist/ instead. The one
 *   exception is commands/index.ts, which finds its commands next to itself: each command file is
 *   an entry point of its own in dist/<id>/commands/, so its location is dist/<id>/commands/index.js
 *   (absolute paths: the pointer records the root it was built in).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { createRequire, enableCompileCache } from 'node:module';
import { pathToFileURL } from 'node:url';
import { mapStacksOf } from './source-stacks.mjs';

const ROOT = join(import.meta.dirname, '..');
const KEEP = 5;
/** Bumped when the build's options change, so an older build is not taken for current. */
const FORMAT = 6;
/**
 * npm packages bundled into the build rather than loaded from node_modules: plain ESM that finds
 * no files of its own, whose many small modules cost more to load one by one than their code
 * (chrono-node's English parser: 51 modules, 59 → 15 ms of CPU to import; yaml: 72 modules, about
 * 100 → 22 ms to import and parse a document). Each names the module its bare name is bundled
 * from, relative to its package, or null for the one esbuild resolves: for Node, yaml's exports
 * name its CommonJS build, which esbuild can only bundle behind a `require` ES modules lack; its
 * ES module build (`browser/index.js`, the exports' default) is the same code. zod (95 modules,
 * about 120 → 70 ms to import) too: the MCP SDK, loaded only when MCP is used, reads Charlie's
 * schemas with its own copy from node_modules, which zod 4 allows: a schema is read through its
 * `_zod` internals, `instanceof` asks for its traits, and `.describe()` lands in a registry kept
 * on globalThis (test/integration/mcp-memory-server.test.ts lists and calls the built MCP server's tools).
 */
const BUNDLED = { 'chrono-node': null, yaml: 'browser/index.js', zod: null };
/**
 * Modules of a BUNDLED package that the build leaves out (an empty module in their place), by
 * package and path inside it. zod's `z.locales` (and `z.core.locales`): 64 translations of its
 * error messages, 340 KB and about 20 ms of a start, which nothing of Charlie's asks for (it
 * never calls `z.config`); the English messages come from `locales/en.js`, which zod's schemas
 * import themselves.
 */
const LEFT_OUT = { zod: ['v4/locales/index.js'] };

/** The npm scripts run from the start-up build (`bin/run.mjs NAME`). */
export const SCRIPTS = ['memory', 'doctor', 'reindex', 'backup', 'restore', 'sync', 'mcp', 'register-commands', 'models', 'licenses'];

/**
 * The scripts package.json runs with `bin/tool.mjs NAME` (benchmarks, tuning, the settings
 * document): built like the start-up build, from the same sources with the same options, into a
 * build of their own (`dist/tools-<id>/`, pointer `dist/tools.json`), so their figures are those
 * of the code `npm start` runs and a start never hashes or rebuilds their output.
 */
export function toolScripts(root = ROOT) {
  let scripts;
  try {
    scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts ?? {};
  } catch {
    return [];
  }
  const names = new Set();
  for (const line of Object.values(scripts)) for (const m of String(line).matchAll(/bin\/tool\.mjs ([\w-]+)/g)) names.add(m[1]);
  return [...names].filter((n) => existsSync(join(root, 'scripts', `${n}.ts`))).sort();
}

/** The two builds: what a start and the command-line scripts run, and what the tools run. */
const SETS = {
  start: { pointer: 'current.json', prefix: '', scripts: () => SCRIPTS },
  tools: { pointer: 'tools.json', prefix: 'tools-', scripts: toolScripts },
};
const setOf = (name) => {
  const set = SETS[name];
  if (!set) throw new Error(`no build named ${name}`);
  return set;
};
/** Whether a folder of dist/ is a build of `set` (start builds are `<time>-<hex>`, tools builds `tools-<time>-<hex>`). */
const isBuildOf = (set, name) => (set.prefix ? name.startsWith(set.prefix) : /^[0-9a-z]+-[0-9a-f]{6}$/.test(name));

const commandFiles = (root) =>
  readdirSync(join(root, 'commands'))
    .filter((f) => /\.ts$/.test(f) && !/\.d\.ts$|\.test\./.test(f))
    .sort();

function entryPoints(root, set) {
  const entries = { cli: 'src/cli.ts', main: 'src/main.ts' };
  for (const f of commandFiles(root)) entries[`commands/${f.replace(/\.ts$/, '')}`] = `commands/${f}`;
  for (const s of set.scripts(root)) if (existsSync(join(root, 'scripts', `${s}.ts`))) entries[s] = `scripts/${s}.ts`;
  return entries;
}

const stamp = (root, file) => {
  const s = statSync(join(root, file), { throwIfNoEntry: false });
  return s ? `${s.size}:${s.mtimeMs}` : null;
};

/** The SHA-256 of every module under a build folder (source maps are not needed to start), by its path relative to it. */
function outputHashes(dir) {
  const out = {};
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(dir, file);
    if (file.endsWith('.js') && statSync(path).isFile()) out[file.split(sep).join('/')] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return out;
}

/** Whether a build folder holds exactly the files it was built with, each unchanged. */
function outputIntact(dir, outputs) {
  if (typeof outputs !== 'object' || outputs === null || !statSync(dir, { throwIfNoEntry: false })) return false;
  const now = outputHashes(dir);
  const names = Object.keys(outputs);
  return names.length > 0 && names.length === Object.keys(now).length && names.every((f) => now[f] === outputs[f]);
}

/** The build dist/current.json points at, if every input it was built from is unchanged and its output is whole. */
function currentBuild(root, set) {
  let pointer;
  try {
    pointer = JSON.parse(readFileSync(join(root, 'dist', set.pointer), 'utf8'));
  } catch {
    return null;
  }
  if (pointer?.format !== FORMAT || pointer.root !== root || typeof pointer.dir !== 'string' || typeof pointer.inputs !== 'object') return null;
  if (pointer.commands !== commandFiles(root).join('\n') || pointer.scripts !== set.scripts(root).join('\n')) return null;
  for (const [file, was] of Object.entries(pointer.inputs)) if (stamp(root, file) !== was) return null;
  const dir = join(root, 'dist', pointer.dir);
  return outputIntact(dir, pointer.outputs) ? dir : null;
}

async function build(root, log, set) {
  const started = performance.now();
  const { build: esbuild } = await import('esbuild');
  const dist = join(root, 'dist');
  const pointerFile = join(dist, set.pointer);
  const commands = commandFiles(root).join('\n');
  const scripts = set.scripts(root).join('\n');
  const id = `${set.prefix}${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const dir = join(dist, id);
  const tmp = join(dist, `.tmp-${id}`);
  const commandsIndex = join(root, 'commands', 'index.ts');
  /** Each module's own location is its source's (commands/index.ts: the built commands folder). */
  const sourceLocation = {
    name: 'source-location',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.')) return undefined;
        const file = args.path === commandsIndex ? join(dir, 'commands', 'index.js') : args.path;
        const contents = text
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(file)))
          .replaceAll('import.meta.filename', JSON.stringify(file));
        return { contents, loader: 'ts' };
      });
    },
  };
  /** The modules of LEFT_OUT: empty (a package the tree does not have leaves nothing out). */
  const leftOut = {
    name: 'left-out',
    setup(b) {
      const packageRoot = (name) => {
        try {
          return realpathSync(dirname(createRequire(join(root, 'package.json')).resolve(`${name}/package.json`)));
        } catch {
          return null;
        }
      };
      const paths = new Set(
        Object.entries(LEFT_OUT).flatMap(([name, files]) => {
          const dir = packageRoot(name);
          return dir ? files.map((f) => join(dir, f)) : [];
        }),
      );
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (!args.importer.includes(`${sep}node_modules${sep}`)) return undefined;
        const path = join(dirname(args.importer), args.path);
        return paths.has(path) ? { path, namespace: 'left-out' } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'left-out' }, () => ({ contents: 'export {};\n', loader: 'js' }));
    },
  };
  /** Every npm package (a bare import) stays external but those of BUNDLED. */
  const externalPackages = {
    name: 'external-packages',
    setup(b) {
      const packageDir = (name) => dirname(createRequire(join(root, 'package.json')).resolve(`${name}/package.json`));
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const parts = args.path.split('/');
        const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
        if (!Object.hasOwn(BUNDLED, name)) return { path: args.path, external: true };
        const entry = BUNDLED[name];
        return entry && args.path === name ? { path: join(packageDir(name), entry) } : undefined;
      });
    },
  };
  mkdirSync(dist, { recursive: true });
  try {
    const result = await esbuild({
      absWorkingDir: root,
      entryPoints: entryPoints(root, set),
      outdir: tmp,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node24',
      sourcemap: 'linked',
      sourcesContent: false,
      chunkNames: 'chunks/[name]-[hash]',
      metafile: true,
      logLevel: 'silent',
      plugins: [leftOut, externalPackages, sourceLocation],
    });
    const inputs = {};
    for (const file of [...Object.keys(result.metafile.inputs), 'package.json', 'bin/build.mjs']) inputs[file] = stamp(root, file);
    const outputs = outputHashes(tmp);
    renameSync(tmp, dir);
    const pointerTmp = `${pointerFile}.${process.pid}`;
    writeFileSync(pointerTmp, JSON.stringify({ format: FORMAT, root, dir: id, commands, scripts, inputs, outputs }));
    renameSync(pointerTmp, pointerFile);
    prune(dist, id, set);
    log(`charlie: built ${Object.keys(result.metafile.inputs).length} modules into ${relative(root, dir)}/ in ${Math.round(performance.now() - started)} ms`);
    return dir;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Keeps the newest KEEP builds of a set (a running Charlie may still load lazy chunks from its own). */
function prune(dist, current, set) {
  const builds = readdirSync(dist, { withFileTypes: true })
    .filter((d) => d.isDirectory() && isBuildOf(set, d.name) && d.name !== current)
    .map((d) => ({ name: d.name, mtime: statSync(join(dist, d.name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of builds.slice(KEEP - 1)) rmSync(join(dist, old.name), { recursive: true, force: true });
}

const stderr = (line) => process.stderr.write(`${line}\n`);

/** The folder of a current build (`set`: 'start' or 'tools') of the sources under `root`, building one first when they changed. */
export async function ensureBuilt({ root = ROOT, log = stderr, set = 'start' } = {}) {
  const which = setOf(set);
  return currentBuild(root, which) ?? (await build(root, log, which));
}

/**
 * Runs `entry` (a key of the build's entry points: 'cli', 'memory', ...) from the build, with
 * process.argv[1] naming the file that runs. If the build fails, says why and runs the
 * TypeScript source with tsx instead (slower to start, same behaviour).
 */
export async function launch(entry, source, { root = ROOT, log = stderr, set = 'start' } = {}) {
  let file;
  try {
    const dir = await ensureBuilt({ root, log, set });
    file = join(dir, `${entry}.js`);
    mapStacksOf(dir);
  } catch (error) {
    const first = error?.errors?.[0]; // esbuild's own message: where and what
    const reason = first ? `${first.location ? `${first.location.file}:${first.location.line}: ` : ''}${first.text}` : error instanceof Error ? error.message : String(error);
    log(`charlie: the start-up build failed (${reason}); running ${source} with tsx instead, which starts slower.`);
    const { register } = await import('tsx/esm/api');
    register();
    file = join(root, source);
    process.setSourceMapsEnabled(true);
  }
  // V8's compile cache: each module's compiled code is kept on disk (NODE_COMPILE_CACHE, else node's
  // own folder under the system's temporary folder) and read back at the next start instead of
  // compiling its source again; keyed by content, so a new build simply misses it once
  enableCompileCache();
  // the vector index's statistics (segments, project-table.ts) without its centroids: unless this is
  // set LanceDB warns on stderr at each reading, into the terminal chat
  process.env.LANCE_INCLUDE_VECTOR_CENTROIDS ??= 'false';
  process.argv[1] = file;
  await import(pathToFileURL(file).href);
}
