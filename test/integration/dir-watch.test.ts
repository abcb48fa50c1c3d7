/**
 * The per-folder watch behind the projects/ watcher: it reports files by path, and folders that
 * come or go, including the subfolders of a folder moved in by hand (which @parcel/watcher misses).
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirWatch } from '../../src/memory/index/dir-watch.js';

describe('DirWatch', () => {
  let root: string;
  let w: DirWatch | null = null;
  const files = new Set<string>();
  const folders: { path: string; found: string[] }[] = [];
  const until = async (ok: () => boolean) => {
    for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 20));
    return ok();
  };
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'charlie-dirwatch-'));
    mkdirSync(join(root, 'p', 'notes', 'People'), { recursive: true });
    files.clear();
    folders.length = 0;
    w = await DirWatch.start(join(root, 'p'), {
      file: (p) => files.add(p),
      folder: (p, found) => folders.push({ path: p, found: [...found].sort() }),
      error: (err) => {
        throw err;
      },
    });
  });
  afterEach(async () => {
    w?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('names a changed file, not its folder', async () => {
    const page = join(root, 'p', 'notes', 'People', 'Ann.md');
    writeFileSync(page, 'a');
    expect(await until(() => files.has(page))).toBe(true);
    expect(folders).toEqual([]);
  });

  it('watches the subfolders of a folder moved in, and says which files it brought', async () => {
    const outside = join(root, 'outside');
    mkdirSync(join(outside, 'Sub'), { recursive: true });
    writeFileSync(join(outside, 'Sub', 'a.md'), 'a');
    const moved = join(root, 'p', 'notes', 'Moved');
    renameSync(outside, moved);
    expect(await until(() => folders.some((f) => f.path === moved))).toBe(true);
    expect(folders.find((f) => f.path === moved)!.found).toEqual([join(moved, 'Sub', 'a.md')]);
    const deep = join(moved, 'Sub', 'b.md');
    writeFileSync(deep, 'b');
    expect(await until(() => files.has(deep))).toBe(true);
  });

  it('reports a folder removed, and a file removed by its path', async () => {
    const page = join(root, 'p', 'notes', 'People', 'Bo.md');
    writeFileSync(page, 'b');
    expect(await until(() => files.has(page))).toBe(true);
    files.clear();
    rmSync(page);
    expect(await until(() => files.has(page))).toBe(true);
    const people = join(root, 'p', 'notes', 'People');
    rmSync(people, { recursive: true });
    expect(await until(() => folders.some((f) => f.path === people))).toBe(true);
  });
});
