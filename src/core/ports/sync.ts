/**
 * Sync across a household's devices: the port the core owns. The engine (src/sync: the system
 * git, to a bare repository the household owns or an encrypted one it does not) carries the
 * Markdown memory; the merge of two devices' versions of one file is the core's
 * (src/core/sync/merge-file.ts), reading pages through the page grammar below.
 */

/** The page and archive grammar the merge needs, from the one parser in src/memory. */
export interface MemoryGrammar {
  /** The record a line holds (a list item ending in a block id `^r-…`), or null. */
  record(line: string): { id: string; text: string; about: string; open: boolean; fields: readonly { key: string; value: string }[] } | null;
  /** The line with one inline field set (`[key:: value]`) or removed (null). */
  setField(line: string, key: string, value: string | null): string;
  /** The record line with another block id. */
  withId(line: string, id: string): string;
  /** The time (HH:MM:SS) of an archive entry's header line, or null when the line is not one. */
  entryTime(line: string): string | null;
  /** A page's lines: its front matter's (between the `---` fences; null when it has none or it is never closed) and its body's. */
  frontMatter(text: string): PageLines;
}

/** A page cut into its front matter lines and its body lines. */
export interface PageLines {
  fm: string[] | null;
  body: string[];
}

/** A pair of records a merge put into review (both lines carry `[status:: review]` and `[vs:: ^…]`). */
export interface MergeReview {
  path: string;
  ids: [string, string];
  why: 'same record edited on two devices' | 'contradicting records from two devices';
}

/** A device, as the synced history shows it. */
export interface SyncDevice {
  name: string;
  /** ISO time of the device's newest commit in the history, or '' when it has none. */
  lastSync: string;
  /** Whether the device says it runs the household's background jobs (SYNC_BACKGROUND). */
  background: boolean;
}

export interface SyncStatus {
  configured: boolean;
  device: string;
  remote: string;
  encrypted: boolean;
  devices: SyncDevice[];
  /** ISO time of this device's last finished sync, or ''. */
  lastSync: string;
  lastError: string;
  /** Files changed here and not yet sent; commits fetched and not yet merged. */
  waiting: { local: number; remote: number };
  /** Review pairs made by merges that are still open. */
  review: MergeReview[];
}

export interface SyncReport {
  /** Files that arrived or changed in the merge, relative to the projects folder. */
  changed: string[];
  review: MergeReview[];
  /** Notes for the person: prose both devices changed (both kept), front matter fields that differed. */
  notes: string[];
  pushed: boolean;
}

export interface SyncEngine {
  status(): Promise<SyncStatus>;
  syncNow(signal?: AbortSignal): Promise<SyncReport>;
}
