/**
 * The pages reflection curates, on disk (the core's ReflectionPages port): which pages were
 * touched, their records as reflection sees them (with decay read now), applying a change
 * behind the guard — previous version kept in `.history/`, one `_log.md` line per change —
 * and restoring a kept version. When each project was last reflected on, and which pages a
 * person restored (left alone until they change again), is kept in `data/reflection.json`
 * (derived: losing it only means one more run).
 */
import { mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { Clock, Logger } from '../../core/ports/index.js';
import type { PageChange, ReflectionPage, ReflectionRecord } from '../../core/reflection/reflect.js';
import type { PageOutcome, PageVersion, ReflectionPages, RestoreOutcome } from '../../core/reflection/reflection.js';
import { field } from '../markdown/lines.js';
import { readPage, type WikiPage } from '../graph/page.js';
import type { CuratedPages } from '../graph/graph-sides.js';
import { noteFiles } from '../graph/wiki-pages.js';
import { listProjects } from '../index/page-files.js';
import { decay } from '../../core/records/decay.js';
import { recordLogLine } from '../records/history.js';
import { recordsOf } from '../records/record.js';
import { readIfExists, writeFileAtomic } from '../../files/atomic-write.js';
import { resolveInside } from '../../files/safe-path.js';
import { applyChange } from './apply-change.js';
import { guardRewrite } from './guard.js';
import { PageHistory, pageName } from './history.js';

export interface FileReflectionPagesOptions {
  projectsDir: string;
  dataDir: string;
  /** The knowledge graph's pages, as reflection curates them. */
  pages: CuratedPages;
  clock: Clock;
  logger: Logger;
}

/** When each project was last reflected on; the file time of each page a person restored (`project/page`). */
const stateSchema = z.object({ reflected: z.record(z.string(), z.string()).catch({}), restored: z.record(z.string(), z.number()).catch({}) });
type State = z.infer<typeof stateSchema>;
const SOURCE = 'reflection';

export class FileReflectionPages implements ReflectionPages {
  private readonly history: PageHistory;

  constructor(private readonly o: FileReflectionPagesOptions) {
    this.history = new PageHistory(o.projectsDir, o.pages);
  }

  private get stateFile(): string {
    return join(this.o.dataDir, 'reflection.json');
  }

  private async state(): Promise<State> {
    const empty = { reflected: {}, restored: {} };
    const text = await readIfExists(this.stateFile);
    if (!text) return empty;
    try {
      const parsed = stateSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : empty;
    } catch {
      return empty;
    }
  }

  private async saveState(state: State): Promise<void> {
    await mkdir(dirname(this.stateFile), { recursive: true });
    await writeFileAtomic(this.stateFile, `${JSON.stringify(state, null, 1)}\n`);
  }

  projects(): Promise<string[]> {
    return listProjects(this.o.projectsDir);
  }

  private async mtimes(project: string): Promise<Map<string, number>> {
    const dir = this.o.pages.notesDir(project);
    const out = new Map<string, number>();
    for (const rel of await noteFiles(dir)) {
      const s = await stat(join(dir, rel)).catch(() => null);
      if (s) out.set(rel, s.mtimeMs);
    }
    return out;
  }

  /** When reflection last ran over a project (state only, no page scan: the gate asks it per batch). */
  async lastReflection(project: string): Promise<Date | null> {
    const last = (await this.state()).reflected[project];
    return last ? new Date(last) : null;
  }

  async activity(project: string): Promise<{ lastWrite: Date | null; lastReflection: Date | null }> {
    const times = [...(await this.mtimes(project)).values()];
    const last = (await this.state()).reflected[project];
    return { lastWrite: times.length ? new Date(Math.max(...times)) : null, lastReflection: last ? new Date(last) : null };
  }

  async touched(project: string, since: Date | null, limit: number): Promise<ReflectionPage[]> {
    const snap = await this.o.pages.load(project);
    const times = await this.mtimes(project);
    const now = this.o.clock.now();
    const { restored } = await this.state();
    const pages: (ReflectionPage & { mtime: number })[] = [];
    for (const page of snap.pages.values()) {
      // a page a person put back is left as they chose until it changes again
      if (restored[`${project}/${page.path}`] === times.get(page.path)) continue;
      const records = reflectionRecords(page, now);
      const mtime = times.get(page.path) ?? 0;
      const due = records.some((r) => !r.manual && !r.marked && r.status === 'active' && ((r.category === 'commitment' && r.state === 'expired') || (r.category === 'episode' && r.state === 'old')));
      if (since === null || mtime > since.getTime() || due) pages.push({ path: page.path, title: page.title, records, mtime });
    }
    return pages
      .sort((a, b) => b.mtime - a.mtime)
      .slice(0, limit)
      .map(({ mtime: _mtime, ...p }) => p);
  }

  apply(project: string, change: PageChange): Promise<PageOutcome> {
    const none = { merged: 0, rules: 0, expired: 0, settled: 0, proposed: 0 };
    return this.o.pages.exclusive(project, async () => {
      const full = resolveInside(this.o.pages.notesDir(project), change.page);
      const before = await readIfExists(full);
      const read = before === null ? null : readPage(before, change.page, change.page);
      if (before === null || !read?.ok) return { applied: false, reason: 'the page is gone or does not read', ...none };
      const snap = await this.o.pages.load(project);
      const lookup = lookupIn(snap.pages.values());
      const now = this.o.clock.now();
      const result = applyChange(change.page, before, read.page, change, now.toISOString().slice(0, 10), lookup);
      if (result.content === before) return { applied: true, ...none };
      const verdict = guardRewrite(change.page, before, result.content);
      if (!verdict.ok) {
        this.o.logger.warn({ project, page: change.page, reason: verdict.reason }, 'reflection rewrite rejected by the guard; the page is unchanged');
        await this.o.pages.log(project, [{ action: 'rejected', path: change.page, source: SOURCE, detail: `guard: ${verdict.reason}` }]);
        return { applied: false, reason: verdict.reason, ...none };
      }
      const kept = await this.history.keep(project, change.page, before, now);
      const written = await this.o.pages.mutatePage(project, change.page, (current) => (current === before ? { content: result.content } : null));
      if (written.kind !== 'written') return { applied: false, reason: 'the page changed while reflection wrote it', ...none };
      await this.o.pages.log(project, [...result.log.map(recordLogLine), { action: 'updated' as const, path: change.page, source: SOURCE, detail: `previous version kept in ${kept}` }]);
      return { applied: true, ...result.counts };
    });
  }

  async finished(project: string, at: Date): Promise<void> {
    const state = await this.state();
    state.reflected[project] = at.toISOString();
    await this.saveState(state);
    await this.o.pages.regenerateIndex(project);
  }

  versions(project: string, page?: string): Promise<PageVersion[]> {
    if (page === undefined) return this.history.versions(project);
    const name = pageName(page);
    return name ? this.history.versions(project, name) : Promise.resolve([]);
  }

  restore(project: string, page: string, version?: string): Promise<RestoreOutcome> {
    return this.o.pages.exclusive(project, async () => {
      const out = await this.history.restore(project, page, version, this.o.clock.now());
      if (out.ok) {
        const state = await this.state();
        const written = await stat(resolveInside(this.o.pages.notesDir(project), out.page)).catch(() => null);
        if (written) state.restored[`${project}/${out.page}`] = written.mtimeMs;
        await this.saveState(state);
        await this.o.pages.log(project, [{ action: 'restored', path: out.page, source: 'restore', detail: `version ${out.version}` }]);
        await this.o.pages.regenerateIndex(project);
      }
      return out;
    });
  }
}

function reflectionRecords(page: WikiPage, now: Date): ReflectionRecord[] {
  const byLine = new Map([...page.facts, ...page.unsourced].map((f) => [f.line, f]));
  return recordsOf(page).map((r) => {
    const f = byLine.get(r.line);
    const marked = f !== undefined && (field(f.fields, 'expired') !== undefined || field(f.fields, 'settled') !== undefined);
    return {
      id: r.id,
      page: r.page,
      statement: r.statement,
      category: r.category,
      said: r.said,
      due: r.due,
      happened: r.happened,
      status: r.status,
      state: decay(r, now).state,
      manual: r.handEdited,
      marked,
      sensitivity: r.sensitivity,
    };
  });
}

function lookupIn(pages: Iterable<WikiPage>): (id: string) => { page: string; sensitivity: string } | undefined {
  const map = new Map<string, { page: string; sensitivity: string }>();
  for (const p of pages) for (const r of recordsOf(p)) if (r.id) map.set(r.id, { page: p.path, sensitivity: r.sensitivity });
  return (id) => map.get(id);
}
