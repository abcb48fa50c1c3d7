/**
 * What `/sync status` shows beyond the state file: the devices (from the synced history: each
 * sync commit names its device and whether it runs the background jobs) and the review pairs
 * merges made that are still open on their pages.
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
