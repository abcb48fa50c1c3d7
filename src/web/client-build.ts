/**
 * Builds the browser client (TypeScript → bundled ES modules, with esbuild) into a folder under
 * DATA_DIR, only when it is missing or older than its sources; a build takes well under a second.
 * esbuild is already what runs Charlie's TypeScript (through tsx); Vite would add a dev server
 * and a plugin pipeline this small client does not need.
 *
 * Scripts and the stylesheet go to `assets/` with a content hash in their names (served with a
 * year-long, immutable cache lifetime); index.html names them, `assets.json` tells the server
 * (the sign-in page's stylesheet), and the service worker gets the list of what the shell needs
 * (the app, every chunk it imports at once, the stylesheet) to keep offline from its first install.
 * The graph's layout Web Worker (graph-worker.ts) is built first, and the app is told its hashed name. Every text file also gets a brotli (.br) and a gzip (.gz) copy, which
 * the static server sends to browsers that accept them.
 */
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const CLIENT_SRC = resolve(dirname(fileURLToPath(import.meta.url)), 'client');
const SHARED_SRC = resolve(dirname(fileURLToPath(import.meta.url)), 'shared');
const STAMP = '.built';
const STATIC = ['manifest.webmanifest', 'icons'];
const COMPRESSIBLE = /\.(js|css|html|webmanifest|json|svg)$/;

/** What the build named: the hashed stylesheet and the passkey script, for pages the server writes itself. */
export interface ClientAssets {
  css: string;
  signin: string;
}

export function clientAssets(outDir: string): ClientAssets {
  try {
    const parsed = JSON.parse(readFileSync(join(outDir, 'assets.json'), 'utf8')) as Partial<ClientAssets>;
    if (typeof parsed.css === 'string' && typeof parsed.signin === 'string') return { css: parsed.css, signin: parsed.signin };
  } catch {
    // not built yet
  }
  return { css: '/assets/app.css', signin: '/assets/signin.js' };
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) newest = Math.max(newest, statSync(join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}

export function clientIsCurrent(outDir: string): boolean {
  const stamp = join(outDir, STAMP);
  if (!existsSync(stamp) || !existsSync(join(outDir, 'index.html'))) return false;
  return statSync(stamp).mtimeMs >= Math.max(newestMtime(CLIENT_SRC), newestMtime(SHARED_SRC));
}

/** Builds when needed; returns whether it built and how long it took. */
export async function ensureClient(outDir: string, options: { force?: boolean; minify?: boolean } = {}): Promise<{ built: boolean; ms: number }> {
  if (!options.force && clientIsCurrent(outDir)) return { built: false, ms: 0 };
  const started = performance.now();
  const tmp = `${outDir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const buildId = Date.now().toString(36);
  const common = { bundle: true, minify: options.minify ?? true, sourcemap: false, target: ['es2022'], logLevel: 'silent' as const, legalComments: 'none' as const };
  // the graph's layout worker first: the app is told its hashed name (graph-view.ts)
  const worker = await build({
    ...common,
    entryPoints: { 'graph-worker': join(CLIENT_SRC, 'graph-worker.ts') },
    outdir: tmp,
    format: 'esm',
    entryNames: 'assets/[name]-[hash]',
    metafile: true,
  });
  const workerFile = Object.keys(worker.metafile.outputs).find((f) => f.endsWith('.js'));
  if (!workerFile) throw new Error('the client build made no graph worker');
  const result = await build({
    ...common,
    define: { __GRAPH_WORKER__: JSON.stringify(`/${relative(tmp, resolve(workerFile)).split('\\').join('/')}`) },
    // the sign-in and invite pages' passkey script is an entry of its own: those pages load nothing of the app
    entryPoints: { app: join(CLIENT_SRC, 'app.ts'), signin: join(CLIENT_SRC, 'signin-passkey.ts') },
    outdir: tmp,
    format: 'esm',
    splitting: true,
    entryNames: 'assets/[name]-[hash]',
    chunkNames: 'assets/[name]-[hash]',
    metafile: true,
  });
  const url = (file: string) => `/${relative(tmp, resolve(file)).split('\\').join('/')}`;
  const outputs = Object.entries(result.metafile.outputs);
  const entry = outputs.find(([, o]) => o.entryPoint?.endsWith('app.ts'))?.[0];
  if (!entry) throw new Error('the client build made no app entry');
  const signin = outputs.find(([, o]) => o.entryPoint?.endsWith('signin-passkey.ts'))?.[0];
  if (!signin) throw new Error('the client build made no sign-in entry');
  const css = readFileSync(join(CLIENT_SRC, 'app.css'));
  const cssName = `assets/app-${createHash('sha256').update(css).digest('base64url').slice(0, 10)}.css`;
  writeFileSync(join(tmp, cssName), css);
  const app = url(join(process.cwd(), entry));
  // index.html names the hashed files, and preloads the chunks the app imports at once
  const eagerFiles = new Set<string>();
  const visit = (file: string) => {
    for (const i of result.metafile.outputs[file]?.imports ?? []) {
      if (i.kind !== 'import-statement' || eagerFiles.has(i.path)) continue;
      eagerFiles.add(i.path);
      visit(i.path);
    }
  };
  visit(entry);
  const eager = [...eagerFiles].map((f) => url(join(process.cwd(), f)));
  const html = readFileSync(join(CLIENT_SRC, 'index.html'), 'utf8')
    .replace('href="/app.css"', `href="/${cssName}"`)
    .replace('src="/app.js"', `src="${app}"`)
    .replace('  </head>', `${eager.map((c) => `    <link rel="modulepreload" href="${c}" />\n`).join('')}  </head>`);
  writeFileSync(join(tmp, 'index.html'), html);
  writeFileSync(join(tmp, 'assets.json'), JSON.stringify({ css: `/${cssName}`, signin: url(join(process.cwd(), signin)) }));
  // what the shell needs to draw (the views' own chunks are cached when first used)
  const shell = ['/', app, ...eager, `/${cssName}`, '/manifest.webmanifest', '/icons/icon-192.png', '/icons/icon-512.png'];
  await build({ ...common, entryPoints: { sw: join(CLIENT_SRC, 'sw.ts') }, outdir: tmp, format: 'iife', define: { __BUILD_ID__: JSON.stringify(buildId), __SHELL__: JSON.stringify(shell) } });
  for (const name of STATIC) cpSync(join(CLIENT_SRC, name), join(tmp, name), { recursive: true });
  for (const e of readdirSync(tmp, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !COMPRESSIBLE.test(e.name)) continue;
    const file = join(e.parentPath, e.name);
    const data = readFileSync(file);
    writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
    writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
  }
  writeFileSync(join(tmp, STAMP), buildId);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(dirname(outDir), { recursive: true });
  cpSync(tmp, outDir, { recursive: true });
  rmSync(tmp, { recursive: true, force: true });
  return { built: true, ms: Math.round(performance.now() - started) };
}
