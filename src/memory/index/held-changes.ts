/**
 * The watcher's changes to a project whose table is not open yet (nothing of it searched since
 * Charlie started), held back while they are small. Its first sync lists every page anyway (a
 * state opened has no list of named pages: index-write.ts), so holding them loses nothing, and
 * Charlie's own first writes (a new project's project.md, the first archive entry) do not load
 * LanceDB (about 60 MB with its library and threads) before a search needs it. Past `bound` bytes
 * of changed pages the project is indexed at once, so a first search never waits for a large
 * backlog (a channel Charlie only archives, a folder of notes copied in).
 */
import { join } from 'node:path';
import { statPages } from './page-files.js';

/** Changed pages (their bytes now) a project not yet open may hold back: a few hundred messages. */
export const HELD_BYTES = 64 * 1024;

export class HeldChanges {
  /** By project: each changed indexed page and its size when last reported. */
  private readonly held = new Map<string, Map<string, number>>();

  constructor(
    private readonly projectsDir: string,
    private readonly bound = HELD_BYTES,
  ) {}

  /** Holds these changes back (true), or not when the project's changed pages now pass the bound (false: index them). */
  hold(project: string, paths: readonly string[]): boolean {
    const pages = this.held.get(project) ?? new Map<string, number>();
    for (const f of statPages(join(this.projectsDir, project), paths).values()) pages.set(f.page, f.size);
    let bytes = 0;
    for (const size of pages.values()) bytes += size;
    if (bytes > this.bound) {
      this.held.delete(project);
      return false;
    }
    this.held.set(project, pages);
    return true;
  }

  /** The project's table was opened: its first sync lists every page, the held ones with them. */
  release(project: string): void {
    this.held.delete(project);
  }
}
