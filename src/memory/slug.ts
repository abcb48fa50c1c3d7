/**
 * Safe names for folders and files made from human text (channel names, note titles).
 * Pure functions: the result is always a single path segment of [A-Za-z0-9-], never empty,
 * never `.` or `..`, so it can be joined under a folder without escaping it.
 */
import { foldAccents } from '../core/names.js';

function squash(text: string, allowed: RegExp, max: number): string {
  const s = foldAccents(text)
    .replace(allowed, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s.slice(0, max).replace(/-+$/g, '');
}

/** Project folder name: lowercase, ASCII, `[a-z0-9-]`, at most 64 characters, `project` when nothing is left. */
export function slugify(name: string, fallback = 'project'): string {
  return squash(name.toLowerCase(), /[^a-z0-9]+/g, 64) || fallback;
}

/** Note file name (without `.md`): keeps case, e.g. `Sarah Chen` → `Sarah-Chen`; `Untitled` when nothing is left. */
export function titleSlug(title: string, fallback = 'Untitled'): string {
  return squash(title, /[^A-Za-z0-9]+/g, 80) || fallback;
}

/** The `-2`, `-3` … variant of a slug, still within 64 characters. */
export function numberedSlug(base: string, n: number): string {
  if (n <= 1) return base;
  const suffix = `-${n}`;
  return `${base.slice(0, 64 - suffix.length).replace(/-+$/g, '')}${suffix}`;
}
