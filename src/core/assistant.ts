/**
 * The assistant, composed of its slices: the conversation (core/turn/conversation.ts), the place's
 * settings (place-settings.ts), the Memory Inspector (inspector.ts) and the user's private
 * memory (private-memory.ts), over one memory writer (memory-writer.ts). It resolves a place
 * into a `Home` (home.ts); front doors take only the slices they use (assistant-api.ts).
 */
import type { AssistantApi, ProjectsApi } from './assistant-api.js';
import type { Place } from './place.js';
import { Conversation } from './turn/conversation.js';
import { EgressGuard } from './privacy/egress.js';
import { openHome, type Home, type MemoryStores } from './home.js';
import { MemoryInspector } from './inspector/inspector.js';
import { modelLanes, type ModelLane } from './lanes.js';
import { MemoryWriter } from './writing/memory-writer.js';
import { PlaceSettings } from './place-settings.js';
import type { ChatModel, Clock, Embedder, LocalChatModel, Logger, ProjectStore, Recall, LogEntry } from './ports/index.js';
import { PrivateMemory } from './private/private-memory.js';
import type { Reflection } from './reflection/reflection.js';
import { sensitiveRecords } from './privacy/sensitive-records.js';
import type { CalendarDesk } from './time/calendar.js';
import type { ReminderDesk } from './time/reminder-desk.js';
import type { LoopLimits } from './turn/tool-loop.js';
import type { ToolSource } from './turn/tool-source.js';
import { builtinTools } from './tools/index.js';
import type { Tool } from './tools/tool.js';
import type { WriteRequestStore } from './writing/write-requests.js';
import type { Vault } from './ports/vault.js';
import type { MachineDesk } from './machines/desk.js';
import type { ConsentLedger, ConsentMode } from './privacy/consent.js';
import { ConsentDesk } from './privacy/consent-desk.js';
import { DeviceCursor, type DistillLedger } from './writing/device-cursor.js';
import type { PrecheckSettings } from './turn/precheck.js';
import type { MeaningJudge } from './privacy/meaning-judge.js';

export interface AssistantSettings {
  assistantName: string;
  limits: LoopLimits;
  historyMessages: number;
  distillEvery: number;
  temperature: number;
  /** Longer messages are archived whole but cut for the model, with a visible notice. */
  maxMessageChars: number;
  /** Distil a backlog in batches of about this many characters of messages. */
  distillBatchChars: number;
  /** One distillation run gives up after this long; its messages stay pending. */
  distillDeadlineMs: number;
}

export interface AssistantDeps extends MemoryStores {
  model: ChatModel;
  /** The memory writer: only a local model may distil (null disables distillation). */
  memoryModel: LocalChatModel | null;
  clock: Clock;
  logger: Logger;
  settings: AssistantSettings;
  tools?: Tool[];
  /** Tools from MCP servers, offered by category; at most `maxDefinitions` tool definitions per request. */
  toolSource: { source: ToolSource; maxDefinitions: number };
  newId?: () => string;
  /** The newest stored entries of every place, for a text whose place is not known (see Conversation). */
  storedEverywhere?: (limit: number) => Promise<LogEntry[]>;
  /** Where a hosted model's requests to remember wait for the memory lane. */
  writeRequests: WriteRequestStore;
  /** Reflection on the projects' pages and their kept versions. */
  reflection: Reflection;
  /** Reminders the model may set for the person asking. */
  reminders: ReminderDesk;
  /** Subscribed calendars: the agenda and new events. */
  calendar: CalendarDesk;
  /** Secrets given in messages, per person (absent: they are only removed). */
  vault?: Vault;
  /** Machines Charlie may connect to over SSH for the person asking (absent: none). */
  machines?: MachineDesk;
  /** On a device that syncs: its own list of the messages it archived and has not distilled (the per-device cursor). */
  distillLedger?: DistillLedger;
  /** Asking in the moment: `ask` or `withhold`, the ledger of answers (private.db), and how long a person has to answer. */
  consent: { mode: ConsentMode; ledger: ConsentLedger; timeoutMs: number };
  /** The memory lane judges each message before anything leaves (core/turn/precheck.ts); absent: the rules only. */
  precheck?: PrecheckSettings;
  /** Without a memory lane, the built-in judge by meaning judges in its place (core/privacy/meaning-judge.ts). */
  meaning?: MeaningJudge | null;
  /** The sentence embedder "why?" by question ranks a project's records by meaning with, loaded at its first use (absent: by words only). */
  whyEmbedder?: Embedder;
}

export class Assistant implements AssistantApi {
  readonly conversation: Conversation;
  readonly settings: PlaceSettings;
  readonly memory: MemoryInspector;
  readonly private: PrivateMemory;
  readonly privacy: ConsentDesk;
  readonly projects: ProjectsApi;
  private readonly writer: MemoryWriter;
  private readonly deviceCursor: DeviceCursor | undefined;
  private counter = 0;

  constructor(private readonly deps: AssistantDeps) {
    const { clock, logger, model, memoryModel } = deps;
    this.deviceCursor = deps.distillLedger ? new DeviceCursor(deps.distillLedger, deps.store) : undefined;
    const newId = () => deps.newId?.() ?? `t${Date.now().toString(36)}${(this.counter++).toString(36)}`;
    const egress = new EgressGuard(
      model,
      sensitiveRecords(deps.store, () => clock.now(), deps.privateStore, deps.privateRecords),
      (origins) => logger.info({ withheld: origins.length }, 'sensitive records withheld from a hosted model'),
    );
    this.writer = new MemoryWriter({ model, memoryModel, clock, logger, writeRequests: deps.writeRequests, settings: deps.settings, newId });
    const open = (place: Place, recall?: Recall) => this.home(place, recall);
    this.conversation = new Conversation({
      model,
      clock,
      logger,
      recall: deps.recall,
      settings: deps.settings,
      tools: deps.tools ?? builtinTools(),
      toolSource: deps.toolSource,
      egress,
      writer: this.writer,
      reminders: deps.reminders,
      calendar: deps.calendar,
      openHome: open,
      newId,
      vault: deps.vault,
      machines: deps.machines,
      consent: deps.consent,
      precheck: deps.precheck ? { lane: memoryModel, meaning: deps.meaning ?? null, settings: deps.precheck } : undefined,
      ...(deps.storedEverywhere ? { storedEverywhere: deps.storedEverywhere } : {}),
    });
    this.settings = new PlaceSettings({ clock, openHome: open });
    this.memory = new MemoryInspector({ clock, logger, writer: this.writer, openHome: open });
    this.private = new PrivateMemory({ store: deps.privateStore, clock, logger, idle: () => this.idle() });
    this.privacy = new ConsentDesk(deps.consent.mode, deps.consent.ledger, () => clock.now());
    this.projects = projectsOf(deps.store);
  }

  private home(place: Place, recall: Recall = this.deps.recall): Promise<Home> {
    const { store, privateStore, privateRecords, privateRecall, usage, graph, candidates, lastReflection, clock, settings, reflection } = this.deps;
    return openHome(place, {
      store,
      privateStore,
      recall,
      usage,
      graph,
      candidates,
      lastReflection,
      privateRecords,
      reflection,
      privateRecall,
      now: () => clock.now(),
      distillEvery: settings.distillEvery,
      deviceCursor: this.deviceCursor,
      whyEmbedder: this.deps.whyEmbedder,
    });
  }

  lanes(): ModelLane[] {
    return modelLanes(this.deps.model, this.deps.memoryModel);
  }

  async idle(): Promise<void> {
    await this.conversation.idle();
    await this.writer.idle();
    await this.deps.reflection.idle();
  }
}

/** The projects slice: the store's project and page reads, and nothing else of it. */
function projectsOf(store: ProjectStore): ProjectsApi {
  return {
    listProjects: () => store.listProjects(),
    getProject: (slug) => store.getProject(slug),
    ensureProject: (origin) => store.ensureProject(origin),
    relabelProject: (slug, change) => store.relabelProject(slug, change),
    readPage: (slug, page) => store.readPage(slug, page),
    listNotes: (slug) => store.listNotes(slug),
    readNote: (slug, path) => store.readNote(slug, path),
    recentLog: (slug, limit) => store.recentLog(slug, limit),
  };
}
