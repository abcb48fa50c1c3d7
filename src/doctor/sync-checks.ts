/**
 * The sync part of the doctor (docs/sync.md), when SYNC_REMOTE is set: git (and git-remote-gcrypt
 * for an encrypted remote) is installed, this device is set up, the remote answers within
 * SYNC_TIMEOUT_MS, the last sync did not fail and is recent, exactly one device runs the
 * household's background jobs, merges left nothing in review unseen, and this device's
 * distillation list (its per-device cursor) can be read.
 */
import { execFile } from 'node:child_process';
import type { Config } from '../config.js';
import { createDistillLedger, createSync } from '../sync/create.js';
import { errorMessage } from '../util/error-text.js';
import { fail, ok, skip, warn, type Check, type Part } from './check.js';

function found(tool: string, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => execFile('sh', ['-c', `command -v ${tool}`], { signal }, (err) => resolve(!err)));
}

export function syncPart(config: Config): Part | null {
  if (!config.SYNC_REMOTE) return null;
  const sync = createSync(config);
  const engine: Check = {
    name: 'engine',
    async run(signal) {
      if (!(await found('git', signal))) return fail('git is not installed', 'install git (Debian: apt-get install git)');
      if (config.SYNC_ENCRYPT_TO && !(await found('git-remote-gcrypt', signal))) return fail('git-remote-gcrypt is not installed', 'apt-get install git-remote-gcrypt gnupg');
      if (!sync.isSetUp()) return fail(`this device is not set up to sync with ${config.SYNC_REMOTE}`, 'run `npm run sync -- setup`');
      return ok(`git${config.SYNC_ENCRYPT_TO ? ' with git-remote-gcrypt (encrypted remote)' : ''}, set up for ${config.SYNC_REMOTE}`);
    },
  };
  const state: Check = {
    name: 'last sync',
    timeoutMs: config.SYNC_TIMEOUT_MS + 5000,
    async run() {
      if (!sync.isSetUp()) return skip('not set up');
      const s = await sync.status();
      if (s.lastError) return fail(`the last sync failed: ${s.lastError}`, 'run `npm run sync -- now` to see it again; check the remote and SYNC_SSH_COMMAND');
      if (!s.lastSync) return warn('this device has not synced yet', 'run `npm run sync -- now`');
      const runners = s.devices.filter((d) => d.background).map((d) => d.name);
      if (s.devices.length > 1 && runners.length !== 1)
        return warn(`${String(runners.length)} devices run the background jobs (${runners.join(', ') || 'none'})`, 'set SYNC_BACKGROUND=true on exactly one device and false on the others');
      const waiting = `${String(s.waiting.local)} change(s) waiting to be sent`;
      if (s.review.length) return warn(`last sync ${s.lastSync}; ${waiting}; ${String(s.review.length)} pair(s) from merges in review`, 'resolve them with /memory review');
      return ok(`last sync ${s.lastSync}, ${String(s.devices.length)} device(s); ${waiting}`);
    },
  };
  const distillation: Check = {
    name: 'distillation here',
    async run() {
      try {
        return ok(`${String(await createDistillLedger(config).waiting())} message(s) archived on this device wait for its distillation`);
      } catch (err) {
        return fail(
          `this device's distillation list (data/sync/distill-pending.json) cannot be read: ${errorMessage(err)}`,
          "distillation of projects stops until it is fixed; deleting the file makes this device start over from each project's own cursor",
        );
      }
    },
  };
  return { name: 'sync', checks: [engine, state, distillation] };
}
