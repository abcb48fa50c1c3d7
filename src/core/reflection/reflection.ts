/**
 * When reflection runs and what it reports. The policy is here; the timer that asks is in the
 * composition root (src/main.ts), and the pages it curates are behind the `ReflectionPages`
 * port (src/memory/reflect/). It runs between turns: for a project whose memory was written
 * and has then been quiet for `quietMinutes`, at most every `intervalHours`, and on
 * `/memory reflect` — only with a local memory model (the memory lane); without one it says so
 * and does nothing.
 */
import { batchBy } from '../writing/batches.js';
import { KeyedQueue } from '../keyed-queue.js';
import type { Clock, LocalChatModel, Logger } from '../ports/index.js';
import { planChanges, proposeWithModel, type PageChange, type ReflectionPage } from './reflect.js';
import { errorMessage } from '../../util/error-text.js';

export interface PageOutcome {
  /** False when the guard refused the rewrite (`reason`) or the page changed meanwhile: the page is as it was. */
  applied: boolean;
  reason?: string;
  merged: number;
  rules: number;
  expired: number;
  settled: number;
  proposed: number;
}

/** A kept previous version of a page (`.history/` in the project). */
export interface PageVersion {
  /** Relative to notes/, with `.md`. */
  page: string;
  /** Its time, e.g. `2026-11-30T14-00-00.000Z`. */
  version: string;
  /** Relative to the project folder. */
  file: string;
}

export type RestoreOutcome = { ok: true; page: string; version: string } | { ok: false; reason: string };

/** The pages reflection curates, and their kept versions. */
export interface ReflectionPages {
  projects(): Promise<string[]>;
  /** When the project's pages were last written, and when reflection last finished there. */
  activity(project: string): Promise<{ lastWrite: Date | null; lastReflection: Date | null }>;
  /**
   * Pages written since `since` (all when null), and pages holding a commitment or episode that
   * is due to be marked; most recent first, at most `limit`.
   */
  touched(project: string, since: Date | null, limit: number): Promise<ReflectionPage[]>;
  /** Applies a change behind the guard, keeping the page's previous version and logging each change. */
  apply(project: string, change: PageChange): Promise<PageOutcome>;
  /** After a run: remembers when it finished (and regenerates what depends on the pages). */
  finished(project: string, at: Date): Promise<void>;
  versions(project: string, page?: string): Promise<PageVersion[]>;
  restore(project: string, page: string, version?: string): Promise<RestoreOutcome>;
}

export interface ReflectionSettings {
  quietMinutes: number;
  intervalHours: number;
  /** Pages walked per run (most recently touched first). */
  maxPages: number;
  /** One run gives up on the model after this long. */
  deadlineMs: number;
}

export interface ReflectionReport {
  project: string;
  pages: number;
  merged: number;
  rules: number;
  expired: number;
  settled: number;
  proposed: number;
  rejected: number;
  /** Model items dropped as invalid. */
  dropped: number;
  /** Why pages were left unchanged (`page: reason`). */
  rejections: string[];
  /** Set when reflection did not run (no local model, model failure). */
  error?: string;
}

export const NO_MEMORY_MODEL = 'reflection needs a local memory model (set MEMORY_LLM_BASE_URL, or a local LLM_BASE_URL); nothing was changed';
const MAX_RECORDS_PER_CALL = 150;
const MINUTE = 60_000;

/** Whether a project is due: memory written since the last run, quiet since, and the interval passed. */
export function reflectionDue(activity: { lastWrite: Date | null; lastReflection: Date | null }, now: Date, settings: Pick<ReflectionSettings, 'quietMinutes' | 'intervalHours'>): boolean {
  const { lastWrite, lastReflection } = activity;
  if (!lastWrite) return false;
  if (lastReflection && lastWrite <= lastReflection) return false;
  if (now.getTime() - lastWrite.getTime() < settings.quietMinutes * MINUTE) return false;
  return !lastReflection || now.getTime() - lastReflection.getTime() >= settings.intervalHours * 60 * MINUTE;
}

const emptyReport = (project: string): ReflectionReport => ({ project, pages: 0, merged: 0, rules: 0, expired: 0, settled: 0, proposed: 0, rejected: 0, dropped: 0, rejections: [] });

/** The report in one line, for the channel, the log and `/memory reflect`'s reply. */
export function reportText(r: ReflectionReport): string {
  if (r.error) return `Reflection did not run: ${r.error}`;
  if (r.pages === 0) return 'Reflection: no page was touched since the last reflection; nothing to do.';
  const parts = [
    `merged ${r.merged}`,
    `distilled ${r.rules} rule${r.rules === 1 ? '' : 's'}`,
    `expired ${r.expired}`,
    `settled ${r.settled}`,
    `proposed ${r.proposed} for review`,
    `rejected ${r.rejected} by the guard`,
  ];
  const why = r.rejections.length ? ` Left unchanged: ${r.rejections.slice(0, 3).join('; ')}.` : '';
  const dropped = r.dropped ? ` ${r.dropped} invalid model item(s) dropped.` : '';
  return `Reflection over ${r.pages} page${r.pages === 1 ? '' : 's'}: ${parts.join(', ')}.${why}${dropped}`;
}

export interface ReflectionDeps {
  pages: ReflectionPages;
  model: LocalChatModel | null;
  clock: Clock;
  logger: Logger;
  settings: ReflectionSettings;
}

export class Reflection {
  /** One run at a time per project. */
  private readonly queue = new KeyedQueue();

  constructor(private readonly deps: ReflectionDeps) {}

  /**
   * Reflects on a project now: on the pages touched since the last run (`recent`, the
   * scheduled run) or on the most recently touched pages whatever the last run (`all`, the command).
   */
  run(project: string, scope: 'recent' | 'all'): Promise<ReflectionReport> {
    const model = this.deps.model;
    if (!model) return Promise.resolve({ ...emptyReport(project), error: NO_MEMORY_MODEL });
    return this.queue.run(project, async () => {
      const { pages, clock, settings } = this.deps;
      const logger = this.deps.logger.child({ project, job: 'reflection' });
      const report = emptyReport(project);
      try {
        const since = scope === 'recent' ? (await pages.activity(project)).lastReflection : null;
        const touched = await pages.touched(project, since, settings.maxPages);
        report.pages = touched.length;
        const signal = AbortSignal.timeout(settings.deadlineMs);
        // pages in groups of at most MAX_RECORDS_PER_CALL records (a page is never split)
        for (const batch of batchBy(touched, (p) => p.records.length, MAX_RECORDS_PER_CALL)) {
          const none = batch.every((p) => p.records.length === 0);
          const proposals = none ? { duplicates: [], rules: [], contradictions: [], dropped: [] } : await proposeWithModel(model, batch, logger, signal);
          report.dropped += proposals.dropped.length;
          for (const change of planChanges(batch, proposals)) {
            const out = await pages.apply(project, change);
            if (!out.applied) {
              report.rejected++;
              report.rejections.push(`${change.page}: ${out.reason ?? 'unchanged'}`);
              continue;
            }
            report.merged += out.merged;
            report.rules += out.rules;
            report.expired += out.expired;
            report.settled += out.settled;
            report.proposed += out.proposed;
          }
        }
        await pages.finished(project, clock.now());
      } catch (error) {
        report.error = errorMessage(error);
        logger.warn({ err: report.error }, 'reflection failed; pages already changed stay changed, the rest is left for the next run');
      }
      logger.info({ ...report, rejections: report.rejections.length }, reportText(report));
      return report;
    });
  }

  /** Runs every project that is due (one at a time); the timer in the composition root calls it. */
  async tick(): Promise<ReflectionReport[]> {
    if (!this.deps.model) return [];
    const out: ReflectionReport[] = [];
    const now = this.deps.clock.now();
    for (const project of await this.deps.pages.projects()) {
      if (reflectionDue(await this.deps.pages.activity(project), now, this.deps.settings)) out.push(await this.run(project, 'recent'));
    }
    return out;
  }

  versions(project: string, page?: string): Promise<PageVersion[]> {
    return this.deps.pages.versions(project, page);
  }

  restore(project: string, page: string, version?: string): Promise<RestoreOutcome> {
    return this.deps.pages.restore(project, page, version);
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }
}
