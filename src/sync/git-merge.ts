/**
 * The three-way merge of this device's history with the remote's, done apart from the projects
 * folder: every file changed on both sides is merged by the core (src/core/sync/merge-file.ts),
 * the tree is built in a scratch index (`data/sync/merge.index`) and committed with both parents.
 * Then `apply` moves the projects folder to the new commit touching only the files that differ,
 * and is idempotent, so a sync killed halfway finishes by running it again (the apply journal).
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { mergeFile } from '../core/sync/merge-file.js';
import type { MemoryGrammar, MergeReview } from '../core/ports/index.js';
import type { Git } from './git.js';
import { writeFileReplacing } from '../files/atomic-write.js';

const ZERO = '0000000000000000000000000000000000000000';

const lines = (s: string) => s.split('\0').filter(Boolean);

async function changedBetween(git: Git, from: string | null, to: string): Promise<Set<string>> {
  if (!from) return new Set(lines((await git(['ls-tree', '-r', '-z', '--name-only', to])).stdout));
  return new Set(lines((await git(['diff', '--name-only', '-z', '--no-renames', from, to])).stdout));
}

async function blob(git: Git, commit: string | null, path: string): Promise<string | null> {
  if (!commit) return null;
  const r = await git(['cat-file', '-p', `${commit}:${path}`], { ok: [128] });
  return r.code === 0 ? r.stdout : null;
}

export interface TreeMerge {
  commit: string;
  review: MergeReview[];
  notes: string[];
}

/** Merges `theirs` into `ours` (commits); returns the merge commit. */
export async function mergeCommits(git: Git, o: { ours: string; theirs: string; grammar: MemoryGrammar; indexFile: string; message: (review: readonly MergeReview[]) => string }): Promise<TreeMerge> {
  const baseRun = await git(['merge-base', o.ours, o.theirs], { ok: [1] });
  const base = baseRun.code === 0 ? baseRun.stdout.trim() : null;
  const mine = await changedBetween(git, base, o.ours);
  const yours = await changedBetween(git, base, o.theirs);
  const env = { GIT_INDEX_FILE: o.indexFile };
  await rm(o.indexFile, { force: true });
  await git(['read-tree', o.theirs], { env });
  const review: MergeReview[] = [];
  const notes: string[] = [];
  const entries: string[] = [];
  const put = async (path: string, text: string | null) => {
    if (text === null) entries.push(`0 ${ZERO}\t${path}`);
    else entries.push(`100644 ${(await git(['hash-object', '-w', '--stdin'], { input: text })).stdout.trim()}\t${path}`);
  };
  for (const path of mine) {
    const ours = await blob(git, o.ours, path);
    if (!yours.has(path)) {
      await put(path, ours);
      continue;
    }
    const m = mergeFile(path, await blob(git, base, path), ours, await blob(git, o.theirs, path), o.grammar);
    notes.push(...m.notes);
    if (m.kind === 'deleted') await put(path, null);
    else {
      review.push(...m.review);
      await put(path, m.text);
    }
  }
  if (entries.length) await git(['update-index', '--index-info'], { env, input: `${entries.join('\n')}\n` });
  const tree = (await git(['write-tree'], { env })).stdout.trim();
  const commit = (await git(['commit-tree', tree, '-p', o.ours, '-p', o.theirs], { input: o.message(review) })).stdout.trim();
  await rm(o.indexFile, { force: true });
  return { commit, review, notes };
}

/**
 * The projects folder, the index and HEAD moved from `from` to `to`: each file that differs is
 * written (or removed), then HEAD and the index are reset without touching the work tree.
 * Running it again after a kill gives the same result. Returns the paths it changed.
 */
export async function apply(git: Git, workTree: string, from: string | null, to: string): Promise<string[]> {
  const changed = [...(await changedBetween(git, from, to))];
  for (const path of changed) {
    const text = await blob(git, to, path);
    const full = join(workTree, path);
    if (text === null) await rm(full, { force: true });
    else if ((await readFile(full, 'utf8').catch(() => null)) !== text) {
      await mkdir(dirname(full), { recursive: true });
      await writeFileReplacing(full, text);
    }
  }
  await git(['reset', '-q', to]);
  return changed;
}

/** Paths the projects folder changed since `head` was committed, among `paths` (edits made while a sync ran). */
export async function editedSince(git: Git, workTree: string, head: string | null, paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) {
    const now = await readFile(join(workTree, path), 'utf8').catch(() => null);
    if (now !== (await blob(git, head, path))) out.push(path);
  }
  return out;
}
