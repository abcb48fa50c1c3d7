/**
 * What the index last saw of each page (content hash, size, mtime), so an unchanged page is
 * skipped without being read. A small JSON file beside the project's table; losing it only
 * costs one re-read of the pages (their chunks are then found unchanged and kept).
 */
import { readFile, rm } from 'node:fs/promises';
import { writeFileAtomic } from '../../files/atomic-write.js';

export interface PageState {
  hash: string;
  mtimeMs: number;
  size: number;
}

export async function loadManifest(path: string): Promise<Map<string, PageState>> {
  try {
    const data = JSON.parse(await readFile(path, 'utf8')) as { version?: number; pages?: Record<string, [string, number, number]> };
    if (data.version !== 1 || !data.pages) return new Map();
    return new Map(Object.entries(data.pages).map(([page, [hash, mtimeMs, size]]) => [page, { hash, mtimeMs, size }]));
  } catch {
    return new Map();
  }
}

export async function saveManifest(path: string, pages: Map<string, PageState>): Promise<void> {
  const out: Record<string, [string, number, number]> = {};
  for (const [page, s] of pages) out[page] = [s.hash, s.mtimeMs, s.size];
  await writeFileAtomic(path, JSON.stringify({ version: 1, pages: out }));
}

/** A small write saves the manifest at most this often. */
const SAVE_EVERY_MS = 30_000;

/**
 * The manifest lists every page: rewritten on each small write (every turn's archive append) it
 * cost O(pages) per turn. A small write saves it at most every SAVE_EVERY_MS, an `urgent` one (a
 * build) at once; the index saves what is left when it closes. A manifest older than the pages
 * only costs re-reading those pages, whose chunks are then found unchanged.
 */
export async function saveWhenDue(m: { manifest: string; pages: Map<string, PageState>; savedAt: number; unsaved: boolean }, now: number, urgent: boolean): Promise<void> {
  m.unsaved = true;
  if (!urgent && now - m.savedAt < SAVE_EVERY_MS) return;
  m.savedAt = now;
  m.unsaved = false;
  await saveManifest(m.manifest, m.pages);
}

export async function removeManifest(path: string): Promise<void> {
  await rm(path, { force: true });
}
