/**
 * What `/sync status` shows beyond the state file: the devices (from the synced history: each
 * sync commit names its device and whether it runs the background jobs) and the review pairs
 * merges made (named in the merge commits, so every device sees them) that are still open.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemoryGrammar, MergeReview, SyncDevice } from '../core/ports/index.js';
import type { Git } from './git.js';

export async function devicesOf(git: Git, refs: readonly string[]): Promise<SyncDevice[]> {
  if (!refs.length) return [];
  const out = await git(['log', '--format=%cI%x1f%(trailers:key=Charlie-Device,valueonly,separator=)%x1f%(trailers:key=Charlie-Background,valueonly,separator=)%x1e', ...refs]);
  const devices = new Map<string, SyncDevice>();
  for (const rec of out.stdout.split('\x1e')) {
    const [time, name, background] = rec
      .trim()
      .split('\x1f')
      .map((s) => s.trim());
    if (!name || !time) continue;
    const seen = devices.get(name);
    if (!seen || seen.lastSync < time) devices.set(name, { name, lastSync: time, background: background === 'yes' });
  }
  return [...devices.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The pairs a merge put into review whose records are both still in review on their page. */
export async function openReview(projectsDir: string, pairs: readonly MergeReview[], g: MemoryGrammar): Promise<MergeReview[]> {
  const open: MergeReview[] = [];
  for (const p of pairs) {
    const text = await readFile(join(projectsDir, p.path), 'utf8').catch(() => '');
    const inReview = (id: string) => text.split('\n').some((l) => g.record(l)?.id === id && /\[status::\s*review\]/i.test(l));
    if (inReview(p.ids[0]) && inReview(p.ids[1])) open.push(p);
  }
  return open;
}

export const REVIEW_TRAILER = 'Charlie-Review';
const WHY: Record<string, MergeReview['why']> = { edited: 'same record edited on two devices', contradicting: 'contradicting records from two devices' };

/** One review pair as a trailer value: `edited|contradicting <path, URI-encoded> <id> <id>`. */
export function reviewTrailer(r: MergeReview): string {
  const why = r.why === WHY.edited ? 'edited' : 'contradicting';
  return `${why} ${encodeURIComponent(r.path)} ${r.ids[0]} ${r.ids[1]}`;
}

/** The review pairs the merges in the history of `refs` made (the newest 500 commits). */
export async function mergeReviews(git: Git, refs: readonly string[]): Promise<MergeReview[]> {
  if (!refs.length) return [];
  const out = await git(['log', '--merges', '-n', '500', `--format=%(trailers:key=${REVIEW_TRAILER},valueonly)`, ...refs]);
  const pairs: MergeReview[] = [];
  const seen = new Set<string>();
  for (const line of out.stdout.split('\n')) {
    const [why, path, a, b] = line.trim().split(' ');
    const w = WHY[why ?? ''];
    if (!w || !path || !a || !b || seen.has(line.trim())) continue;
    seen.add(line.trim());
    pairs.push({ path: decodeURIComponent(path), ids: [a, b], why: w });
  }
  return pairs;
}
