/**
 * Runs a project's inbox through the memory lane: new and grown sources are sent to the local
 * memory model (core `ingestItems`) and written through the knowledge graph. Without a local
 * model nothing is read, and the files wait.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { titleSlug } from '../slug.js';
import { ABSENT, fileVersion, sha256 } from '../../files/atomic-write.js';
import { resolveChild, resolveInside } from '../../files/safe-path.js';
import { ingestItems } from '../../core/writing/ingest.js';
import type { IngestProgress } from '../../core/writing/ingest-status.js';
import type { CandidateStore } from '../../core/records/candidates.js';
import { withDeadline } from '../../core/ports/deadlines.js';
import type { Clock, GraphWrite, KnowledgeGraph, LocalChatModel, Logger, PageMapRequest, Recall } from '../../core/ports/index.js';
import type { GraphLog } from '../graph/graph-sides.js';
import { INBOX_DIR, Inbox, type InboxResult } from './inbox.js';
import { extensionOf } from './parsers.js';
import { READABLE_FILES as SUPPORTED } from '../../core/writing/ingest-status.js';
import type { TextPrecheck } from '../../core/turn/precheck.js';

/** A source's outcome once its scan is over (a streamed file's rounds added up). */
export type FinalResult = InboxResult & { outcome: Exclude<InboxResult['outcome'], 'partial'> };

export interface IngestServiceOptions {
  projectsDir: string;
  /** The knowledge graph ingested facts are written through, with its `_log.md`. */
  graph: KnowledgeGraph & GraphLog;
  recall: Recall;
  memoryModel: LocalChatModel | null;
  /** The lane's word on each item before the related-pages search (core/turn/precheck.ts); absent: the rules only until the lane reads them. */
  precheck?: TextPrecheck;
  clock: Clock;
  logger: Logger;
  /** The promotion gate's waiting candidates per project (absent: ingested facts are written ungated). */
  candidates?: (project: string) => CandidateStore;
  /** When reflection last ran over a project (the gate's recency). */
  lastReflection?: (project: string) => Promise<Date | null>;
  /** One batch's memory-model call gives up after this long, in all (DISTILL_DEADLINE_MS; the model client's own timeout is an idle one). */
  batchDeadlineMs?: number;
  /** How big CSV files are streamed (tests make them small). */
  stream?: { bytes?: number; batch?: number };
}

export class IngestService {
  private readonly inbox: Inbox;
  private readonly running = new Map<string, Promise<FinalResult[]>>();
  /** Each source's last outcome that was not `unchanged`, by `project\nsource`: a file added while another scan ran is read by that scan. */
  private readonly lastRead = new Map<string, FinalResult>();

  constructor(private readonly o: IngestServiceOptions) {
    this.inbox = new Inbox({
      projectsDir: o.projectsDir,
      log: o.graph,
      logger: o.logger,
      now: () => o.clock.now().getTime(),
      ...(o.stream?.bytes !== undefined ? { streamBytes: o.stream.bytes } : {}),
      ...(o.stream?.batch !== undefined ? { batch: o.stream.batch } : {}),
    });
  }

  /**
   * Ingests what is new in a project's inbox (one scan at a time per project), in rounds: each
   * round gives every file a bounded number of batches and reads the folder again, so a small
   * file dropped in while a huge one streams is read in the next round, not after it.
   */
  scan(project: string): Promise<FinalResult[]> {
    const model = this.o.memoryModel;
    if (!model) return Promise.resolve([]);
    const busy = this.running.get(project);
    if (busy) return busy.then(() => this.scan(project));
    const { graph: knowledge, recall, clock, logger } = this.o;
    const graph = {
      taxonomy: () => knowledge.taxonomy(project),
      pageMap: (r: PageMapRequest) => knowledge.pageMap(project, r),
      write: (w: GraphWrite) => knowledge.write(project, w),
      related: async (text: string) => [...new Set((await recall.recall(text, { project, limit: 12 })).map((h) => h.page).filter((p) => p.startsWith('notes/')))],
      ...(this.o.candidates ? { candidates: this.o.candidates(project) } : {}),
      ...(this.o.lastReflection ? { lastReflection: () => this.o.lastReflection?.(project) ?? Promise.resolve(null) } : {}),
    };
    const extract = (_p: string, source: string, items: Parameters<typeof ingestItems>[1]) => {
      const log = logger.child({ project, source });
      return withDeadline(
        'model',
        this.o.batchDeadlineMs ?? 300_000,
        (signal) => ingestItems(source, items, { model, graph, logger: log, now: clock.now(), signal, ...(this.o.precheck ? { precheck: this.o.precheck } : {}) }),
        {
          logger: log,
          what: 'inbox batch',
          setting: 'DISTILL_DEADLINE_MS',
        },
      );
    };
    const rounds = async (): Promise<FinalResult[]> => {
      const final = new Map<string, FinalResult>();
      for (;;) {
        const results = await this.inbox.scan(project, extract);
        let more = false;
        for (const r of results) {
          const before = final.get(r.source);
          const items = (before?.items ?? 0) + r.items;
          const facts = (before?.facts ?? 0) + r.facts;
          if (r.outcome === 'partial') {
            more = true;
            logger.info({ project, source: r.source, progress: r.message }, 'inbox source, part-way');
            final.set(r.source, { ...r, outcome: 'ingested', items, facts });
          } else if (r.outcome !== 'unchanged' || !before) final.set(r.source, { ...r, outcome: r.outcome, items, facts });
        }
        if (!more) break;
        // let other projects' scans (and turns) run between rounds
        await new Promise((resolve) => setImmediate(resolve));
      }
      for (const r of final.values())
        if (r.outcome !== 'unchanged') {
          logger.info({ project, ...r }, 'inbox source');
          this.lastRead.set(`${project}\n${r.source}`, r);
        }
      return [...final.values()];
    };
    const run = rounds().finally(() => this.running.delete(project));
    this.running.set(project, run);
    return run;
  }

  /**
   * Puts a file into a project's inbox (a Discord attachment) and ingests it. The name is made
   * safe; a different file of the same name gets `-2`, `-3` …; the same bytes again are a no-op.
   */
  async add(project: string, name: string, bytes: Buffer): Promise<FinalResult> {
    const ext = extensionOf(name);
    if (!(SUPPORTED as readonly string[]).includes(ext)) {
      return { source: name, outcome: 'unparseable', items: 0, facts: 0, message: `Charlie reads ${SUPPORTED.join(' ')} files` };
    }
    const dir = resolveInside(resolveChild(this.o.projectsDir, project), INBOX_DIR);
    await mkdir(dir, { recursive: true });
    const base = titleSlug(name.slice(0, name.length - ext.length), 'file');
    let file = `${base}${ext}`;
    for (let n = 2; ; n++) {
      const version = await fileVersion(resolveInside(dir, file));
      if (version === ABSENT || version === sha256(bytes)) break;
      file = `${base}-${n}${ext}`;
    }
    const full = resolveInside(dir, file);
    // bytes as they came (an e-mail need not be UTF-8); `wx` never replaces a file
    const isNew = (await fileVersion(full)) === ABSENT;
    if (isNew) await writeFile(full, bytes, { flag: 'wx' });
    const results = await this.scan(project);
    const found = results.find((r) => r.source === `${INBOX_DIR}/${file}`);
    // a scan already going (another file added, the folder watcher) read the new file first: its outcome is this one's
    const readBefore = found?.outcome === 'unchanged' && isNew ? this.lastRead.get(`${project}\n${found.source}`) : undefined;
    return (
      readBefore ??
      found ?? {
        source: `${INBOX_DIR}/${file}`,
        outcome: 'failed',
        items: 0,
        facts: 0,
        message: 'no local memory model: the file waits in the inbox',
      }
    );
  }

  /** Where a project's big inbox files stand while they stream (`/memory ingest` status, the web app). */
  status(project: string): Promise<IngestProgress[]> {
    return this.inbox.status(project);
  }

  /** Every project's inbox, side by side (one huge inbox never holds up another project's). */
  async scanAll(): Promise<void> {
    const dirs = await readdir(this.o.projectsDir, { withFileTypes: true }).catch(() => []);
    await Promise.all(
      dirs.filter((d) => d.isDirectory() && !d.name.startsWith('.')).map((d) => this.scan(d.name).catch((err: unknown) => this.o.logger.warn({ project: d.name, err: err }, 'inbox scan failed'))),
    );
  }
}
