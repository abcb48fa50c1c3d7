/**
 * Which files of a project folder are indexed: the layer files, the notes (not the
 * generated catalogue or ingestion log) and the conversation archive.
 */
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { LOG_FILE } from '../archive-format.js';

export interface PageFile {
  page: string;
  absolute: string;
  mtimeMs: number;
  size: number;
}

const LAYERS = new Set(['project.md', 'decisions.md', 'quotes.md']);
const GENERATED = new Set(['notes/_index.md', 'notes/_log.md']);

export function isIndexedPage(page: string): boolean {
  const parts = page.split('/');
  if (parts.some((p) => p.startsWith('.') || p === '')) return false;
  if (!page.endsWith('.md') || /\.tmp|~$/.test(page)) return false;
  if (parts.length === 1) return LAYERS.has(page);
  if (parts[0] === 'log') return parts.length === 2 && LOG_FILE.test(parts[1]!);
  return parts[0] === 'notes' && !GENERATED.has(page);
}

/**
 * The indexed pages of a project with size and mtime. Synchronous on purpose: it runs before
 * every search, and 1,000 synchronous stats take ~4 ms where the thread-pool version takes ~12.
 */
export function listPageFiles(projectDir: string): Map<string, PageFile> {
  const out = new Map<string, PageFile>();
  let entries;
  try {
    entries = readdirSync(projectDir, { recursive: true, withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw err;
  }
  for (const e of entries) {
    if (!e.isFile()) continue;
    const absolute = join(e.parentPath, e.name);
    const page = relative(projectDir, absolute).split(sep).join('/');
    if (!isIndexedPage(page)) continue;
    const s = statSync(absolute, { throwIfNoEntry: false });
    if (s) out.set(page, { page, absolute, mtimeMs: s.mtimeMs, size: s.size });
  }
  return out;
}

/** The indexed pages among `pages` (relative to the project folder) that exist, with size and mtime. */
export function statPages(projectDir: string, pages: Iterable<string>): Map<string, PageFile> {
  const out = new Map<string, PageFile>();
  for (const page of pages) {
    if (!isIndexedPage(page)) continue;
    const absolute = join(projectDir, ...page.split('/'));
    const s = lstatSync(absolute, { throwIfNoEntry: false });
    if (s?.isFile()) out.set(page, { page, absolute, mtimeMs: s.mtimeMs, size: s.size });
  }
  return out;
}

/** Project slugs: the folders of `projectsDir` (hidden ones excluded). */
export async function listProjects(projectsDir: string): Promise<string[]> {
  try {
    const entries = await readdir(projectsDir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** The pages from `start` to read next: up to `pages` of them and `bytes` in all, at least one. */
export function readAhead(files: readonly PageFile[], start: number, pages: number, bytes: number): PageFile[] {
  let end = start;
  for (let total = 0; end < files.length && end - start < pages && (end === start || total + files[end]!.size <= bytes); end++) total += files[end]!.size;
  return files.slice(start, end);
}
