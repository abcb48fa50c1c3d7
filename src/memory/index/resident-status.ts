/**
 * What the running Charlie keeps in memory, in a small file beside the index
 * (`data/index/resident.json`), so `npm run doctor` (another process) can report it: the memory
 * budget, how it is shared out, the projects resident when it last changed, and the bound of
 * LanceDB's index cache, which grows past its share to hold the vector indexes of the projects
 * opened (lance-connect.ts).
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { MemoryBudget } from './memory-budget.js';
import type { ResidentInfo } from './resident-set.js';

const statusSchema = z.object({
  pid: z.number().int(),
  at: z.number(),
  budgetBytes: z.number(),
  residentBytes: z.number(),
  indexCacheBytes: z.number(),
  metadataCacheBytes: z.number(),
  /** The index cache's bound in force: its share (`indexCacheBytes`), or more once grown to hold the vector indexes (absent in a file of an older Charlie). */
  indexCacheBoundBytes: z.number().optional(),
  /** The bytes on disk of the vector indexes that bound is sized to hold. */
  vectorIndexBytes: z.number().optional(),
  projects: z.array(z.object({ project: z.string(), bytes: z.number(), usedAt: z.number() })),
});

export type ResidentStatus = z.infer<typeof statusSchema>;

export const residentStatusFile = (indexDir: string) => join(indexDir, 'resident.json');

/**
 * A function that writes the status as it is when called, one write after another (never two
 * at once into the same file); best effort: a failed write only leaves doctor an older one.
 */
export function residentStatusWriter(indexDir: string, budget: MemoryBudget, now: () => { projects: ResidentInfo[]; cache: IndexCacheFigures }): () => void {
  let last = Promise.resolve();
  return () => {
    last = last.then(() => {
      const { projects, cache } = now();
      return saveResidentStatus(indexDir, budget, projects, cache);
    });
  };
}

/** LanceDB's index cache as FittedConnection.figures() gives it. */
interface IndexCacheFigures {
  indexBound: number;
  vectorIndexBytes: number;
}

async function saveResidentStatus(indexDir: string, budget: MemoryBudget, projects: ResidentInfo[], cache: IndexCacheFigures): Promise<void> {
  const status: ResidentStatus = {
    pid: process.pid,
    at: Date.now(),
    budgetBytes: budget.bytes,
    residentBytes: budget.residentBytes,
    indexCacheBytes: budget.indexCacheBytes,
    metadataCacheBytes: budget.metadataCacheBytes,
    indexCacheBoundBytes: cache.indexBound,
    vectorIndexBytes: cache.vectorIndexBytes,
    projects,
  };
  await writeFile(residentStatusFile(indexDir), `${JSON.stringify(status)}\n`).catch(() => undefined);
}

/** The last status written, or null (none, or not readable). */
export function loadResidentStatus(indexDir: string): ResidentStatus | null {
  try {
    const parsed = statusSchema.safeParse(JSON.parse(readFileSync(residentStatusFile(indexDir), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
