/**
 * The narrow sides of the knowledge graph that the memory lane's other adapters take, so each
 * depends on what it uses, not on the Wiki class: the inbox writes and reads `_log.md` lines
 * beside the core's KnowledgeGraph port; reflection curates pages under the graph's lock. Wiki
 * implements both.
 */
import type { LogEntry } from './generated.js';
import type { Mutation } from './page-store.js';
import type { WikiSnapshot } from './wiki-pages.js';

/** A project's `_log.md`: what was ingested, skipped, changed and why. */
export interface GraphLog {
  log(project: string, lines: LogEntry[]): Promise<void>;
  /** The log's text ('' when there is none). */
  readLog(project: string): Promise<string>;
}

/** Pages as reflection and restore change them: read, locked against graph writes, changed through the one compare-and-swap loop. */
export interface CuratedPages extends GraphLog {
  notesDir(project: string): string;
  /** Every page of a project (cached by file size and mtime). */
  load(project: string): Promise<WikiSnapshot>;
  /** Runs `fn` with no graph write of the project in between; `fn` must not call `write`. */
  exclusive<T>(project: string, fn: () => Promise<T>): Promise<T>;
  /** Changes one page (call inside `exclusive`); the cache follows. */
  mutatePage<T extends { content: string }>(project: string, path: string, change: (current: string | null) => T | null): Promise<Mutation<T>>;
  regenerateIndex(project: string): Promise<boolean>;
}
