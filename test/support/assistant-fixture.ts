/** Builds an Assistant from fakes, with small limits, for core tests. */
import { Assistant, type AssistantDeps, type AssistantSettings } from '../../src/core/assistant.js';
import type { Place } from '../../src/core/assistant-api.js';
import type { TurnEvent } from '../../src/core/events.js';
import { silentLogger, type ChatModel, type Clock, type LocalChatModel, type Logger, type ProjectStore, type PrivateStore, type Recall, type UsageStore } from '../../src/core/ports/index.js';
import { FixedClock, GrepRecall, InMemoryPrivateStore, InMemoryProjectStore, RecordingUsageStore } from './fakes.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { Wiki } from '../../src/memory/graph/wiki.js';

/**
 * The knowledge graph as production builds it: a Wiki on a fresh temporary projects folder,
 * removed when the test that made it finishes.
 */
export function tempGraph(clock: Clock = new FixedClock()): { graph: Wiki; projectsDir: string } {
  const projectsDir = mkdtempSync(join(tmpdir(), 'charlie-graph-'));
  try {
    onTestFinished(() => rmSync(projectsDir, { recursive: true, force: true }));
  } catch {
    // made outside a test (a describe block): the OS's temp cleanup removes it
  }
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

/**
 * An Assistant from fakes unless the test hands real adapters (a store in a temp folder, SQLite,
 * the system clock); the memory model defaults to the chat model when that one is local.
 */
export function makeAssistant<S extends ProjectStore = InMemoryProjectStore, P extends PrivateStore = InMemoryPrivateStore, C extends Clock = FixedClock>(opts: {
  model: ChatModel;
  memoryModel?: LocalChatModel | null;
  store?: S;
  privateStore?: P;
  recall?: Recall;
  usage?: UsageStore;
  graph?: AssistantDeps['graph'];
  candidates?: AssistantDeps['candidates'];
  privateRecords?: AssistantDeps['privateRecords'];
  tools?: AssistantDeps['tools'];
  toolSource?: AssistantDeps['toolSource'];
  reminders?: AssistantDeps['reminders'];
  calendar?: AssistantDeps['calendar'];
  clock?: C;
  logger?: Logger;
  settings?: Partial<AssistantSettings>;
}): { assistant: Assistant; store: S; privateStore: P; clock: C; graph: AssistantDeps['graph'] } {
  const store = opts.store ?? (new InMemoryProjectStore() as ProjectStore as S);
  const privateStore = opts.privateStore ?? (new InMemoryPrivateStore() as PrivateStore as P);
  const clock = opts.clock ?? (new FixedClock() as Clock as C);
  const graph = opts.graph ?? tempGraph(clock).graph;
  const memoryModel = opts.memoryModel === undefined ? (opts.model.locality === 'local' ? (opts.model as LocalChatModel) : null) : opts.memoryModel;
  const assistant = new Assistant({
    model: opts.model,
    memoryModel,
    store,
    privateStore,
    recall: opts.recall ?? new GrepRecall(store),
    usage: opts.usage ?? new RecordingUsageStore(),
    graph,
    candidates: opts.candidates,
    ...(opts.privateRecords ? { privateRecords: opts.privateRecords } : {}),
    tools: opts.tools,
    ...(opts.toolSource ? { toolSource: opts.toolSource } : {}),
    ...(opts.reminders ? { reminders: opts.reminders } : {}),
    ...(opts.calendar ? { calendar: opts.calendar } : {}),
    clock,
    logger: opts.logger ?? silentLogger,
    settings: { ...testSettings, ...opts.settings },
    // every place's stored entries, as main.ts reads them from the archives and private.db
    ...(store instanceof InMemoryProjectStore ? { labelledEverywhere: () => Promise.resolve([...store.projects.values()].flatMap((p) => p.log)) } : {}),
  });
  return { assistant, store, privateStore, clock, graph };
}

export const general: Place = { kind: 'project', origin: { name: 'general', key: 'terminal:general' } };

export function collect(): { events: TurnEvent[]; onEvent: (e: TurnEvent) => void } {
  const events: TurnEvent[] = [];
  return { events, onEvent: (e) => events.push(e) };
}

let n = 0;
export function msg(text: string, place: Place = general, extra: Partial<import('../../src/core/assistant-api.js').IncomingMessage> = {}) {
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
