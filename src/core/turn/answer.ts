/**
 * One answer of a turn: the prompt built from the home's memory and the history, and the
 * bounded tool loop run through the egress guard, with the tools' memory writes going through
 * the memory writer (core/writing/memory-writer.ts).
 */
import type { TurnToolAccess } from '../assistant-api.js';
import type { TurnEvent } from './events.js';
import { SENSITIVE_PAGE, type EgressGuard, type EgressScope, type SensitiveRecord } from '../privacy/egress.js';
import type { Home } from '../home.js';
import type { MemoryWriter } from '../writing/memory-writer.js';
import type { ChatModel, Clock, FileProblem, LocalChatModel, LogEntry, Logger, Recall } from '../ports/index.js';
import { textPrecheck, type PrecheckSettings, type TextPrecheck } from './precheck.js';
import { arrivalJudge } from './external-result.js';
import { SettingLabels } from './setting-labels.js';
import type { MeaningJudge } from '../privacy/meaning-judge.js';
import { presuggest, presuggestGroups } from './presuggest.js';
import { historyMessages, systemPrompt, userMessage } from './prompt.js';
import { remindersPrompt, type Reminder } from './raise.js';
import { isSensitive, mayGo } from '../privacy/sensitivity.js';
import { blockItem, foundItem, holdsLabelled, markedBlocks, pageSubject, releasableLayers } from '../privacy/sensitive-records.js';
import { runToolLoop, type LoopLimits, type LoopResult } from './tool-loop.js';
import type { Tool, ToolCategory } from '../tools/tool.js';
import type { ToolSource, TurnToolSource } from './tool-source.js';
import type { Asker, ReminderDesk } from '../time/reminder-desk.js';
import type { CalendarDesk } from '../time/calendar.js';
import type { MachineDesk } from '../machines/desk.js';
import type { TurnConsent } from '../privacy/consent-turn.js';

export interface AnswerDeps {
  model: ChatModel;
  clock: Clock;
  settings: { assistantName: string; limits: LoopLimits; temperature: number };
  tools: Tool[];
  /** Tools from MCP servers, offered by category. */
  toolSource: { source: ToolSource; maxDefinitions: number };
  egress: EgressGuard;
  writer: MemoryWriter;
  reminders: ReminderDesk;
  calendar: CalendarDesk;
  /** SSH to the person's machines (absent: no machine tools). */
  machines?: MachineDesk | undefined;
  /** What the project's name and style were judged to be, remembered by their words (setting-labels.ts). */
  settingLabels?: SettingLabels;
  /** The local memory lane (or, without one, the built-in judge by meaning) judges each message, and each external tool's result, before anything leaves (precheck.ts); absent: the rules only. */
  precheck?: { lane: LocalChatModel | null; meaning?: MeaningJudge | null; settings: PrecheckSettings } | undefined;
}

/** What `answer` needs to build the prompt and run the tool loop. */
export interface Ask {
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
  /** A local model was shown memory labelled sensitive (the summary, a decision or a quote): its reply may retell it. */
  drewOnLabelled: () => void;
  /** Whether the turn has drawn on sensitive context so far (its message, its history, what its tools found). */
  tainted: () => boolean;
  /** Follow-ups and review notes Charlie brings up itself in this reply (once each). */
  reminders: Reminder[];
  /** Who asks, and where, for the reminder tools. */
  asker: Asker;
  /** Asking in the moment: which withheld items the person lets go to the hosted model in this turn. */
  consent: TurnConsent;
}

/** Builds the prompt from the home's memory and `history`, and runs the tool loop. */
export async function answer(deps: AnswerDeps, ask: Ask, history: LogEntry[]): Promise<LoopResult> {
  const { settings, clock, model } = deps;
  const { home, emit, turnId } = ask;
  const { layers: all, problems } = await home.layers();
  // what may go to this model, by label (a summary made from a sensitive message is marked so)
  const layers = releasableLayers(all, model.locality);
  // a local model reads the labelled parts too (a hosted one is given them withheld: what it never read cannot taint its reply)
  if (model.locality === 'local' && holdsLabelled(all)) ask.drewOnLabelled();
  for (const p of problems) emit(unreadNotice(turnId, p));
  const tools = deps.tools.filter((t) => !(t.projectOnly && !home.notes) && (t.category !== 'machines' || deps.machines));
  const available = [...new Set(tools.map((t) => t.category))] as ToolCategory[];
  // judged as any text a person wrote: the precheck also judges an external tool's result below
  const arrivals = deps.precheck ? textPrecheck(deps.precheck.lane, deps.precheck.settings, () => model.locality, deps.precheck.meaning ?? null) : null;
  const named = await hostedSettings(deps.settingLabels ?? new SettingLabels(), home, model.locality, arrivals, ask.cancel);
  const source = turnSource(deps.toolSource, ask.access);
  const messages = [
    {
      role: 'system' as const,
      content:
        systemPrompt({ assistantName: settings.assistantName, projectName: named.name, private: home.private, style: named.style, layers, now: ask.now, mode: ask.mode }) +
        remindersPrompt(ask.reminders),
    },
    ...historyMessages(history),
    userMessage(ask.speaker, ask.text, ask.images),
  ];
  // what the people of the conversation said: a write nobody said is refused
  const theirWords = () => [ask.text, ...history.filter((h) => h.role === 'user').map((h) => h.text)].join('\n');
  return runToolLoop({
    model: deps.egress.modelFor(egressScope(home), () => ask.found, ask.consent),
    messages,
    tools,
    categories: [...presuggest(ask.text, available), ...presuggestGroups(ask.text, source?.groups ?? [])],
    ...(source ? { source } : {}),
    ctx: {
      home,
      writes: deps.writer.writesFor(home, ask.source, theirWords),
      // after an MCP tool's result, what the model asks to remember waits for the gate
      candidateWrites: deps.writer.writesFor(home, ask.source, theirWords, true),
      clock,
      source: ask.source,
      logger: ask.log,
      modelLocality: model.locality,
      sawSensitive: (r) => ask.found.push(r),
      ...(arrivals ? { judgeArrival: arrivalJudge(arrivals) } : {}),
      release: (entries) => ask.consent.decide(entries, { kind: 'chat', id: model.id }),
      tainted: ask.tainted,
      ...(ask.access?.confirm ? { confirm: ask.access.confirm } : {}),
      scrubForHosted: (text, server) => deps.egress.scrubText(egressScope(home), text, server ? { releases: ask.consent, service: { kind: 'mcp-tool-server', id: server } } : undefined),
      releaseToTool: async (server) => {
        // only what the chat model was given can be in its arguments: those items, asked about for this server
        const entries = ask.consent.releasedEntries({ kind: 'chat', id: model.id });
        if (entries.length === 0) return false;
        const ok = await ask.consent.decide(entries, { kind: 'mcp-tool-server', id: server });
        return entries.every((e) => ok.has(e.item.id));
      },
      ...(deps.machines ? { machines: { desk: deps.machines, owner: ask.asker.ownerId, ownerName: ask.speaker, project: home.private || !home.graph ? null : home.key } } : {}),
      time: { desk: deps.reminders, asker: ask.asker, calendar: deps.calendar },
    },
    limits: { ...settings.limits, deadlineMs: ask.deadline.answerMs },
    turnId,
    emit,
    temperature: settings.temperature,
    signal: ask.cancel,
    deadline: ask.deadline.answer,
  });
}

/** The project's name and style as a model at `locality` may read them: a hosted one is not given one labelled sensitive. */
async function hostedSettings(
  labels: SettingLabels,
  home: Home,
  locality: 'local' | 'hosted',
  precheck: TextPrecheck | null,
  signal: AbortSignal | undefined,
): Promise<{ name: string; style: string }> {
  if (locality !== 'hosted' || home.private) return { name: home.name, style: home.style };
  const [name, style] = await labels.labels([home.name, home.style], precheck, signal);
  return { name: mayGo(name, 'hosted') ? home.name : '(its name is withheld: marked sensitive)', style: mayGo(style, 'hosted') ? home.style : '' };
}

/** The tool servers this person may use in this turn (none when the front door did not say who asks). */
function turnSource(from: AnswerDeps['toolSource'], access: TurnToolAccess | undefined): TurnToolSource | undefined {
  if (!access) return undefined;
  const groups = from.source.groups(access.user);
  return groups.length ? { groups, load: (category, signal) => from.source.load(category, signal), maxDefinitions: from.maxDefinitions } : undefined;
}

/** A notice that a memory file could not be read and was left untouched. */
export function unreadNotice(turnId: string, p: FileProblem): Extract<TurnEvent, { type: 'notice' }> {
  return { type: 'notice', turnId, level: 'warn', text: `${p.path}${p.line ? `:${p.line}` : ''} could not be read (${p.message}); it was left untouched` };
}

/** Recall whose sensitive hits are remembered for the egress guard of this turn; once the turn is tainted (`tainted`), its questions get no hosted vector. */
export function tapSensitive(recall: Recall, found: SensitiveRecord[], tainted: () => boolean = () => found.length > 0): Recall {
  return {
    async recall(query, scope) {
      const hits = await recall.recall(query, tainted() ? { ...scope, tainted: true } : scope);
      for (const h of hits) {
        // a sensitive chunk whole; of another, only its marked blocks (any spelling, any kind)
        if (isSensitive(h.sensitivity)) found.push({ origin: SENSITIVE_PAGE, text: h.text, item: foundItem(h.page, h.text) });
        else for (const block of markedBlocks(h.text)) found.push({ origin: h.page, text: block, item: blockItem(h.page.replace(/^notes\//, ''), block, pageSubject(h.page.replace(/^notes\//, ''))) });
      }
      return hits;
    },
    ...(recall.changed ? { changed: (project: string) => recall.changed!(project) } : {}),
  };
}

export function egressScope(home: Home): EgressScope {
  return home.id;
}
