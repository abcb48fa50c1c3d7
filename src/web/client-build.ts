/**
 * Builds the browser client (TypeScript → bundled ES modules, with esbuild) into a folder under
 * DATA_DIR, only when it is missing or older than its sources; a build takes well under a second.
 * esbuild is already what runs Charlie's TypeScript (through tsx); Vite would add a dev server
 * and a plugin pipeline this small client does not need.
 */
import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLIENT_SRC = resolve(dirname(fileURLToPath(import.meta.url)), 'client');
const SHARED_SRC = resolve(dirname(fileURLToPath(import.meta.url)), 'shared');
const STAMP = '.built';
const STATIC = ['index.html', 'app.css', 'manifest.webmanifest', 'icons'];

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
  await build({
    ...common,
    entryPoints: { app: join(CLIENT_SRC, 'app.ts') },
    outdir: tmp,
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  });
  await build({ ...common, entryPoints: { sw: join(CLIENT_SRC, 'sw.ts') }, outdir: tmp, format: 'iife', define: { __BUILD_ID__: JSON.stringify(buildId) } });
  for (const name of STATIC) cpSync(join(CLIENT_SRC, name), join(tmp, name), { recursive: true });
  writeFileSync(join(tmp, STAMP), buildId);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(dirname(outDir), { recursive: true });
  cpSync(tmp, outDir, { recursive: true });
  rmSync(tmp, { recursive: true, force: true });
  return { built: true, ms: Math.round(performance.now() - started) };
}
