/**
 * Waiting candidates of the promotion gate, one JSON file per project under
 * `data/candidates/` (derived and disposable: deleting it only forgets what was waiting).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CandidateStore } from '../../core/records/candidates.js';
import { parseCandidates } from '../../core/records/candidates.js';
import { readIfExists, writeFileAtomic } from '../../files/atomic-write.js';

export function fileCandidateStore(dataDir: string, project: string): CandidateStore {
  const dir = join(dataDir, 'candidates');
  const file = join(dir, `${project.replace(/[^\w.-]+/g, '_')}.json`);
  return {
    async list() {
      return parseCandidates(await readIfExists(file));
    },
    async replace(candidates) {
      await mkdir(dir, { recursive: true });
      await writeFileAtomic(file, `${JSON.stringify(candidates, null, 1)}\n`);
    },
  };
}
