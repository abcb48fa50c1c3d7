/**
 * A project's `inbox/`: files put there (or attached with `/memory ingest`) become sources.
 * Every source is hashed and its record kept in `notes/_log.md` (Markdown, so deleting `data/`
 * loses nothing): an unchanged file is skipped without a model call; a file that only grew
 * (the items read last time are unchanged, in order) sends only its new items; a file that
 * cannot be parsed is reported once and never half-ingested.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type { Logger } from '../../core/ports.js';
import { resolveChild, resolveInside } from '../store/safe-path.js';
import type { Wiki } from '../graph/wiki.js';
import { parseSource, SourceParseError, type SourceItem } from './parsers.js';

export const INBOX_DIR = 'inbox';

/** What the memory lane does with a source's new items; returns how many facts it wrote. */
export type ExtractItems = (project: string, source: string, items: SourceItem[]) => Promise<{ facts: number }>;

export interface InboxResult {
  source: string;
  outcome: 'unchanged' | 'ingested' | 'unparseable' | 'failed';
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

export class Inbox {
  constructor(private readonly o: { projectsDir: string; wiki: Wiki; logger: Logger }) {}

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

  /** Ingests every new or changed source of a project's inbox. */
  async scan(project: string, extract: ExtractItems): Promise<InboxResult[]> {
    const files = await this.files(project);
    if (files.length === 0) return [];
    const records = sourceRecords(await this.o.wiki.readLog(project));
    const results: InboxResult[] = [];
    for (const name of files) results.push(await this.one(project, name, records.get(`${INBOX_DIR}/${name}`), extract));
    return results;
  }

  private async one(project: string, name: string, last: SourceRecord | undefined, extract: ExtractItems): Promise<InboxResult> {
    const source = `${INBOX_DIR}/${name}`;
    const bytes = await readFile(resolveInside(this.dir(project), name));
    const hash = sha(bytes);
    if (last?.hash === hash) return { source, outcome: 'unchanged', items: 0, facts: 0 };
    let items: SourceItem[];
    try {
      items = await parseSource(name, bytes);
    } catch (err) {
      const message = err instanceof SourceParseError ? err.message : `could not be read: ${String(err)}`;
      this.o.logger.warn({ project, source, reason: message }, 'inbox file not ingested');
      await this.o.wiki.log(project, [{ action: 'skipped', path: `${source} — sha256 ${hash}, 0 items, prefix ${'0'.repeat(16)}`, detail: message }]);
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
        this.o.logger.warn({ project, source, err: String(err) }, 'inbox file not ingested; it is tried again next time');
        return { source, outcome: 'failed', items: fresh.length, facts: 0, message: String(err instanceof Error ? err.message : err) };
      }
    }
    await this.o.wiki.log(project, [
      { action: 'ingested', path: `${source} — sha256 ${hash}, ${items.length} items, prefix ${prefixHash(items, items.length)}`, detail: `${fresh.length} new item(s), ${facts} fact(s)` },
    ]);
    return { source, outcome: 'ingested', items: fresh.length, facts };
  }
}
