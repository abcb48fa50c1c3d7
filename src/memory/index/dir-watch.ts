/**
 * A recursive watch of a folder tree with one `fs.watch` per folder (inotify on Linux), written
 * here rather than taken from a library because the ones measured cost what a turn cannot pay at
 * a year of memory (10,000 pages, 12,000 files, 162 folders; see docs/performance.md):
 *   - chokidar watches every file on its own and, on any change in a folder, lists that folder
 *     again and lstat-s every entry: every archive append re-stat-ed the whole log/ folder, about
 *     a fifth of the main thread during back-to-back turns at 2,000 pages, and its start-up scan
 *     took 4.7 s of main thread at 10,000 pages;
 *   - node-watch stat-s every file synchronously at start (1.8 s of main thread);
 *   - @parcel/watcher does not report changes in the subfolders of a folder moved in by hand.
 * Listing uses the directory entries' own types, so start-up stats no file; a change costs one
 * lstat of the path it names, and only when a name came or went.
 */
import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';

export interface DirWatchEvents {
  /** A file was added, changed or removed (absolute path). */
  file: (path: string) => void;
  /** A folder appeared or went (absolute path). `found`: the files in a folder that appeared. */
  folder: (path: string, found: readonly string[]) => void;
  error: (err: unknown) => void;
}

const hidden = (name: string) => name.startsWith('.');

export class DirWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private closed = false;

  private constructor(
    private readonly root: string,
    private readonly on: DirWatchEvents,
  ) {}

  /** Watches `root` and every folder below it (names starting with a dot are skipped); resolves once all are watched. */
  static async start(root: string, on: DirWatchEvents): Promise<DirWatch> {
    const w = new DirWatch(root, on);
    await w.add(root);
    return w;
  }

  /** Watches `dir` and the folders below it; returns the files found in them. */
  private async add(dir: string): Promise<string[]> {
    const files: string[] = [];
    const queue = [dir];
    while (queue.length > 0 && !this.closed) {
      const d = queue.shift()!;
      if (this.watchers.has(d)) continue;
      let watcher: FSWatcher;
      try {
        // watch before listing: a file made in between is both listed and reported, never missed
        watcher = watch(d, { persistent: true }, (event, name) => this.event(d, event, name));
      } catch (err) {
        if (d === this.root) throw err;
        continue; // gone again meanwhile
      }
      watcher.on('error', (err) => this.on.error(err));
      this.watchers.set(d, watcher);
      const entries = await readdir(d, { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        if (hidden(e.name)) continue;
        const full = join(d, e.name);
        if (e.isDirectory()) queue.push(full);
        else files.push(full);
      }
    }
    return files;
  }

  private remove(dir: string): void {
    for (const [d, w] of this.watchers) {
      if (d === dir || d.startsWith(dir + sep)) {
        w.close();
        this.watchers.delete(d);
      }
    }
  }

  private event(dir: string, event: string, name: string | Buffer | null): void {
    if (this.closed) return;
    if (name === null) {
      // the platform did not say what changed: the folder is reported whole
      this.on.folder(dir, []);
      return;
    }
    const base = name.toString();
    if (hidden(base)) return;
    const full = join(dir, base);
    // a file's content changed: no lstat, no listing
    if (event === 'change') {
      if (!this.watchers.has(full)) this.on.file(full);
      return;
    }
    // a name came or went: one lstat says whether it is a file or a folder
    void lstat(full).then(
      (s) => {
        if (this.closed) return;
        if (!s.isDirectory()) this.on.file(full);
        else if (!this.watchers.has(full)) void this.add(full).then((found) => this.closed || this.on.folder(full, found), this.on.error);
      },
      () => {
        if (this.closed) return;
        if (this.watchers.has(full)) {
          this.remove(full);
          this.on.folder(full, []);
        } else if (full !== this.root) this.on.file(full);
      },
    );
  }

  close(): void {
    this.closed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}
