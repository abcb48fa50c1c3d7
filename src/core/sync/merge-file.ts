/**
 * What syncs, and how two devices' versions of one file become one. Markdown memory syncs (pages,
 * records, layers, the archive, tombstones); generated files (the caller's list, from the one
 * writer of them), the inbox (ingested where it was dropped) and reflection's kept versions do
 * not. An archive day file merges as a union in time order, every other file record by record.
 * A file one device deleted and the other changed is kept (no edit is lost). Pure.
 */
import type { MemoryGrammar, MergeReview } from '../ports/sync.js';
import { mergeDayFile } from './day-merge.js';
import { mergePage } from './page-merge.js';

export type FileMerge = { kind: 'text'; text: string; review: MergeReview[]; notes: string[] } | { kind: 'deleted'; notes: string[] };

/** Folders of a project that never sync: files waiting to be ingested, reflection's previous versions. */
export const LOCAL_FOLDERS = ['inbox', '.history'] as const;

/**
 * Whether a path (relative to the projects folder, `/`-separated) syncs. `generated` holds the
 * generated files relative to a project's folder.
 */
export function syncs(path: string, generated: readonly string[]): boolean {
  if (!path.endsWith('.md')) return false;
  const parts = path.split('/');
  if (parts.some((p) => p === '' || p === '..' || (LOCAL_FOLDERS as readonly string[]).includes(p))) return false;
  const inProject = parts.slice(1).join('/');
  return !generated.includes(inProject);
}

const DAY_FILE = /(^|\/)log\/\d{4}-\d{2}-\d{2}\.md$/;

/** The merged file, from the common version and the two devices' (null: absent on that side). */
export function mergeFile(path: string, base: string | null, ours: string | null, theirs: string | null, g: MemoryGrammar): FileMerge {
  if (ours === null && theirs === null) return { kind: 'deleted', notes: [] };
  if (ours === null || theirs === null) {
    const kept = (ours ?? theirs) as string;
    if (base !== null && kept === base) return { kind: 'deleted', notes: [] };
    const notes = base === null ? [] : [`${path}: deleted on one device and changed on the other; the changed version was kept`];
    return { kind: 'text', text: kept, review: [], notes };
  }
  if (DAY_FILE.test(path)) return { kind: 'text', text: mergeDayFile(base ?? '', ours, theirs, g), review: [], notes: [] };
  const merged = mergePage(path, base ?? '', ours, theirs, g);
  return { kind: 'text', ...merged };
}
