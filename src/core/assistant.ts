/**
 * The conversation core: one turn per incoming message, the same for every front door.
 * Archive the message, build the context, run the bounded tool loop, archive the reply,
 * and schedule distillation off the reply's critical path.
 */
import {
  placeKey,
  type AssistantApi,
  type FactProposal,
  type HandleOptions,
  type TurnToolAccess,
  type DistillOutcome,
  type ForgettableItem,
  type IncomingMessage,
  type MemoryView,
  type Place,
  type TurnOutcome,
} from './assistant-api.js';
import { InMemoryWriteRequests, NOT_SAID, reviewWriteRequests, saidByPeople, type WriteRequestStore, type MemoryWrites, type WriteResult } from './write-requests.js';
import { scoreText, takeCandidate, viaOf, type Candidate } from './promotion.js';
import { classifyText, isSensitive, sensitivityOfText, stricter } from './sensitivity.js';
import { TaintLedger } from './taint.js';
import { distill } from './distill.js';
import { CONTEXT_RETRY_NOTICE, MemoryUnavailableError, ModelError, modelErrorReply } from './errors.js';
import { EgressGuard, SENSITIVE_PAGE, type EgressScope, type SensitiveRecord } from './egress.js';
import { privateRecordView } from './private-records.js';
import { forgetPrivate, showPrivate, type PrivateForgetOutcome, type PrivateForgetTarget, type PrivateMemoryView } from './private-memory.js';
import { markedBlocks, sensitiveRecords } from './sensitive-records.js';
import { ForgottenError, type ForgetOutcome, type ForgetTarget } from './tombstones.js';
import type { TurnEvent, TurnEventListener } from './events.js';
import { decisionsFromText, quotesFromText } from './memory-edit.js';
import { openHome, type Home, type MemoryStores } from './home.js';
import { KeyedQueue } from './keyed-queue.js';
import { modelLanes, type ModelLane } from './lanes.js';
import { NO_MEMORY_MODEL, type PageVersion, type Reflection, type ReflectionReport, type RestoreOutcome } from './reflection.js';
import type { ChatModel, Clock, LocalChatModel, LogEntry, Logger, Note, NoteDraft, NoteSummary, ProjectConfig, Recall, PageLinks, RecallHit, RecordView, ReviewChoice, ReviewPair } from './ports.js';
import { presuggest } from './presuggest.js';
import { remindersFor, remindersPrompt, type Reminder } from './reminders.js';
import { explainWhy, privateWhy, type WhyAnswer } from './why.js';
import { withoutHostPaths } from './public-text.js';
import { removeSecrets, secretNotice } from './secrets.js';
import { historyMessages, systemPrompt, userMessage } from './prompt.js';
import { runToolLoop, type LoopLimits, type LoopResult } from './tool-loop.js';
import { builtinTools } from './tools/index.js';
import type { Tool, ToolCategory } from './tools/tool.js';
import type { ToolSource, TurnToolSource } from './tool-source.js';
import { presuggestGroups } from './presuggest.js';
import { askerFor, type Asker, type ReminderDesk } from './time/reminder-desk.js';
import type { CalendarDesk } from './time/calendar.js';

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
  /** Tools from MCP servers, offered by category (absent: none); at most `maxDefinitions` tool definitions per request. */
  toolSource?: { source: ToolSource; maxDefinitions: number };
  newId?: () => string;
  /** Where a hosted model's requests to remember wait for the memory lane (default: in memory). */
  writeRequests?: WriteRequestStore;
  /** Reflection on the projects' pages and their kept versions (absent: none). */
  reflection?: Reflection;
  /** Reminders the model may set for the person asking (absent: no scheduler). */
  reminders?: ReminderDesk;
  /** Subscribed calendars: the agenda and new events (absent: none). */
  calendar?: CalendarDesk;
}

export const FAILURE_REPLY = 'Sorry — something went wrong while answering. Your message is saved.';
const OUT_OF_TIME = '(I ran out of time for this answer.)';

/**
 * The turn's one deadline. The model work (`answer`) ends a little earlier, so the front door
 * still has time to post what was written before the whole turn (`turn`) is over.
 */
function turnDeadline(deadlineMs: number): { turn: AbortSignal; answer: AbortSignal; answerMs: number } {
  // a fifth of the deadline, at most 15 s — but at least 5 s (or half) for a short deadline
  const reserve = Math.max(Math.min(15_000, Math.round(deadlineMs / 5)), Math.min(5000, Math.round(deadlineMs / 2)));
  const answerMs = deadlineMs - reserve;
  return { turn: AbortSignal.timeout(deadlineMs), answer: AbortSignal.timeout(answerMs), answerMs };
}

/** Resolves with `work`, or with `onTimeout()` when `signal` fires first. */
function within<T>(work: Promise<T>, signal: AbortSignal, onTimeout: () => T): Promise<T> {
  if (signal.aborted) return Promise.resolve(onTimeout());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => resolve(onTimeout());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** What `answer` needs to build the prompt and run the tool loop. */
interface Ask {
  home: Home;
  speaker: string;
  text: string;
  images: string[];
  now: Date;
  mode: 'text' | 'voice';
  source: string;
  turnId: string;
  emit: (event: TurnEvent) => void;
  log: Logger;
  cancel: AbortSignal | undefined;
  /** Who asks, and how to confirm a tool call (absent: no tool servers this turn). */
  access: TurnToolAccess | undefined;
  deadline: { answer: AbortSignal; answerMs: number };
  /** Sensitive records this turn's searches brought up: the egress guard withholds them too. */
  found: SensitiveRecord[];
  /** The egress guard withheld something from this turn's requests. */
  onWithheld: () => void;
  /** Follow-ups and review notes Charlie brings up itself in this reply (once each). */
  reminders: Reminder[];
  /** Who asks, and where, for the reminder tools. */
  asker: Asker;
}

export class Assistant implements AssistantApi {
  private readonly tools: Tool[];
  /** Distillation runs one at a time per home, off the reply's critical path. */
  private readonly distilling = new KeyedQueue();
  private readonly egress: EgressGuard;
  private readonly writeRequests: WriteRequestStore;
  private counter = 0;
  /** Per home: speaker name → Discord id, as messages arrive (for the speakers' own pages). */
  private readonly speakerIds = new Map<string, Map<string, string>>();
  /** Turns that drew on sensitive context, and their replies: never given to a hosted voice. */
  private readonly taint = new TaintLedger();

  constructor(private readonly deps: AssistantDeps) {
    this.tools = deps.tools ?? builtinTools();
    this.writeRequests = deps.writeRequests ?? new InMemoryWriteRequests();
    this.egress = new EgressGuard(
      deps.model,
      sensitiveRecords(deps.store, () => deps.clock.now(), deps.privateStore, deps.privateRecords),
      (origins) => deps.logger.info({ withheld: origins.length }, 'sensitive records withheld from a hosted model'),
    );
  }

  /** How tools of this turn write memory: directly for a local model, as candidates for a hosted one. */
  private writesFor(home: Home, source: string, theirWords: () => string, asCandidates = false): MemoryWrites {
    if (home.private) return { saveNote: async () => ({ kind: 'refused', reason: 'notes are not kept for private conversations' }) };
    const slug = home.key;
    // a write whose only source is memory, a file or a tool result is refused, for either lane
    const said = (draft: NoteDraft) => saidByPeople(`${draft.title} ${draft.body}`, theirWords());
    if (this.deps.model.locality === 'local' && !asCandidates) return { saveNote: async (draft) => (said(draft) ? this.fileNote(home, draft) : { kind: 'refused', reason: NOT_SAID }) };
    return {
      saveNote: async (draft) => {
        if (!said(draft)) return { kind: 'refused', reason: NOT_SAID };
        await this.writeRequests.add({
          id: this.newId(),
          project: slug,
          title: draft.title,
          text: draft.body,
          ...(draft.category ? { category: draft.category } : {}),
          ...(draft.tags?.length ? { tags: draft.tags } : {}),
          source: draft.source || source,
          requested: this.deps.clock.now().toISOString(),
          by: this.deps.model.id,
        });
        return { kind: 'candidate', reviewer: this.deps.memoryModel ? 'memory-lane' : 'none' };
      },
    };
  }

  /**
   * Writes a note for the memory lane or a local chat model: through the knowledge graph when
   * the project has one ("Sarah" finds Sarah Chen's page; a restated fact is not added twice),
   * else as a dated entry. Forgotten items are refused by the store or the graph.
   */
  private async fileNote(home: Home, draft: NoteDraft): Promise<WriteResult> {
    try {
      const graph = home.graph;
      if (!graph) return { kind: 'saved', ...(await this.deps.store.saveNote(home.key, draft)) };
      const said = this.deps.clock.now().toISOString().slice(0, 10);
      const facts = sentences(draft.body).map((text) => ({ text, said, source: draft.source, gate: 'saved with the remember tool (the gate does not judge it)' }));
      const report = await graph.write({ origin: 'remember', entities: [{ name: draft.title, ...(draft.category ? { category: draft.category } : {}), create: true, facts }], links: [] });
      const path = report.created[0] ?? report.updated[0];
      if (!path) return report.refused[0] ? { kind: 'refused', reason: report.refused[0].reason } : { kind: 'unchanged' };
      return { kind: 'saved', path, created: report.created.length > 0, detail: `${report.factsAdded} fact(s) added, ${report.factsRefreshed} refreshed` };
    } catch (error) {
      if (error instanceof ForgottenError) return { kind: 'refused', reason: error.message };
      throw error;
    }
  }

  private newId(): string {
    return this.deps.newId?.() ?? `t${Date.now().toString(36)}${(this.counter++).toString(36)}`;
  }

  private home(place: Place, recall: Recall = this.deps.recall): Promise<Home> {
    const { store, privateStore, privateRecords, privateRecall, usage, graph, candidates, lastReflection, clock, settings } = this.deps;
    return openHome(place, {
      store,
      privateStore,
      recall,
      usage,
      ...(graph ? { graph } : {}),
      ...(candidates ? { candidates } : {}),
      ...(lastReflection ? { lastReflection } : {}),
      ...(privateRecords ? { privateRecords } : {}),
      ...(privateRecall ? { privateRecall } : {}),
      now: () => clock.now(),
      distillEvery: settings.distillEvery,
    });
  }

  /**
   * One turn, bounded by the turn deadline whatever happens inside it (a stalled store, a
   * stalled model): it always resolves, and `outcome.deadline` lets the front door bound
   * posting the reply by the same deadline.
   */
  async handle(message: IncomingMessage, options: HandleOptions = {}): Promise<TurnOutcome> {
    const deadline = turnDeadline(this.deps.settings.limits.deadlineMs);
    const state = { open: true };
    const onEvent = options.onEvent;
    const guarded: TurnEventListener = (event) => {
      if (state.open) onEvent?.(event);
    };
    const work = this.turn(message, guarded, options.signal, deadline, options.tools);
    const outcome = await within(work, deadline.turn, (): TurnOutcome => {
      this.deps.logger.warn({ deadlineMs: this.deps.settings.limits.deadlineMs }, 'turn deadline reached before the turn finished');
      work.catch((err: unknown) => this.deps.logger.warn({ err }, 'a turn that ran out of time failed afterwards'));
      return { project: '', reply: OUT_OF_TIME, reason: 'deadline', related: [], notices: ['turn deadline reached'] };
    });
    state.open = false;
    return { ...outcome, deadline: deadline.turn };
  }

  private async turn(message: IncomingMessage, onEvent: TurnEventListener, cancel: AbortSignal | undefined, deadline: Ask['deadline'], access?: TurnToolAccess): Promise<TurnOutcome> {
    const { settings, clock, model } = this.deps;
    // Sensitive records a search brings up in this turn are withheld too, wherever they are in the archive.
    const found: SensitiveRecord[] = [];
    const now = message.time ?? clock.now();
    // Secrets never reach memory, the index or a model: removed before the message is archived.
    const scan = removeSecrets(message.text);
    let home: Home;
    let history: LogEntry[];
    try {
      home = await this.home(message.place, tapSensitive(this.deps.recall, found));
      history = await home.recent(settings.historyMessages);
      await home.archive({ time: now.toISOString(), speaker: message.speaker, source: message.source, text: scan.text, role: 'user' });
    } catch (error) {
      // A damaged or full memory store: say so (file, what works, how to recover), not "try again".
      if (!(error instanceof MemoryUnavailableError)) throw error;
      this.deps.logger.error({ err: error }, 'memory unavailable');
      return { project: placeKey(message.place), reply: withoutHostPaths(error.message), reason: 'error', related: [], notices: [] };
    }
    const log = this.deps.logger.child({ project: home.key });
    if (message.speakerId && !home.private) {
      let ids = this.speakerIds.get(home.key);
      if (!ids) this.speakerIds.set(home.key, (ids = new Map<string, string>()));
      ids.set(message.speaker, message.speakerId);
    }
    log.debug({ speaker: message.speaker, text: scan.text }, 'message');
    const outcome: TurnOutcome = { project: home.key, reply: '', reason: 'done', related: [], notices: [] };
    if (scan.kinds.length) {
      log.info({ kinds: scan.kinds }, 'secret removed from a message before archiving');
      outcome.notices.push(secretNotice(scan.kinds));
    }
    if (message.reply === false) {
      void this.scheduleDistill(home, false);
      return outcome;
    }
    const turnId = this.newId();
    let withheldInTurn = false;
    this.taint.begin(home.key, turnId, () => withheldInTurn || found.length > 0);
    const emit = (event: TurnEvent) => {
      if (event.type === 'notice') outcome.notices.push(event.text);
      try {
        onEvent(event);
      } catch (err) {
        log.warn({ err }, 'event listener failed');
      }
    };
    emit({ type: 'turn_start', turnId, project: home.key, mode: message.mode ?? 'text' });
    for (const n of outcome.notices.splice(0)) emit({ type: 'notice', turnId, level: 'warn', text: n });
    for (const p of home.problems) emit({ type: 'notice', turnId, level: 'warn', text: `${p.path}${p.line ? `:${p.line}` : ''} could not be read (${p.message}); it was left untouched` });

    let text = scan.text;
    if (text.length > settings.maxMessageChars) {
      text = `${text.slice(0, settings.maxMessageChars)}\n… (message cut here)`;
      emit({ type: 'notice', turnId, level: 'warn', text: `the message is long; only its first ${settings.maxMessageChars} characters were read` });
    }
    let images = message.images ?? [];
    if (images.length && !model.acceptsImages) {
      emit({ type: 'notice', turnId, level: 'warn', text: `${images.length} image(s) skipped: the model does not accept images` });
      images = [];
    }
    const reminders = await this.remindersOf(home, message, now).catch((err: unknown) => {
      log.warn({ err }, 'reminders not read');
      return [];
    });
    const asker = askerFor(message.place, message.speaker, message.speakerId);
    const ask: Ask = {
      home,
      speaker: message.speaker,
      text,
      images,
      now,
      mode: message.mode ?? 'text',
      source: message.source,
      turnId,
      emit,
      log,
      cancel,
      deadline,
      found,
      access,
      reminders,
      onWithheld: () => (withheldInTurn = true),
      asker,
    };
    try {
      let result: LoopResult;
      try {
        result = await this.answer(ask, history);
      } catch (error) {
        if (!(error instanceof ModelError && error.kind === 'context_too_long') || history.length === 0) throw error;
        // Too long for the model's context: say so, and try once more without the earlier messages.
        log.warn({ err: error, history: history.length }, 'context too long; retrying with less history');
        emit({ type: 'notice', turnId, level: 'warn', text: CONTEXT_RETRY_NOTICE });
        result = await this.answer(ask, []);
      }
      outcome.reply = result.text;
      outcome.reason = result.reason;
      outcome.related = result.pages.filter((p) => p.startsWith('notes/')).slice(0, 3);
      outcome.records = result.records;
    } catch (error) {
      const reason = withoutHostPaths(error instanceof Error ? error.message : String(error), home.private ? undefined : home.key);
      log.warn({ err: error }, 'turn failed');
      outcome.reply = error instanceof ModelError ? modelErrorReply(error) : FAILURE_REPLY;
      outcome.reason = 'error';
      emit({ type: 'turn_end', turnId, reason: 'error', text: outcome.reply, error: reason });
      return outcome;
    }
    if (outcome.reply.trim() && outcome.reason !== 'cancelled') {
      // brought up once: noted on the records, so the next turn does not repeat it
      for (const r of reminders) await home.records?.mark(r.ids, r.what, now.toISOString().slice(0, 10)).catch((err: unknown) => log.warn({ err }, 'reminder not noted'));
      try {
        await home.archive({ time: clock.now().toISOString(), speaker: settings.assistantName, source: message.source, text: outcome.reply, role: 'assistant' });
      } catch (error) {
        // The answer is given anyway; the person sees that it was not saved (a full disk…).
        if (!(error instanceof MemoryUnavailableError)) throw error;
        log.error({ err: error }, 'reply not archived');
        emit({ type: 'notice', turnId, level: 'warn', text: `this reply was not saved: ${withoutHostPaths(error.message, home.key)}` });
      }
    }
    outcome.tainted = this.taint.settle(home.key, turnId, outcome.reply, isSensitive(classifyText(outcome.reply)));
    emit({ type: 'turn_end', turnId, reason: outcome.reason, text: outcome.reply });
    void this.scheduleDistill(home, false);
    return outcome;
  }

  /** Past-due commitments of the speaker and open reviews about what the message names, not yet brought up. */
  private async remindersOf(home: Home, message: IncomingMessage, now: Date): Promise<Reminder[]> {
    if (!home.records) return [];
    const ask = { speaker: message.speaker, text: message.text, ...(message.speakerId ? { speakerId: message.speakerId } : {}) };
    return remindersFor(await home.records.raisable(ask, now), this.deps.model.locality === 'hosted');
  }

  /** Builds the prompt from the home's memory and `history`, and runs the tool loop. */
  private async answer(ask: Ask, history: LogEntry[]): Promise<LoopResult> {
    const { settings, clock, model } = this.deps;
    const { home, emit, turnId } = ask;
    const { layers, problems } = await home.layers();
    for (const p of problems) emit({ type: 'notice', turnId, level: 'warn', text: `${p.path}${p.line ? `:${p.line}` : ''} could not be read (${p.message}); it was left untouched` });
    const tools = this.tools.filter((t) => !(t.projectOnly && !home.notes));
    const available = [...new Set(tools.map((t) => t.category))] as ToolCategory[];
    const source = this.turnSource(ask.access);
    const messages = [
      {
        role: 'system' as const,
        content:
          systemPrompt({ assistantName: settings.assistantName, projectName: home.name, private: home.private, style: home.style, layers, now: ask.now, mode: ask.mode }) +
          remindersPrompt(ask.reminders),
      },
      ...historyMessages(history, 24_000),
      userMessage(ask.speaker, ask.text, ask.images),
    ];
    // what the people of the conversation said: a write nobody said is refused
    const theirWords = () => [ask.text, ...history.filter((h) => h.role === 'user').map((h) => h.text)].join('\n');
    return runToolLoop({
      model: this.egress.modelFor(egressScope(home), () => ask.found, ask.onWithheld),
      messages,
      tools,
      categories: [...presuggest(ask.text, available), ...presuggestGroups(ask.text, source?.groups ?? [])],
      ...(source ? { source } : {}),
      ctx: {
        home,
        writes: this.writesFor(home, ask.source, theirWords),
        // after an MCP tool's result, what the model asks to remember waits for the gate
        candidateWrites: this.writesFor(home, ask.source, theirWords, true),
        clock,
        source: ask.source,
        logger: ask.log,
        modelLocality: model.locality,
        sawSensitive: (r) => ask.found.push(r),
        ...(ask.access?.confirm ? { confirm: ask.access.confirm } : {}),
        scrubForHosted: (text) => this.egress.scrubText(egressScope(home), text),
        ...(this.deps.reminders ? { time: { desk: this.deps.reminders, asker: ask.asker, ...(this.deps.calendar ? { calendar: this.deps.calendar } : {}) } } : {}),
      },
      limits: { ...settings.limits, deadlineMs: ask.deadline.answerMs },
      turnId,
      emit,
      temperature: settings.temperature,
      signal: ask.cancel,
      deadline: ask.deadline.answer,
    });
  }

  /** The tool servers this person may use in this turn (none when the front door did not say who asks). */
  private turnSource(access: TurnToolAccess | undefined): TurnToolSource | undefined {
    const from = this.deps.toolSource;
    if (!from || !access) return undefined;
    const groups = from.source.groups(access.user);
    return groups.length ? { groups, load: (category, signal) => from.source.load(category, signal), maxDefinitions: from.maxDefinitions } : undefined;
  }

  /** Queues a distillation run for the home; it runs when enough messages are waiting (any, when forced). */
  private scheduleDistill(home: Home, force: boolean): Promise<DistillOutcome> {
    const memoryModel = this.deps.memoryModel;
    if (!memoryModel) return Promise.resolve({ ran: false, messages: 0, error: 'distillation needs a local model (LLM_LOCALITY)' });
    return this.distilling.run(home.key, async (): Promise<DistillOutcome> => {
      try {
        const target = home.distillTarget();
        if (!home.private) await this.reviewWaiting(home, memoryModel);
        const waiting = await target.pending();
        if (waiting.entries.filter((e) => e.role === 'user').length < (force ? 1 : home.distillEvery)) return { ran: false, messages: 0 };
        const { distillBatchChars, distillDeadlineMs } = this.deps.settings;
        const deps = { model: memoryModel, logger: this.deps.logger.child({ project: home.key }), batchChars: distillBatchChars, speakerIds: this.speakerIds.get(home.key), clock: this.deps.clock };
        const n = await distill(target, deps, AbortSignal.timeout(distillDeadlineMs));
        return { ran: n > 0, messages: n };
      } catch (error) {
        this.deps.logger.warn({ project: home.key, err: error }, 'distillation failed; the messages stay pending');
        const what = error instanceof ModelError ? `${error.kind.replace(/_/g, ' ')}: ${error.message}` : error instanceof Error ? error.message : String(error);
        return { ran: false, messages: 0, error: what };
      }
    });
  }

  /** The memory lane decides on what a hosted model asked to remember; failures leave them waiting. */
  private async reviewWaiting(home: Home, model: LocalChatModel): Promise<void> {
    const slug = home.key;
    try {
      await reviewWriteRequests(slug, { model, requests: this.writeRequests, save: (draft) => this.fileNote(home, draft), logger: this.deps.logger.child({ project: slug }) });
    } catch (error) {
      this.deps.logger.warn({ project: slug, err: error instanceof Error ? error.message : String(error) }, 'memory candidates not reviewed; they wait for the next run');
    }
  }

  async distillNow(place: Place): Promise<DistillOutcome> {
    return this.scheduleDistill(await this.home(place), true);
  }

  async reflect(place: Place): Promise<ReflectionReport> {
    const home = await this.home(place);
    const empty = { project: home.key, pages: 0, merged: 0, rules: 0, expired: 0, settled: 0, proposed: 0, rejected: 0, dropped: 0, rejections: [] };
    if (home.private) return { ...empty, error: 'reflection curates the pages of a project; a private conversation has none' };
    if (!this.deps.reflection) return { ...empty, error: NO_MEMORY_MODEL };
    return this.deps.reflection.run(home.key, 'all');
  }

  async pageVersions(place: Place, page?: string): Promise<PageVersion[]> {
    const home = await this.home(place);
    return home.private || !this.deps.reflection ? [] : this.deps.reflection.versions(home.key, page);
  }

  async restorePage(place: Place, page: string, version?: string): Promise<RestoreOutcome> {
    const home = await this.home(place);
    if (home.private || !this.deps.reflection) return { ok: false, reason: 'no page versions are kept here' };
    return this.deps.reflection.restore(home.key, page, version);
  }

  lanes(): ModelLane[] {
    return modelLanes(this.deps.model, this.deps.memoryModel);
  }

  async idle(): Promise<void> {
    await this.distilling.idle();
    await this.deps.reflection?.idle();
  }

  async showMemory(place: Place): Promise<MemoryView> {
    const home = await this.home(place);
    const { layers, problems } = await home.layers();
    return { project: home.key, layers, problems: [...home.problems, ...problems], config: home.config ?? undefined, style: home.style };
  }

  async projectConfig(place: Place): Promise<ProjectConfig | null> {
    return (await this.home(place)).config;
  }

  async editMemory(place: Place, edit: { summary?: string; decisions?: string; quotes?: string; style?: string }): Promise<MemoryView> {
    const today = this.deps.clock.now().toISOString().slice(0, 10);
    const home = await this.home(place);
    await home.editLayers((cur) => ({
      summary: edit.summary ?? cur.summary,
      decisions: edit.decisions === undefined ? cur.decisions : decisionsFromText(edit.decisions, cur.decisions, today),
      quotes: edit.quotes === undefined ? cur.quotes : quotesFromText(edit.quotes, cur.quotes, today),
    }));
    if (edit.style !== undefined) await home.setStyle(edit.style);
    return this.showMemory(place);
  }

  async setStyle(place: Place, style: string): Promise<void> {
    await (await this.home(place)).setStyle(style);
  }

  async setRespond(place: Place, respond: 'always' | 'mention'): Promise<void> {
    await (await this.home(place)).setRespond(respond);
  }

  async searchMemory(place: Place, query: string, limit = 8): Promise<RecallHit[]> {
    return (await this.home(place)).search(query, limit);
  }

  async listNotes(place: Place): Promise<NoteSummary[]> {
    return (await (await this.home(place)).notes?.list()) ?? [];
  }

  async readNote(place: Place, path: string, reason: 'view' | 'suggestion_accepted' | 'tag'): Promise<Note | null> {
    const notes = (await this.home(place)).notes;
    const note = (await notes?.read(path)) ?? null;
    if (note) notes?.used(note, reason);
    return note;
  }

  async forgetNote(place: Place, path: string, by = 'someone'): Promise<boolean> {
    return (await this.forget(place, { kind: 'note', path: path.replace(/^notes\//, '') }, by)).forgotten;
  }

  /** Forgets a note, one entry of a note, a decision or a quote, leaving a tombstone (forgotten.md). */
  async forget(place: Place, target: ForgetTarget, by: string, options: { removeMessages?: boolean } = {}): Promise<ForgetOutcome> {
    if (place.kind === 'private') return { forgotten: false, description: '', redacted: 0 };
    const home = await this.home(place);
    const outcome = await this.deps.store.forget(home.key, target, by, { removeMessages: options.removeMessages ?? false });
    if (outcome.forgotten) this.deps.logger.info({ project: home.key, kind: target.kind, redacted: outcome.redacted }, 'forgotten, with a tombstone');
    return outcome;
  }

  /**
   * Whether text for a hosted service other than the chat model (the online voice) must stay on
   * this machine: it shows a sensitive record, the rules call it sensitive, or it comes from a
   * turn that drew on sensitive context (of `place`, or of any place when it is not known).
   */
  async speechMustStayLocal(place: Place | null, text: string): Promise<boolean> {
    if (isSensitive(classifyText(text))) return true;
    if (!place) return this.taint.tainted(text);
    const home = await this.home(place);
    if (this.taint.tainted(text, home.key)) return true;
    return (await this.egress.scrubText(egressScope(home), text)) !== text;
  }

  /** A fact proposed from outside (an MCP client): a write request for the memory lane, never a page write. */
  async proposeFact(place: Place, proposal: FactProposal): ReturnType<AssistantApi['proposeFact']> {
    if (place.kind === 'private') return { kind: 'refused', reason: 'facts are not proposed into private conversations' };
    const home = await this.home(place);
    await this.writeRequests.add({
      id: this.newId(),
      project: home.key,
      title: proposal.title,
      text: proposal.text,
      ...(proposal.category ? { category: proposal.category } : {}),
      source: proposal.source,
      requested: this.deps.clock.now().toISOString(),
      by: proposal.by,
    });
    return { kind: 'candidate', reviewer: this.deps.memoryModel ? 'memory-lane' : 'none' };
  }

  /** Text for a hosted service other than the chat model (a hosted MCP client), sensitive records withheld. */
  async withholdSensitive(place: Place, text: string): Promise<string> {
    return this.egress.scrubText(egressScope(await this.home(place)), text);
  }

  /** What Charlie holds privately about the user of a private place (null elsewhere). */
  async privateMemory(place: Place): Promise<PrivateMemoryView | null> {
    return place.kind === 'private' ? showPrivate(this.deps.privateStore, place.userId) : null;
  }

  /** Forgets an item or a range of the user's own private memory; never another user's. */
  async forgetPrivate(place: Place, target: PrivateForgetTarget): Promise<PrivateForgetOutcome> {
    if (place.kind !== 'private') return { forgotten: false, description: 'private memory is forgotten from a DM', messages: 0 };
    const out = forgetPrivate(this.deps.privateStore, place.userId, target, this.deps.clock.now().toISOString());
    if (out.forgotten) this.deps.logger.info({ kind: target.kind, messages: out.messages }, 'private memory forgotten');
    return out;
  }

  /** Deletes every row of this user's private memory. */
  async wipePrivate(place: Place): Promise<boolean> {
    if (place.kind !== 'private') return false;
    await this.idle();
    this.deps.privateStore.wipe(place.userId);
    this.deps.logger.info('private memory wiped');
    return true;
  }

  /** Everything /memory forget can name, for autocomplete: notes, their entries, typed records, decisions, quotes. */
  async forgettable(place: Place): Promise<ForgettableItem[]> {
    if (place.kind === 'private') return [];
    const home = await this.home(place);
    const items: ForgettableItem[] = [];
    const { layers } = await this.deps.store.readLayers(home.key);
    layers.decisions.forEach((d, i) => items.push({ label: `decision ${d.date}: ${d.text}`, target: { kind: 'decision', index: i + 1 } }));
    layers.quotes.forEach((q, i) => items.push({ label: `quote ${q.speaker}: ${q.text}`, target: { kind: 'quote', index: i + 1 } }));
    for (const n of await this.deps.store.listNotes(home.key)) {
      items.push({ label: `note ${n.path}`, target: { kind: 'note', path: n.path } });
      const note = await this.deps.store.readNote(home.key, n.path).catch(() => null);
      const entries = note ? [...note.body.matchAll(/^###\s+(.*)$/gm)].map((m) => m[1] ?? '') : [];
      entries.forEach((heading, i) => items.push({ label: `entry ${i + 1} (${heading}) of ${n.path}`, target: { kind: 'entry', path: n.path, entry: i + 1 } }));
    }
    for (const r of await this.records(place)) if (r.id) items.push({ label: `record ${r.pageTitle}: ${r.statement}`, target: { kind: 'record', path: r.page, id: r.id } });
    return items;
  }

  async memoryCandidates(place: Place): Promise<Candidate[]> {
    const candidates = (await this.home(place)).records?.candidates;
    if (!candidates) return [];
    const now = this.deps.clock.now().toISOString();
    return (await candidates.list()).filter((c) => c.expires > now).sort((a, b) => b.score - a.score);
  }

  async why(place: Place, ask: { query: string } | { ids: readonly string[] }): Promise<WhyAnswer> {
    if (place.kind === 'private') {
      const store = this.deps.privateRecords;
      if (!store) return { chains: [], missing: [], unavailable: 'this private conversation keeps no typed records' };
      return privateWhy(store.list(place.userId, this.deps.clock.now()), ask, (ids) => store.history(place.userId, ids));
    }
    const home = await this.home(place);
    // records first: the archive messages that said them come with each record's chain
    return explainWhy(this.deps.graph ?? {}, home.key, ask, (q) => home.search(q, 8, { notesOnly: true }));
  }

  async reviewList(place: Place): Promise<ReviewPair[]> {
    return (await (await this.home(place)).records?.reviewList()) ?? [];
  }

  async resolveReview(place: Place, id: string, choice: ReviewChoice): Promise<boolean> {
    const records = (await this.home(place)).records;
    if (!records || !/^r-[\w-]+$/.test(id.replace(/^\^/, ''))) return false;
    return records.review(id.replace(/^\^/, ''), choice);
  }

  async records(place: Place): Promise<RecordView[]> {
    const now = this.deps.clock.now();
    if (place.kind === 'private') return this.deps.privateRecords?.list(place.userId, now).map(privateRecordView) ?? [];
    const home = await this.home(place);
    const graph = this.deps.graph;
    if (!graph?.records) return [];
    return graph.records(home.key, now);
  }

  async pageLinks(place: Place): Promise<PageLinks | null> {
    const home = await this.home(place);
    const graph = this.deps.graph;
    if (home.private || !graph?.pageLinks) return null;
    return graph.pageLinks(home.key);
  }

  async editRecord(place: Place, id: string, statement: string): Promise<boolean> {
    const home = await this.home(place);
    const graph = this.deps.graph;
    if (home.private || !graph?.editRecord || !/^r-[\w-]+$/.test(id) || !statement.trim()) return false;
    return graph.editRecord(home.key, id, statement);
  }

  async editNotePage(place: Place, path: string, body: string): Promise<boolean> {
    const home = await this.home(place);
    const graph = this.deps.graph;
    if (home.private || !graph?.editPage || !body.trim()) return false;
    return graph.editPage(home.key, path, body);
  }

  async promoteCandidate(place: Place, key: string): Promise<boolean> {
    const records = (await this.home(place)).records;
    if (!records?.candidates || !key.trim()) return false;
    const taken = await takeCandidate(records.candidates, key.trim());
    if (!taken) return false;
    // a person vouched for it: full confidence, provenance as it came, sensitivity as the gate sets it
    const sensitivity = stricter(sensitivityOfText(taken.fact.text), taken.fact.sensitivity);
    const gate = `promoted by hand from the waiting candidates (${scoreText(taken.score, taken.parts)} on ${taken.firstSeen.slice(0, 10)})`;
    const fact = { ...taken.fact, confidence: 1, via: viaOf(taken.fact.source), gate, ...(sensitivity ? { sensitivity } : {}) };
    // the page is filed where the memory model proposed it (People/Friends …), not under Misc
    const entity = { name: taken.entity, create: true, facts: [fact], ...(taken.category ? { category: taken.category } : {}) };
    await records.write({ origin: 'promotion', links: [], entities: [entity] });
    return true;
  }
}

/** Recall whose sensitive hits are remembered for the egress guard of this turn. */
function tapSensitive(recall: Recall, found: SensitiveRecord[]): Recall {
  return {
    async recall(query, scope) {
      const hits = await recall.recall(query, scope);
      for (const h of hits) {
        // a sensitive chunk whole; of another, only its marked blocks (any spelling, any kind)
        if (isSensitive(h.sensitivity)) found.push({ origin: SENSITIVE_PAGE, text: h.text });
        else for (const block of markedBlocks(h.text)) found.push({ origin: h.page, text: block });
      }
      return hits;
    },
  };
}

function egressScope(home: Home): EgressScope {
  return home.private ? { kind: 'private', userId: home.key.replace(/^dm:/, '') } : { kind: 'project', slug: home.key };
}

/** A remembered text as atomic facts: one per sentence (at most 20). */
function sentences(text: string): string[] {
  const out = text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"“(])/)
    .map((s) => s.trim())
    .filter(Boolean);
  return out.slice(0, 20);
}
