/**
 * What the index last saw of each page (content hash, size, mtime), so an unchanged page is
 * skipped without being read. A small JSON file beside the project's table; losing it only
 * costs one re-read of the pages (their chunks are then found unchanged and kept).
 *
 * Small writes go to a journal beside it (`<manifest>.log`, one JSON line per page whose entry
 * changed: `[page, hash, mtimeMs, size]`, or `[page]` when it is gone), read after the file on
 * load; the file is written whole after a build, on close, at a process's first save and when
 * the journal has grown to a quarter of the pages. A hand edit of one page of 10,000 appends one
 * line instead of rewriting 10,000 entries.
 */
import { appendFile, readFile, rm } from 'node:fs/promises';
import { writeFileAtomic } from '../../files/atomic-write.js';

export interface PageState {
  hash: string;
  mtimeMs: number;
  size: number;
}

const journalOf = (path: string) => `${path}.log`;

export async function loadManifest(path: string): Promise<Map<string, PageState>> {
  const pages = new Map<string, PageState>();
  try {
    const data = JSON.parse(await readFile(path, 'utf8')) as { version?: number; pages?: Record<string, [string, number, number]> };
    if (data.version === 1 && data.pages) for (const [page, [hash, mtimeMs, size]] of Object.entries(data.pages)) pages.set(page, { hash, mtimeMs, size });
  } catch {
    // none, or unreadable: the pages are read again
  }
  const journal = await readFile(journalOf(path), 'utf8').catch(() => '');
  for (const line of journal.split('\n')) {
    const entry = journalEntry(line);
    if (!entry) continue; // a line cut short by a crash: that page is read again
    if (entry.state) pages.set(entry.page, entry.state);
    else pages.delete(entry.page);
  }
  return pages;
}

/** One journal line: a page's new entry, or null state when it is gone; null when the line does not read. */
function journalEntry(line: string): { page: string; state: PageState | null } | null {
  if (!line) return null;
  try {
    const v: unknown = JSON.parse(line);
    if (!Array.isArray(v) || typeof v[0] !== 'string') return null;
    if (v.length === 1) return { page: v[0], state: null };
    const [page, hash, mtimeMs, size] = v as unknown[];
    if (typeof hash !== 'string' || typeof mtimeMs !== 'number' || typeof size !== 'number') return null;
    return { page: page as string, state: { hash, mtimeMs, size } };
  } catch {
    return null;
  }
}

export async function saveManifest(path: string, pages: Map<string, PageState>): Promise<void> {
  const out: Record<string, [string, number, number]> = {};
  for (const [page, s] of pages) out[page] = [s.hash, s.mtimeMs, s.size];
  await writeFileAtomic(path, JSON.stringify({ version: 1, pages: out }));
  // what the journal said is in the file now (a crash before this only re-applies older entries: those pages are read again)
  await rm(journalOf(path), { force: true });
}

/** A small write saves the manifest at most this often. */
const SAVE_EVERY_MS = 30_000;
/** The journal is folded into the file once it holds this many lines, or a quarter of the pages if more. */
const JOURNAL_MIN_LINES = 256;

/** What the index keeps to save its manifest: the pages, which of them changed since the last save, and when it last saved. */
export interface ManifestState {
  manifest: string;
  pages: Map<string, PageState>;
  /** Pages whose entry changed (or went) since the last save. */
  unsaved: Set<string>;
  /** When the manifest was last saved (the index's clock; -Infinity: not yet in this process). */
  savedAt: number;
  /** Lines in the journal since the file was last written whole. */
  journaled: number;
}

/**
 * The manifest lists every page: rewritten on each small write (every turn's archive append) it
 * cost O(pages) per turn. A small write saves it at most every SAVE_EVERY_MS, an `urgent` one (a
 * build) at once; the index saves what is left when it closes. A manifest older than the pages
 * only costs re-reading those pages, whose chunks are then found unchanged. A small write's save
 * appends the pages that changed to the journal; the file is written whole at the process's first
 * save, after a build and once the journal holds a quarter as many lines as there are pages.
 */
export async function saveWhenDue(m: ManifestState, now: number, urgent: boolean): Promise<void> {
  if (!urgent && now - m.savedAt < SAVE_EVERY_MS) return;
  const whole = urgent || m.savedAt === -Infinity || m.journaled + m.unsaved.size > Math.max(JOURNAL_MIN_LINES, m.pages.size / 4);
  m.savedAt = now;
  if (whole) return saveWhole(m);
  if (m.unsaved.size === 0) return;
  const lines = [...m.unsaved].map((page) => {
    const s = m.pages.get(page);
    return `${JSON.stringify(s ? [page, s.hash, s.mtimeMs, s.size] : [page])}\n`;
  });
  m.unsaved.clear();
  m.journaled += lines.length;
  await appendFile(journalOf(m.manifest), lines.join(''), 'utf8');
}

/** The manifest written whole (a build, on close), its journal emptied. */
export async function saveWhole(m: ManifestState): Promise<void> {
  m.unsaved.clear();
  m.journaled = 0;
  await saveManifest(m.manifest, m.pages);
}

export async function removeManifest(path: string): Promise<void> {
  await rm(path, { force: true });
  await rm(journalOf(path), { force: true });
}
