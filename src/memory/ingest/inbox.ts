/**
 * A project's `inbox/`: files put there (or attached with `/memory ingest`) become sources.
 * Every source is hashed and its record kept in `notes/_log.md` (Markdown, so deleting `data/`
 * loses nothing): an unchanged file is skipped without a model call; a file that only grew
 * (the items read last time are unchanged, in order) sends only its new items; a file that
 * cannot be parsed is reported once and never half-ingested.
 *
 * A CSV file that is large (INBOX_STREAM_BYTES) or a bank export is streamed (csv-stream.ts):
 * read a batch at a time in bounded memory, a bank export summed per month and payee first, with a
 * checkpoint after every batch (`inbox/.progress.json`), so a restart resumes without sending a
 * row twice. One scan reads the small files first and gives each streamed file at most `budget`
 * batches, yielding to the event loop between them, so the caller can go round the files (and
 * projects) and one huge file never holds up the others.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { z } from 'zod';
import type { IngestProgress } from '../../core/writing/ingest-status.js';
import type { Logger } from '../../core/ports/index.js';
import { resolveChild, resolveInside } from '../../files/safe-path.js';
import type { GraphLog } from '../graph/graph-sides.js';
import { readIfExists, writeFileAtomic } from '../../files/atomic-write.js';
import { bankColumns, csvHeader, hashFile, readRows, summariseBank } from './csv-stream.js';
import { extensionOf, parseSource, SourceParseError, type SourceItem } from './parsers.js';

export const INBOX_DIR = 'inbox';

/** What the memory lane does with a source's new items; returns how many facts it wrote. */
export type ExtractItems = (project: string, source: string, items: SourceItem[]) => Promise<{ facts: number }>;

export interface InboxResult {
  source: string;
  /** `partial`: a streamed file used its batches for this round; the next scan goes on from its checkpoint. */
  outcome: 'unchanged' | 'ingested' | 'unparseable' | 'failed' | 'partial';
  items: number;
  facts: number;
  message?: string;
}

interface SourceRecord {
  hash: string;
  items: number;
  prefix: string;
  outcome: 'ingested' | 'skipped';
}

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const prefixHash = (items: SourceItem[], n: number) =>
  sha(
    items
      .slice(0, n)
      .map((i) => sha(i.text))
      .join('\n'),
  ).slice(0, 16);
const RECORD = /^- \S+ (ingested|skipped) (\S(?:.*?\S)?) — sha256 ([0-9a-f]{64}), (\d+) items, prefix ([0-9a-f]{16})/;

/** The last record per source in `_log.md`. */
export function sourceRecords(log: string): Map<string, SourceRecord> {
  const out = new Map<string, SourceRecord>();
  for (const line of log.split('\n')) {
    const m = RECORD.exec(line);
    if (m) out.set(m[2]!, { outcome: m[1] as SourceRecord['outcome'], hash: m[3]!, items: Number(m[4]), prefix: m[5]! });
  }
  return out;
}

/** A CSV file this large or larger is streamed; a bank export always is. */
export const STREAM_BYTES = 1_000_000;
/** Items per batch of a streamed file (one memory-model call, one checkpoint). */
export const STREAM_BATCH = 30;
/** Batches one scan gives each streamed file before going on to the next file (and the caller to the next round). */
export const STREAM_BUDGET = 2;

const progressSchema = z.record(
  z.string(),
  z.object({
    hash: z.string(),
    size: z.number(),
    mtimeMs: z.number(),
    mode: z.enum(['rows', 'summary']),
    done: z.number().int().nonnegative(),
    offset: z.number().int().nonnegative(),
    line: z.number().int().nonnegative(),
    columns: z.array(z.string()),
    rows: z.number().int().nonnegative().optional(),
    items: z.array(z.object({ ref: z.string(), text: z.string(), date: z.string().optional() })).optional(),
    batches: z.number().int().nonnegative().optional(),
    updatedMs: z.number().optional(),
  }),
);
type Progress = z.infer<typeof progressSchema>;
type FileProgress = Progress[string];

export interface InboxOptions {
  projectsDir: string;
  /** The project's `_log.md`, where each source read (or skipped) is recorded. */
  log: GraphLog;
  logger: Logger;
  streamBytes?: number;
  batch?: number;
  /** Milliseconds now (progress times and rates); Date.now by default. */
  now?: () => number;
}

export class Inbox {
  /** Where each streamed file stood when this run first saw it move (the rate and time left). */
  private readonly firstSeen = new Map<string, { ms: number; done: number; offset: number }>();

  constructor(private readonly o: InboxOptions) {}

  private now(): number {
    return this.o.now?.() ?? Date.now();
  }

  /** Every streamed file of a project that is part-way, from its checkpoint. */
  async status(project: string): Promise<IngestProgress[]> {
    const all = await this.progress(project);
    return Object.entries(all).map(([name, p]) => {
      const first = this.firstSeen.get(`${project}\n${name}`);
      const total = p.mode === 'summary' ? (p.items ?? []).length : undefined;
      const out: IngestProgress = {
        source: `${INBOX_DIR}/${name}`,
        mode: p.mode,
        done: p.done,
        ...(total !== undefined ? { total } : {}),
        bytesDone: p.mode === 'summary' ? p.size : p.offset,
        bytesTotal: p.size,
        batches: p.batches ?? 0,
        ...(p.updatedMs !== undefined ? { updated: new Date(p.updatedMs).toISOString() } : {}),
      };
      const seconds = first && p.updatedMs !== undefined ? (p.updatedMs - first.ms) / 1000 : 0;
      if (first && seconds > 0 && p.done > first.done) {
        const rate = (p.done - first.done) / seconds;
        out.rate = rate;
        if (p.mode === 'summary' && total !== undefined) out.etaSeconds = (total - p.done) / rate;
        else if (p.offset > first.offset) out.etaSeconds = ((p.size - p.offset) / (p.offset - first.offset)) * seconds;
      }
      return out;
    });
  }

  private progressFile(project: string): string {
    return resolveInside(this.dir(project), '.progress.json');
  }

  private async progress(project: string): Promise<Progress> {
    const text = await readIfExists(this.progressFile(project));
    if (!text) return {};
    try {
      const parsed = progressSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  }

  private async saveProgress(project: string, progress: Progress): Promise<void> {
    if (Object.keys(progress).length === 0) await rm(this.progressFile(project), { force: true });
    else await writeFileAtomic(this.progressFile(project), `${JSON.stringify(progress)}\n`);
  }

  private dir(project: string): string {
    return resolveInside(resolveChild(this.o.projectsDir, project), INBOX_DIR);
  }

  async files(project: string): Promise<string[]> {
    const entries = await readdir(this.dir(project), { withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  }

  /**
   * A large CSV file or a bank export, streamed from its checkpoint: at most `budget` batches
   * now, each checkpointed once the memory lane has written it. Null: not one to stream.
   */
  private async streamed(project: string, name: string, last: SourceRecord | undefined, extract: ExtractItems, budget: number): Promise<InboxResult | null> {
    const source = `${INBOX_DIR}/${name}`;
    const path = resolveInside(this.dir(project), name);
    const st = await stat(path);
    const header = await csvHeader(path).catch(() => []);
    const bank = bankColumns(header);
    if (!this.streams(st.size, header)) return null;
    const all = await this.progress(project);
    const known = all[name];
    // the file's hash is read once per version (size and time unchanged: the checkpoint's hash holds)
    const hash = known && known.size === st.size && known.mtimeMs === st.mtimeMs ? known.hash : await hashFile(path);
    if (last?.hash === hash) return { source, outcome: 'unchanged', items: 0, facts: 0 };
    let p: FileProgress =
      known?.hash === hash
        ? { ...known, size: st.size, mtimeMs: st.mtimeMs }
        : { hash, size: st.size, mtimeMs: st.mtimeMs, mode: bank ? 'summary' : 'rows', done: 0, offset: 0, line: 0, columns: header };
    const batch = this.o.batch ?? STREAM_BATCH;
    const seenKey = `${project}\n${name}`;
    const seen = this.firstSeen.get(seenKey);
    if (!seen || seen.done > p.done) this.firstSeen.set(seenKey, { ms: this.now(), done: p.done, offset: p.offset });
    let sent = 0;
    let facts = 0;
    try {
      if (p.mode === 'summary' && !p.items && bank) {
        const summary = await summariseBank(path, bank);
        p = { ...p, items: summary.items, rows: summary.rows };
        all[name] = p;
        await this.saveProgress(project, all);
      }
      for (let n = 0; n < budget; n++) {
        const next = await nextBatch(path, p, batch);
        if (next.items.length) facts += (await extract(project, source, next.items)).facts;
        sent += next.items.length;
        p = { ...p, done: p.done + next.items.length, offset: next.offset, line: next.line, batches: (p.batches ?? 0) + 1, updatedMs: this.now() };
        if (next.done) {
          this.firstSeen.delete(seenKey);
          await this.saveProgress(project, omit(all, name));
          const detail =
            p.mode === 'summary'
              ? `${String(p.rows ?? 0)} rows summed into ${String(p.done)} monthly item(s) per payee, ${String(facts)} fact(s) this round`
              : `${String(p.done)} row(s), ${String(facts)} fact(s) this round`;
          await this.o.log.log(project, [{ action: 'ingested', path: `${source} — sha256 ${hash}, ${String(p.done)} items, prefix ${'0'.repeat(16)}`, detail }]);
          return { source, outcome: 'ingested', items: sent, facts };
        }
        all[name] = p;
        await this.saveProgress(project, all);
        await new Promise((resolve) => setImmediate(resolve)); // other files, projects and turns run between batches
      }
    } catch (err) {
      if (err instanceof SourceParseError) {
        await this.saveProgress(project, omit(all, name));
        await this.o.log.log(project, [{ action: 'skipped', path: `${source} — sha256 ${hash}, ${String(p.done)} items, prefix ${'0'.repeat(16)}`, detail: err.message }]);
        return { source, outcome: 'unparseable', items: sent, facts, message: err.message };
      }
      this.o.logger.warn({ project, source, err: err }, 'inbox file stopped part-way; it goes on from its checkpoint next time');
      return { source, outcome: 'failed', items: sent, facts, message: String(err instanceof Error ? err.message : err) };
    }
    const total = p.mode === 'summary' ? (p.items ?? []).length : undefined;
    return { source, outcome: 'partial', items: sent, facts, message: `${String(p.done)}${total !== undefined ? ` of ${String(total)}` : ''} items so far` };
  }

  private streams(size: number, header: readonly string[]): boolean {
    return bankColumns(header) !== null || size >= (this.o.streamBytes ?? STREAM_BYTES);
  }

  /** Whether a file is one to stream (a large CSV or a bank export), from its size and header. */
  private async streamsFile(project: string, name: string): Promise<boolean> {
    if (extensionOf(name) !== '.csv') return false;
    const path = resolveInside(this.dir(project), name);
    const st = await stat(path).catch(() => null);
    return st !== null && this.streams(st.size, await csvHeader(path).catch(() => []));
  }

  /**
   * Ingests every new or changed source of a project's inbox: the small files first, then
   * `budget` batches of each streamed file. Results come in the folder's (sorted) order.
   */
  async scan(project: string, extract: ExtractItems, budget = STREAM_BUDGET): Promise<InboxResult[]> {
    const files = await this.files(project);
    if (files.length === 0) return [];
    const records = sourceRecords(await this.o.log.readLog(project));
    const streamed = new Set<string>();
    for (const name of files) if (await this.streamsFile(project, name)) streamed.add(name);
    const order = [...files.filter((f) => !streamed.has(f)), ...files.filter((f) => streamed.has(f))];
    const results = new Map<string, InboxResult>();
    for (const name of order) results.set(name, await this.one(project, name, records.get(`${INBOX_DIR}/${name}`), extract, budget));
    return files.map((f) => results.get(f)).filter((r): r is InboxResult => r !== undefined);
  }

  private async one(project: string, name: string, last: SourceRecord | undefined, extract: ExtractItems, budget: number): Promise<InboxResult> {
    const source = `${INBOX_DIR}/${name}`;
    if (extensionOf(name) === '.csv') {
      const streamed = await this.streamed(project, name, last, extract, budget);
      if (streamed) return streamed;
    }
    const bytes = await readFile(resolveInside(this.dir(project), name));
    const hash = sha(bytes);
    if (last?.hash === hash) return { source, outcome: 'unchanged', items: 0, facts: 0 };
    let items: SourceItem[];
    try {
      items = await parseSource(name, bytes);
    } catch (err) {
      const message = err instanceof SourceParseError ? err.message : `could not be read: ${String(err)}`;
      this.o.logger.warn({ project, source, reason: message }, 'inbox file not ingested');
      await this.o.log.log(project, [{ action: 'skipped', path: `${source} — sha256 ${hash}, 0 items, prefix ${'0'.repeat(16)}`, detail: message }]);
      return { source, outcome: 'unparseable', items: 0, facts: 0, message };
    }
    // a file that only grew: the items read last time are still there, unchanged and in order
    const grown = last?.outcome === 'ingested' && last.items <= items.length && prefixHash(items, last.items) === last.prefix;
    const fresh = grown ? items.slice(last.items) : items;
    let facts = 0;
    if (fresh.length) {
      try {
        facts = (await extract(project, source, fresh)).facts;
      } catch (err) {
        this.o.logger.warn({ project, source, err: err }, 'inbox file not ingested; it is tried again next time');
        return { source, outcome: 'failed', items: fresh.length, facts: 0, message: String(err instanceof Error ? err.message : err) };
      }
    }
    await this.o.log.log(project, [
      { action: 'ingested', path: `${source} — sha256 ${hash}, ${items.length} items, prefix ${prefixHash(items, items.length)}`, detail: `${fresh.length} new item(s), ${facts} fact(s)` },
    ]);
    return { source, outcome: 'ingested', items: fresh.length, facts };
  }
}

const omit = (all: Progress, name: string): Progress => Object.fromEntries(Object.entries(all).filter(([k]) => k !== name));

/** Where a streamed file stands and what its next batch is. */
async function nextBatch(path: string, p: FileProgress, batch: number): Promise<{ items: SourceItem[]; done: boolean; offset: number; line: number }> {
  if (p.mode === 'summary') {
    const items = (p.items ?? []).slice(p.done, p.done + batch);
    return { items, done: p.done + items.length >= (p.items ?? []).length, offset: p.offset, line: p.line };
  }
  return readRows(path, { offset: p.offset, line: p.line, columns: p.columns }, batch);
}
