/**
 * Every path the memory store touches goes through `resolveInside`: a relative path from a
 * user or a model is joined under a root only if it cannot leave it.
 */
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, posix, relative, resolve } from 'node:path';
import { UnsafeNameError } from '../core/errors.js';

const MAX_PATH = 1024;
const MAX_SEGMENT = 255;

function shown(rel: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  const clean = rel.replace(/[\u0000-\u001f]/g, '?');
  return clean.length > 60 ? `${clean.slice(0, 60)}… (${rel.length} characters)` : clean;
}

/**
 * Joins `rel` (forward slashes) under `root`. Throws UnsafeNameError for absolute paths,
 * `..` segments, NUL or control characters, backslashes, empty or overlong names.
 */
export function resolveInside(root: string, rel: string): string {
  if (typeof rel !== 'string' || rel.trim() === '') throw new UnsafeNameError('empty path — give a path relative to the folder, e.g. People/Sarah-Chen.md');
  if (rel.length > MAX_PATH) throw new UnsafeNameError(`path "${shown(rel)}" is too long (max ${MAX_PATH} characters)`);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\u0000-\u001f\u007f]/.test(rel)) throw new UnsafeNameError(`path "${shown(rel)}" contains NUL or control characters`);
  if (rel.includes('\\')) throw new UnsafeNameError(`path "${shown(rel)}" contains a backslash — use forward slashes`);
  if (rel.startsWith('/') || isAbsolute(rel) || /^[A-Za-z]:/.test(rel)) throw new UnsafeNameError(`path "${shown(rel)}" is absolute — give a path relative to the folder`);
  const segments = rel.split('/');
  if (segments.some((s) => s === '..')) throw new UnsafeNameError(`path "${shown(rel)}" contains ".." — it would leave the folder`);
  if (segments.some((s) => Buffer.byteLength(s, 'utf8') > MAX_SEGMENT)) throw new UnsafeNameError(`path "${shown(rel)}" has a name longer than ${MAX_SEGMENT} bytes`);
  const normal = posix.normalize(rel);
  if (normal === '.' || normal === './' || normal === '') throw new UnsafeNameError(`path "${shown(rel)}" names the folder itself, not a file in it`);
  const base = resolve(root);
  const full = resolve(base, normal);
  const back = relative(base, full);
  if (back === '' || back.startsWith('..') || isAbsolute(back)) throw new UnsafeNameError(`path "${shown(rel)}" would leave the folder`);
  return full;
}

/** A single folder or file name (no slashes), e.g. a project slug. */
export function resolveChild(root: string, name: string): string {
  if (typeof name === 'string' && name.includes('/')) throw new UnsafeNameError(`name "${shown(name)}" must not contain "/"`);
  return resolveInside(root, name);
}

/**
 * Symlink check: the deepest existing ancestor of `full` must really be inside `root`.
 * Cheap (one or two realpath calls); throws UnsafeNameError on an escape.
 */
export async function assertRealInside(root: string, full: string, knownRealRoot?: string): Promise<void> {
  let realRoot: string;
  try {
    // `knownRealRoot`: the caller's cached realpath of `root` (a store checks many paths under one root)
    realRoot = knownRealRoot ?? (await realpath(root));
  } catch {
    return; // root does not exist yet: nothing below it can be a symlink
  }
  let probe = full;
  for (;;) {
    try {
      const real = await realpath(probe);
      const back = relative(realRoot, real);
      if (back.startsWith('..') || isAbsolute(back)) {
        throw new UnsafeNameError(`path ${full} resolves through a symbolic link to ${real}, outside ${realRoot}`);
      }
      return;
    } catch (err) {
      if (err instanceof UnsafeNameError) throw err;
      const parent = dirname(probe);
      if (parent === probe || relative(resolve(root), parent).startsWith('..')) return;
      probe = parent;
    }
  }
}

/** `assertRealInside` for many paths under one root, taking the root's own realpath once it exists. */
export function realInsideChecker(root: string): (full: string) => Promise<void> {
  let realRoot: string | null = null;
  return async (full) => {
    realRoot ??= await realpath(root).catch(() => null);
    await assertRealInside(root, full, realRoot ?? undefined);
  };
}
