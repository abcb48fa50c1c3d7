/**
 * Waiting candidates of the promotion gate, one JSON file per project under
 * `data/candidates/` (derived and disposable: deleting it only forgets what was waiting).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Candidate, CandidateStore } from '../../core/promotion.js';
import { readIfExists, writeFileAtomic } from '../store/atomic-write.js';

const candidateSchema = z.object({
  key: z.string(),
  entity: z.string(),
  fact: z.object({ text: z.string(), type: z.string().optional(), said: z.string(), source: z.string(), staleness: z.number().optional() }),
  message: z.string(),
  score: z.number(),
  parts: z.object({ recency: z.number(), novelty: z.number(), identity: z.number(), source: z.number() }),
  firstSeen: z.string(),
  expires: z.string(),
});

export function fileCandidateStore(dataDir: string, project: string): CandidateStore {
  const dir = join(dataDir, 'candidates');
  const file = join(dir, `${project.replace(/[^\w.-]+/g, '_')}.json`);
  return {
    async list() {
      const text = await readIfExists(file);
      if (!text) return [];
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch {
        return [];
      }
      // one bad entry does not lose the others
      return (Array.isArray(data) ? data : []).flatMap((c) => {
        const p = candidateSchema.safeParse(c);
        return p.success ? [p.data as Candidate] : [];
      });
    },
    async replace(candidates) {
      await mkdir(dir, { recursive: true });
      await writeFileAtomic(file, `${JSON.stringify(candidates, null, 1)}\n`);
    },
  };
}
