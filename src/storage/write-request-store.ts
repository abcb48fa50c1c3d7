/**
 * Write requests on disk: one JSON file per project under DATA_DIR/write-requests/. Not
 * Markdown (they are requests, not memory) and not projects/ (a hosted model writes nothing
 * there). Writes are atomic (temp file + rename).
 */
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../files/atomic-write.js';
import { z } from 'zod';
import type { WriteRequestStore, WriteRequest } from '../core/writing/write-requests.js';

const candidateSchema = z.object({
  id: z.string(),
  project: z.string(),
  title: z.string(),
  text: z.string(),
  category: z.string().optional(),
  tags: z.array(z.string()).optional(),
  source: z.string(),
  requested: z.string(),
  by: z.string(),
  untrusted: z.boolean().optional(),
});

export class FileWriteRequestStore implements WriteRequestStore {
  constructor(private readonly dir: string) {}

  private file(project: string): string {
    return join(this.dir, `${project.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  }

  async list(project: string): Promise<WriteRequest[]> {
    const file = this.file(project);
    if (!existsSync(file)) return [];
    try {
      const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
      return (Array.isArray(raw) ? raw : []).flatMap((item) => {
        const c = candidateSchema.safeParse(item);
        return c.success ? [c.data] : [];
      });
    } catch {
      return [];
    }
  }

  private write(project: string, list: WriteRequest[]): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileAtomicSync(this.file(project), `${JSON.stringify(list, null, 2)}\n`, { mode: 0o600 });
  }

  async add(candidate: WriteRequest): Promise<void> {
    this.write(candidate.project, [...(await this.list(candidate.project)), candidate]);
  }

  async remove(project: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const gone = new Set(ids);
    this.write(
      project,
      (await this.list(project)).filter((c) => !gone.has(c.id)),
    );
  }
}
