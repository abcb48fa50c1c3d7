/**
 * Sync on the system git (the SyncEngine port): one sync commits what changed here, fetches,
 * merges the remote's history record by record (git-merge.ts), moves the projects folder to the
 * merge and pushes; a push refused because another device pushed first fetches and merges again.
 * Every step is one git operation that is atomic on its own (a commit, a ref update, a push), and
 * the one step that is not — updating the projects folder — is journalled and finished on the
 * next run, so a sync cut off by kill -9 or a lost network leaves both sides consistent.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SyncError } from '../core/errors.js';
import { publicUrl } from '../core/privacy/public-url.js';
import type { MemoryGrammar, MergeReview, SyncEngine, SyncReport, SyncStatus } from '../core/ports/index.js';
import { gitRunner, type Git } from './git.js';
import { apply, editedSince, mergeCommits } from './git-merge.js';
import { SyncFiles } from './sync-state.js';
import { settleOrphans } from './orphans.js';
import { excludeFile } from './what-syncs.js';
import { devicesOf, mergeReviews, openReview, REVIEW_TRAILER, reviewTrailer } from './sync-status.js';

export interface GitSyncOptions {
  projectsDir: string;
  dataDir: string;
  device: string;
  remote?: string;
  /** GPG key the remote is encrypted to (git-remote-gcrypt); unset = a plain git remote. */
  encryptTo?: string;
  background: boolean;
  timeoutMs: number;
  sshCommand?: string;
  grammar: MemoryGrammar;
  generated: readonly string[];
  now: () => Date;
}

const BRANCH = 'main';
const REMOTE_REF = `refs/remotes/origin/${BRANCH}`;

export class GitSync implements SyncEngine {
  private readonly files: SyncFiles;
  private readonly git: Git;
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: GitSyncOptions) {
    this.files = new SyncFiles(o.dataDir);
    this.git = gitRunner({ gitDir: this.files.paths.gitDir, workTree: o.projectsDir, device: o.device, timeoutMs: o.timeoutMs, ...(o.sshCommand ? { sshCommand: o.sshCommand } : {}) });
  }

  get remoteUrl(): string {
    const r = this.o.remote ?? '';
    return this.o.encryptTo && r && !r.startsWith('gcrypt::') ? `gcrypt::${r}` : r;
  }

  isSetUp(): boolean {
    return existsSync(join(this.files.paths.gitDir, 'HEAD'));
  }

  /** Makes (or repairs) this device's repository and points it at SYNC_REMOTE; safe to run again. */
  async setup(): Promise<void> {
    if (!this.o.remote) throw new SyncError('SYNC_REMOTE is not set: name the repository to sync through (docs/sync.md)', 'setup');
    await mkdir(this.files.paths.dir, { recursive: true });
    await mkdir(this.o.projectsDir, { recursive: true });
    if (!this.isSetUp()) await this.git(['init', '-q', '-b', BRANCH]);
    const set = (key: string, value: string) => this.git(['config', key, value]);
    await set('core.bare', 'false');
    await set('core.worktree', this.o.projectsDir);
    await set('gc.auto', '0');
    const has = (await this.git(['remote'])).stdout.split('\n').includes('origin');
    await this.git(has ? ['remote', 'set-url', 'origin', this.remoteUrl] : ['remote', 'add', 'origin', this.remoteUrl]);
    await set('remote.origin.fetch', `+refs/heads/${BRANCH}:${REMOTE_REF}`);
    if (this.o.encryptTo) {
      await set('remote.origin.gcrypt-participants', this.o.encryptTo);
      await set('remote.origin.gcrypt-signingkey', this.o.encryptTo);
    }
    await mkdir(join(this.files.paths.gitDir, 'info'), { recursive: true });
    await writeFile(join(this.files.paths.gitDir, 'info', 'exclude'), excludeFile(this.o.generated));
    await writeFile(join(this.files.paths.gitDir, 'info', 'attributes'), '* -text\n');
  }

  syncNow(signal?: AbortSignal): Promise<SyncReport> {
    const run = this.running.then(() => this.locked(signal));
    this.running = run.catch(() => {});
    return run;
  }

  private async locked(signal?: AbortSignal): Promise<SyncReport> {
    if (!this.isSetUp()) throw new SyncError('sync is not set up on this device: run `npm run sync -- setup`', 'setup');
    const lock = await this.files.lock();
    try {
      // a sync killed mid-way may have left its git child running: never run beside it
      if (lock.stale) await settleOrphans(this.files.paths.gitDir, this.o.timeoutMs);
      const report = await this.once(signal);
      await this.files.saveState({ lastSync: this.o.now().toISOString(), lastError: '', notes: report.notes.slice(-50) });
      return report;
    } catch (err) {
      await this.files.saveState({ lastError: `${this.o.now().toISOString()} ${err instanceof Error ? err.message : String(err)}` }).catch(() => {});
      throw err;
    } finally {
      await lock.release();
    }
  }

  private async head(): Promise<string | null> {
    const r = await this.git(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { ok: [1] });
    return r.code === 0 ? r.stdout.trim() : null;
  }

  private async remoteHead(): Promise<string | null> {
    const r = await this.git(['rev-parse', '-q', '--verify', `${REMOTE_REF}^{commit}`], { ok: [1] });
    return r.code === 0 ? r.stdout.trim() : null;
  }

  private async isAncestor(a: string, b: string): Promise<boolean> {
    return (await this.git(['merge-base', '--is-ancestor', a, b], { ok: [1] })).code === 0;
  }

  /** A sync cut off earlier: git's stale locks removed, an interrupted update of the projects folder finished. */
  private async recover(): Promise<string[]> {
    const { gitDir, mergeIndex } = this.files.paths;
    for (const f of ['index.lock', 'HEAD.lock', `${REMOTE_REF}.lock`, `refs/heads/${BRANCH}.lock`]) await rmForce(join(gitDir, f));
    await rmForce(`${mergeIndex}.lock`);
    const j = await this.files.journal();
    if (!j) return [];
    const head = await this.head();
    const changed = head === j.from || head === j.to ? await apply(this.git, this.o.projectsDir, j.from || null, j.to) : [];
    await this.files.clearJournal();
    return changed;
  }

  /** Fetches the remote's branch; a remote nobody has pushed to yet is not an error. */
  private async fetch(signal?: AbortSignal): Promise<void> {
    const r = await this.git(['fetch', '-q', 'origin'], { ...(signal ? { signal } : {}), ok: [1, 128] });
    if (r.code !== 0 && !/couldn't find remote ref|Repository not found|no such ref/i.test(r.stderr))
      throw new SyncError(`git fetch failed: ${r.stderr.trim().split('\n').slice(-3).join(' / ')}`, 'engine');
  }

  /**
   * Whether the remote now holds `commit`. A plain git remote refuses a push that is not a fast
   * forward; git-remote-gcrypt replaces the remote's manifest without that check, so after a push
   * to an encrypted remote the branch is fetched again, and if another device's push replaced
   * ours in between, the loop merges and pushes once more (this device still has every commit).
   */
  private async landed(commit: string, signal?: AbortSignal): Promise<boolean> {
    if (!this.o.encryptTo) return true;
    await this.fetch(signal);
    const remote = await this.remoteHead();
    return remote !== null && (remote === commit || (await this.isAncestor(commit, remote)));
  }

  /** A commit message whose trailers say which device made it, whether it runs the background jobs, and the pairs a merge put into review. */
  private message(what: string, review: readonly MergeReview[] = []): string {
    const pairs = review.map((r) => `\n${REVIEW_TRAILER}: ${reviewTrailer(r)}`).join('');
    return `${what}\n\nCharlie-Device: ${this.o.device}\nCharlie-Background: ${this.o.background ? 'yes' : 'no'}${pairs}\n`;
  }

  /** Commits what changed here since the last sync (the exclude file keeps derived files out). */
  private async commitLocal(): Promise<void> {
    await this.git(['add', '-A', '--', '.']);
    const staged = await this.git(['diff', '--cached', '--quiet'], { ok: [1] });
    const head = await this.head();
    if (staged.code === 0 && head) return;
    if (staged.code === 0 && !(await this.git(['ls-files'])).stdout.trim()) return;
    await this.git(['commit', '-q', '--no-verify', '--allow-empty', '-F', '-'], { input: this.message(`memory from ${this.o.device}, ${this.o.now().toISOString()}`) });
  }

  private async once(signal?: AbortSignal): Promise<SyncReport> {
    const report: SyncReport = { changed: await this.recover(), review: [], notes: [], pushed: false };
    for (let attempt = 0; attempt < 5; attempt++) {
      await this.commitLocal();
      await this.fetch(signal);
      const head = await this.head();
      const remote = await this.remoteHead();
      if (remote && head !== remote && !(head && (await this.isAncestor(remote, head)))) {
        let to = remote;
        const [reviewed, noted] = [report.review.length, report.notes.length];
        if (head && !(await this.isAncestor(head, remote))) {
          const m = await mergeCommits(this.git, {
            ours: head,
            theirs: remote,
            grammar: this.o.grammar,
            indexFile: this.files.paths.mergeIndex,
            message: (review) => this.message(`merge of ${this.o.device} with the household's memory`, review),
          });
          report.review.push(...m.review);
          report.notes.push(...m.notes);
          to = m.commit;
        }
        // edits made here while the merge ran: commit them first and merge again
        const touched = (await this.git(head ? ['diff', '--name-only', '-z', head, to] : ['ls-tree', '-r', '-z', '--name-only', to])).stdout.split('\0').filter(Boolean);
        if ((await editedSince(this.git, this.o.projectsDir, head, touched)).length) {
          // that merge is dropped (it is made again with the edits): so is what it reported
          report.review.splice(reviewed);
          report.notes.splice(noted);
          continue;
        }
        await this.files.writeJournal({ from: head ?? '', to });
        report.changed.push(...(await apply(this.git, this.o.projectsDir, head, to)));
        await this.files.clearJournal();
      }
      const now = await this.head();
      if (!now || now === remote) return { ...report, changed: [...new Set(report.changed)], pushed: now === remote };
      const push = await this.git(['push', '-q', 'origin', `HEAD:refs/heads/${BRANCH}`], { ...(signal ? { signal } : {}), ok: [1] });
      if (push.code === 0 && (await this.landed(now, signal))) return { ...report, changed: [...new Set(report.changed)], pushed: true };
    }
    throw new SyncError('the remote kept changing while this device merged (five tries): sync again in a moment', 'engine');
  }

  async status(): Promise<SyncStatus> {
    const state = await this.files.state();
    const base: SyncStatus = {
      configured: this.isSetUp() && Boolean(this.o.remote),
      device: this.o.device,
      // shown in a channel and the web app: never a password or token a URL carries
      remote: publicUrl(this.remoteUrl),
      encrypted: Boolean(this.o.encryptTo),
      devices: [],
      lastSync: state.lastSync,
      lastError: state.lastError,
      waiting: { local: 0, remote: 0 },
      review: [],
    };
    if (!this.isSetUp()) return base;
    const head = await this.head();
    const remote = await this.remoteHead();
    const dirty = (await this.git(['status', '--porcelain', '-z', '--untracked-files=all'])).stdout.split('\0').filter(Boolean).length;
    const count = async (range: string) => Number((await this.git(['rev-list', '--count', range])).stdout.trim()) || 0;
    const ahead = head ? (remote ? await count(`${remote}..${head}`) : await count(head)) : 0;
    const behind = head && remote ? await count(`${head}..${remote}`) : 0;
    const refs = [head, remote].filter((x): x is string => x !== null);
    return {
      ...base,
      devices: await devicesOf(this.git, refs),
      waiting: { local: dirty + ahead, remote: behind },
      review: await openReview(this.o.projectsDir, await mergeReviews(this.git, refs), this.o.grammar),
    };
  }
}

function rmForce(path: string): Promise<void> {
  return rm(path, { force: true });
}
