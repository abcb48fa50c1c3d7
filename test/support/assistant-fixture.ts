/** Builds an Assistant from fakes, with small limits, for core tests. */
import { Assistant, type AssistantDeps, type AssistantSettings } from '../../src/core/assistant.js';
import type { Place } from '../../src/core/place.js';
import type { TurnEvent } from '../../src/core/turn/events.js';
import { silentLogger, type ChatModel, type Clock, type LocalChatModel, type Logger, type ProjectStore, type PrivateStore, type Recall, type UsageStore } from '../../src/core/ports/index.js';
import { FixedClock, GrepRecall, InMemoryPrivateStore, InMemoryProjectStore, RecordingUsageStore } from './fakes.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { dataFiles } from '../../src/data-files.js';
import { Reflection } from '../../src/core/reflection/reflection.js';
import { CalendarDesk } from '../../src/core/time/calendar.js';
import { ReminderDesk } from '../../src/core/time/reminder-desk.js';
import { CalendarConnectorImpl } from '../../src/time/calendar/connector.js';
import { loadMcpConfig } from '../../src/mcp/client/config.js';
import { McpToolSource } from '../../src/mcp/client/source.js';
import { fileCandidateStore } from '../../src/memory/records/candidate-store.js';
import { FileReflectionPages } from '../../src/memory/reflect/reflection-pages.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';
import { FileWriteRequestStore } from '../../src/storage/write-request-store.js';
import { calendarRecords } from '../../src/time/calendar-records.js';
import { OutboxRouter } from '../../src/time/outbox-router.js';

/**
 * The knowledge graph as production builds it: a Wiki on a fresh temporary projects folder,
 * removed when the test that made it finishes.
 */
export function tempGraph(clock: Clock = new FixedClock()): { graph: Wiki; projectsDir: string } {
  const projectsDir = mkdtempSync(join(tmpdir(), 'charlie-graph-'));
  whenFinished(() => rmSync(projectsDir, { recursive: true, force: true }));
  return { graph: new Wiki({ projectsDir, clock, logger: silentLogger }), projectsDir };
}

export const testSettings: AssistantSettings = {
  assistantName: 'Charlie',
  limits: { maxSteps: 4, maxToolCalls: 6, deadlineMs: 5000, maxReplyChars: 10_000 },
  distillBatchChars: 24_000,
  distillDeadlineMs: 10_000,
  historyMessages: 10,
  distillEvery: 5,
  temperature: 0.2,
  maxMessageChars: 20_000,
};

/** Runs `close` when the test that called it finishes (made outside a test: the OS's temp cleanup and GC take it). */
function whenFinished(close: () => void): void {
  try {
    onTestFinished(close);
  } catch {
    // made outside a test (a describe block)
  }
}

/** A fresh temporary data folder (data/ in production), removed when the test finishes. */
function tempDataDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'charlie-data-'));
  whenFinished(() => rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}

/** What main.ts builds beside the stores, built the same way on temp folders and in-memory SQLite. */
function productionParts(o: { dataDir: string; projectsDir: string; store: ProjectStore; privateStore: PrivateStore; graph: Wiki; memoryModel: LocalChatModel | null; clock: Clock; logger: Logger }) {
  const { dataDir, clock, logger } = o;
  // private.db: the store's own records when the test hands a real one, else an in-memory private.db
  const sqlite = o.privateStore instanceof SqlitePrivateStore ? o.privateStore : new SqlitePrivateStore(':memory:');
  if (sqlite !== o.privateStore) whenFinished(() => sqlite.close());
  const jobs = new SqliteJobStore(':memory:');
  whenFinished(() => jobs.close());
  let n = 0;
  const newId = () => `f${(++n).toString(36)}`;
  const reflectionPages = new FileReflectionPages({ projectsDir: o.projectsDir, dataDir, pages: o.graph, clock, logger });
  const reminders = new ReminderDesk({ jobs, settings: jobs, outbox: new OutboxRouter(), clock, defaultZone: 'UTC', newId });
  const files = dataFiles(dataDir);
  return {
    candidates: (project: string) => fileCandidateStore(dataDir, project),
    lastReflection: (project: string) => reflectionPages.lastReflection(project),
    privateRecords: sqlite.records,
    privateRecall: sqlite.recall(null, clock),
    writeRequests: new FileWriteRequestStore(files.writeRequests),
    reflection: new Reflection({ pages: reflectionPages, model: o.memoryModel, clock, logger, settings: { quietMinutes: 30, intervalHours: 24, maxPages: 50, deadlineMs: 10_000 } }),
    toolSource: { source: new McpToolSource(loadMcpConfig(files.mcp), { clock, logger, version: 'test', callTimeoutMs: 5000, startTimeoutMs: 5000, cacheFile: files.mcpTools }), maxDefinitions: 40 },
    reminders,
    consent: { mode: 'withhold' as const, ledger: sqlite.consents, timeoutMs: 5000 },
    calendar: new CalendarDesk({
      jobs,
      connector: new CalendarConnectorImpl({ clock, secrets: () => null }),
      records: calendarRecords(o.store, o.graph, sqlite.records),
      clock,
      zoneOf: (owner) => reminders.zoneOf(owner),
      logger,
      newId,
      pollMinutes: 15,
    }),
  } satisfies Partial<AssistantDeps>;
}

/** The parts a test handed, leaving out those it left undefined. */
function given<T extends object, K extends keyof T>(opts: T, keys: readonly K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((k) => opts[k] !== undefined).map((k) => [k, opts[k]])) as Partial<Pick<T, K>>;
}

/**
 * An Assistant built the way main.ts builds it: every part production has (the promotion gate's
 * candidates in a temp data folder, private records and recall in an in-memory private.db,
 * reflection, reminders, the calendar, the MCP tool source, write requests on file), with fakes for
 * the stores unless the test hands real adapters (a store in a temp folder, SQLite, the system
 * clock); a test replaces a part by passing it. The memory model defaults to the chat model when
 * that one is local. `test/unit/assistant-fixture.test.ts` fails if a test builds one any other way.
 */
export function makeAssistant<S extends ProjectStore = InMemoryProjectStore, P extends PrivateStore = InMemoryPrivateStore, C extends Clock = FixedClock>(
  opts: {
    model: ChatModel;
    memoryModel?: LocalChatModel | null;
    store?: S;
    privateStore?: P;
    recall?: Recall;
    usage?: UsageStore;
    /** The knowledge graph and its projects folder (default: a fresh temp one). */
    graph?: Wiki;
    projectsDir?: string;
    tools?: AssistantDeps['tools'];
    clock?: C;
    logger?: Logger;
    settings?: Partial<AssistantSettings>;
  } & Partial<
    Pick<AssistantDeps, 'candidates' | 'privateRecords' | 'privateRecall' | 'lastReflection' | 'writeRequests' | 'reflection' | 'toolSource' | 'reminders' | 'calendar' | 'consent' | 'precheck'>
  >,
): { assistant: Assistant; store: S; privateStore: P; clock: C; graph: Wiki; dataDir: string } {
  const store = opts.store ?? (new InMemoryProjectStore() as ProjectStore as S);
  const privateStore = opts.privateStore ?? (new InMemoryPrivateStore() as PrivateStore as P);
  const clock = opts.clock ?? (new FixedClock() as Clock as C);
  const made = opts.graph ? { graph: opts.graph, projectsDir: opts.projectsDir ?? opts.graph.projectsDir } : tempGraph(clock);
  const memoryModel = opts.memoryModel === undefined ? (opts.model.locality === 'local' ? (opts.model as LocalChatModel) : null) : opts.memoryModel;
  const logger = opts.logger ?? silentLogger;
  const dataDir = tempDataDir();
  const parts = productionParts({ dataDir, projectsDir: made.projectsDir, store, privateStore, graph: made.graph, memoryModel, clock, logger });
  const assistant = new Assistant({
    ...parts,
    ...given(opts, ['candidates', 'privateRecords', 'privateRecall', 'lastReflection', 'writeRequests', 'reflection', 'toolSource', 'reminders', 'calendar', 'tools', 'consent', 'precheck']),
    model: opts.model,
    memoryModel,
    store,
    privateStore,
    recall: opts.recall ?? new GrepRecall(store),
    usage: opts.usage ?? new RecordingUsageStore(),
    graph: made.graph,
    clock,
    logger,
    settings: { ...testSettings, ...opts.settings },
    // every place's stored entries, as main.ts reads them from the archives and private.db
    ...(store instanceof InMemoryProjectStore ? { storedEverywhere: (limit: number) => Promise.resolve([...store.projects.values()].flatMap((p) => p.log.slice(-limit))) } : {}),
  });
  return { assistant, store, privateStore, clock, graph: made.graph, dataDir };
}

export const general: Place = { kind: 'project', origin: { name: 'general', key: 'terminal:general' } };

export function collect(): { events: TurnEvent[]; onEvent: (e: TurnEvent) => void } {
  const events: TurnEvent[] = [];
  return { events, onEvent: (e) => events.push(e) };
}

let n = 0;
export function msg(text: string, place: Place = general, extra: Partial<import('../../src/core/place.js').IncomingMessage> = {}) {
  n++;
  return { place, speaker: 'Alice', text, source: `test:${n}`, ...extra };
}

/** The statements on a project's entity pages, by page title (what the graph holds). */
export async function entityFacts(graph: AssistantDeps['graph'], project = 'general'): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const p of (await graph.pageLinks(project)).pages) out[p.title] ??= [];
  for (const r of await graph.records(project, new Date('2030-01-01T00:00:00Z'))) (out[r.pageTitle] ??= []).push(r.statement);
  return out;
}
