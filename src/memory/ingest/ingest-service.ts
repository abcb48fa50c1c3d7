/**
 * Runs a project's inbox through the memory lane: new and grown sources are sent to the local
 * memory model (core `ingestItems`) and written through the knowledge graph. Without a local
 * model nothing is read, and the files wait.
 */
import { readdir } from 'node:fs/promises';
import { ingestItems } from '../../core/ingest.js';
import type { Clock, LocalChatModel, Logger, Recall } from '../../core/ports.js';
import type { Wiki } from '../graph/wiki.js';
import { Inbox, type InboxResult } from './inbox.js';

export interface IngestServiceOptions {
  projectsDir: string;
  wiki: Wiki;
  recall: Recall;
  memoryModel: LocalChatModel | null;
  clock: Clock;
  logger: Logger;
}

export class IngestService {
  private readonly inbox: Inbox;
  private readonly running = new Map<string, Promise<InboxResult[]>>();

  constructor(private readonly o: IngestServiceOptions) {
    this.inbox = new Inbox({ projectsDir: o.projectsDir, wiki: o.wiki, logger: o.logger });
  }

  /** Ingests what is new in a project's inbox (one scan at a time per project). */
  scan(project: string): Promise<InboxResult[]> {
    const model = this.o.memoryModel;
    if (!model) return Promise.resolve([]);
    const busy = this.running.get(project);
    if (busy) return busy.then(() => this.scan(project));
    const { wiki, recall, clock, logger } = this.o;
    const graph = {
      taxonomy: () => wiki.taxonomy(project),
      pageMap: (r: Parameters<Wiki['pageMap']>[1]) => wiki.pageMap(project, r),
      write: (w: Parameters<Wiki['write']>[1]) => wiki.write(project, w),
      related: async (text: string) => [...new Set((await recall.recall(text, { project, limit: 12 })).map((h) => h.page).filter((p) => p.startsWith('notes/')))],
    };
    const run = this.inbox
      .scan(project, (_p, source, items) => ingestItems(source, items, { model, graph, logger: logger.child({ project, source }), now: clock.now() }))
      .then((results) => {
        for (const r of results) if (r.outcome !== 'unchanged') logger.info({ project, ...r }, 'inbox source');
        return results;
      })
      .finally(() => this.running.delete(project));
    this.running.set(project, run);
    return run;
  }

  async scanAll(): Promise<void> {
    const dirs = await readdir(this.o.projectsDir, { withFileTypes: true }).catch(() => []);
    for (const d of dirs) if (d.isDirectory() && !d.name.startsWith('.')) await this.scan(d.name).catch((err: unknown) => this.o.logger.warn({ project: d.name, err: String(err) }, 'inbox scan failed'));
  }
}
