/**
 * The scripted AssistantApi of every front-door test (Discord, voice, terminal): records every
 * call, answers with a scripted turn (events, streamed text, reply, related notes) or throws,
 * honours the turn's abort signal, and keeps memory per place in memory.
 */
import type { Candidate } from '../../src/core/records/candidates.js';
import type { LogEntry, ReviewChoice, ReviewPair, MemoryLayers, Note, NoteSummary, ProjectConfig, RecallHit, RecordView } from '../../src/core/ports/index.js';
import {
  type AssistantApi,
  type ConversationApi,
  type MemoryApi,
  type PrivateApi,
  type SettingsApi,
  type DistillOutcome,
  type FactProposal,
  type ForgettableItem,
  type MemoryView,
  type TurnOutcome,
  type HandleOptions,
} from '../../src/core/assistant-api.js';
import { placeKey as keyOf, type IncomingMessage, type Place } from '../../src/core/place.js';
import type { TurnEvent, TurnEventListener } from '../../src/core/turn/events.js';
import type { ModelLane } from '../../src/core/lanes.js';
import type { QuotedLines } from '../../src/core/privacy/egress.js';
import type { PageVersion, ReflectionReport, RestoreOutcome } from '../../src/core/reflection/reflection.js';
import type { ForgetOutcome, ForgetTarget } from '../../src/core/inspector/tombstones.js';
import type { PrivacyApi, PrivateForgetOutcome, PrivateForgetTarget, PrivateMemoryView, ProjectsApi } from '../../src/core/assistant-api.js';
import { InMemoryProjectStore } from './fakes.js';
import type { ConsentAccess, ConsentAnswer, ConsentGrant, ConsentMode, ConsentRequest } from '../../src/core/privacy/consent.js';
import type { WhyAnswer } from '../../src/core/inspector/why.js';
import type { RecordChain } from '../../src/core/records/provenance.js';
import { sleep } from './sleep.js';

export interface ScriptedTurn {
  /** Events emitted before the turn ends (a turn_end is added). */
  events?: Omit<TurnEvent, 'turnId'>[];
  reply?: string;
  related?: string[];
  /** Block ids of the records the turn "used" (the reply's why? button). */
  records?: string[];
  notices?: string[];
  reason?: TurnOutcome['reason'];
  /** Throw this instead of answering. */
  error?: Error;
  /** Wait this long before finishing (after the events). */
  delayMs?: number;
  /** Text streamed as text_delta events, `deltaMs` apart; the reply is their concatenation unless `reply` is set. */
  deltas?: string[];
  deltaMs?: number;
  /**
   * Ask in the moment through the door's `options.consent.ask` (as the core does before a labelled
   * item goes to a hosted model); `endAfterMs` ends the turn (its signal) while the question is open.
   */
  consent?: Pick<ConsentRequest, 'items' | 'service' | 'timeoutMs'> & { endAfterMs?: number };
}

export type TurnScript = (message: IncomingMessage, index: number) => ScriptedTurn;

class FakeConversation implements ConversationApi {
  constructor(private readonly s: FakeAssistant) {}

  async handle(message: IncomingMessage, options: HandleOptions & { onEvent?: TurnEventListener } = {}): Promise<TurnOutcome> {
    this.s.handled.push(message);
    this.s.consentAccess.push(options.consent);
    const project = keyOf(message.place);
    if (message.reply === false) return { project, reply: '', reason: 'done', related: [], notices: [] };
    const turnId = `t${this.s.turns}`;
    const turn = this.s.script(message, this.s.turns++);
    options.onEvent?.({ type: 'turn_start', turnId, project, mode: message.mode ?? 'text' });
    for (const e of turn.events ?? []) options.onEvent?.({ ...e, turnId } as TurnEvent);
    if (turn.consent && options.consent) await this.askConsent(turn.consent, options.consent);
    let streamed = '';
    for (const text of turn.deltas ?? []) {
      try {
        await sleep(turn.deltaMs ?? 10, options.signal);
      } catch {
        return { project, reply: streamed, reason: 'cancelled', related: [], notices: [] };
      }
      streamed += text;
      this.s.deltaTimes.push(performance.now());
      options.onEvent?.({ type: 'text_delta', turnId, text });
    }
    if (turn.delayMs) await sleep(turn.delayMs);
    if (turn.error) throw turn.error;
    const reply = turn.reply ?? streamed;
    options.onEvent?.({ type: 'turn_end', turnId, reason: turn.reason ?? 'done', text: reply });
    return { project, reply, reason: turn.reason ?? 'done', related: turn.related ?? [], ...(turn.records ? { records: turn.records } : {}), notices: turn.notices ?? [] };
  }

  /** What the door answered is kept in `consentAnswers`. */
  private async askConsent(script: NonNullable<ScriptedTurn['consent']>, access: ConsentAccess): Promise<void> {
    const turn = new AbortController();
    const timer = script.endAfterMs === undefined ? undefined : setTimeout(() => turn.abort(new Error('the turn ended')), script.endAfterMs);
    const { endAfterMs: _, ...asked } = script;
    try {
      this.s.consentAnswers.push(await access.ask({ asker: { id: access.person.id, name: access.person.name }, shared: access.shared, ...asked }, turn.signal));
    } finally {
      clearTimeout(timer);
    }
  }

  async speechMustStayLocal(_place: Place | null, text: string): Promise<boolean> {
    return this.s.sensitiveWord !== null && text.includes(this.s.sensitiveWord);
  }

  /** Lines containing the sensitive word are withheld from hosted services (a hosted MCP client). */
  async withholdSensitive(_place: Place, text: string, _quoted?: QuotedLines): Promise<string> {
    const word = this.s.sensitiveWord;
    return word
      ? text
          .split('\n')
          .map((l) => (l.includes(word) ? '[withheld: test is marked sensitive]' : l))
          .join('\n')
      : text;
  }
}

class FakeSettings implements SettingsApi {
  constructor(private readonly s: FakeAssistant) {}

  async showMemory(place: Place): Promise<MemoryView> {
    if (this.s.showMemoryError) throw this.s.showMemoryError;
    const m = this.s.layersOf(place);
    const key = keyOf(place);
    const config: ProjectConfig | undefined =
      place.kind === 'project'
        ? { slug: key, name: place.origin.name, style: m.style, distillEvery: 5, archive: true, respond: this.s.respond.get(key) ?? 'always', keys: [key], created: '', updated: '' }
        : undefined;
    return { project: key, layers: { summary: m.summary, decisions: m.decisions, quotes: m.quotes }, problems: [], config, style: m.style };
  }

  async projectConfig(place: Place): Promise<ProjectConfig | null> {
    return (await this.showMemory(place)).config ?? null;
  }

  async editMemory(place: Place, edit: { summary?: string; decisions?: string; quotes?: string; style?: string }): Promise<MemoryView> {
    this.s.edits.push({ place: keyOf(place), edit });
    const m = this.s.layersOf(place);
    if (edit.summary !== undefined) m.summary = edit.summary;
    if (edit.style !== undefined) m.style = edit.style;
    return this.showMemory(place);
  }

  async setStyle(place: Place, style: string): Promise<void> {
    this.s.layersOf(place).style = style;
  }

  async setRespond(place: Place, respond: 'always' | 'mention'): Promise<void> {
    this.s.respond.set(keyOf(place), respond);
  }
}

class FakeMemory implements MemoryApi {
  constructor(private readonly s: FakeAssistant) {}

  async memoryCandidates(): Promise<Candidate[]> {
    return this.s.candidates;
  }

  async reviewList(): Promise<ReviewPair[]> {
    return this.s.reviews;
  }

  async resolveReview(_place: Place, id: string, choice: ReviewChoice): Promise<boolean> {
    const found = this.s.reviews.some((r) => r.old.id === id || r.new.id === id);
    if (found) this.s.resolved.push({ id, choice });
    if (found && choice !== 'hold') this.s.reviews = this.s.reviews.filter((r) => r.old.id !== id && r.new.id !== id);
    return found;
  }

  async why(_place: Place, ask: { query: string } | { ids: readonly string[] }): Promise<WhyAnswer> {
    this.s.whyAsked.push(ask);
    if ('ids' in ask) return { chains: this.s.chains.filter((c) => ask.ids.includes(c.id)), missing: ask.ids.filter((id) => !this.s.chains.some((c) => c.id === id)) };
    return { chains: this.s.chains.filter((c) => c.statement.toLowerCase().includes(ask.query.toLowerCase())), missing: [] };
  }

  async promoteCandidate(_place: Place, key: string): Promise<boolean> {
    const before = this.s.candidates.length;
    this.s.candidates = this.s.candidates.filter((c) => !c.key.startsWith(key));
    return this.s.candidates.length < before;
  }

  /** Typed records are the knowledge graph's; this fake has none (the web tests use the real one). */
  async records(): Promise<RecordView[]> {
    return [];
  }

  async pageLinks(): Promise<null> {
    return null;
  }

  async editRecord(): Promise<boolean> {
    return false;
  }

  async editNotePage(): Promise<boolean> {
    return false;
  }

  async reflect(place: Place): Promise<ReflectionReport> {
    this.s.reflections.push(keyOf(place));
    return { project: keyOf(place), pages: 2, merged: 1, rules: 1, expired: 1, settled: 0, proposed: 0, rejected: 0, dropped: 0, rejections: [] };
  }

  async pageVersions(_place: Place, page?: string): Promise<PageVersion[]> {
    return this.s.versions.filter((v) => page === undefined || v.page === page || v.page === `${page}.md`);
  }

  async restorePage(_place: Place, page: string, version?: string): Promise<RestoreOutcome> {
    const found = [...(await this.pageVersions(_place, page))].reverse().find((v) => version === undefined || v.version === version);
    return found ? { ok: true, page: found.page, version: found.version } : { ok: false, reason: `no earlier version of ${page} is kept` };
  }

  async distillNow(): Promise<DistillOutcome> {
    return { ran: true, messages: 3 };
  }

  async searchMemory(_place: Place, query: string): Promise<RecallHit[]> {
    return this.s.notes
      .filter((n) => n.body.includes(query))
      .map((n) => ({
        page: `notes/${n.path}`,
        heading: n.title,
        lineStart: 1,
        lineEnd: 3,
        text: n.body,
        updated: n.updated,
        staleness: 0,
        score: 0.9,
        parts: { vector: 0.9, keyword: 0, usage: 0, recency: 0 },
        why: ['vector'],
      }));
  }

  async listNotes(place: Place): Promise<NoteSummary[]> {
    return place.kind === 'private' ? [] : this.s.notes;
  }

  async readNote(place: Place, path: string, reason: 'view' | 'suggestion_accepted' | 'tag'): Promise<Note | null> {
    this.s.reads.push({ place: keyOf(place), path, reason });
    return this.s.notes.find((n) => n.path === path.replace(/^notes\//, '')) ?? null;
  }

  async forgetNote(_place: Place, path: string): Promise<boolean> {
    const before = this.s.notes.length;
    this.s.notes = this.s.notes.filter((n) => n.path !== path.replace(/^notes\//, ''));
    return this.s.notes.length < before;
  }

  async forget(place: Place, target: ForgetTarget, by: string, options: { removeMessages?: boolean } = {}): Promise<ForgetOutcome> {
    this.s.forgets.push({ place: keyOf(place), target, by, removeMessages: options.removeMessages ?? false });
    if (target.kind === 'note') return { forgotten: await this.forgetNote(place, target.path), description: `note ${target.path}`, redacted: 0 };
    return { forgotten: true, description: target.kind, redacted: options.removeMessages ? 1 : 0 };
  }

  async forgettable(place: Place): Promise<ForgettableItem[]> {
    const m = this.s.layersOf(place);
    return [
      ...m.decisions.map((d, i) => ({ label: `decision ${d.date}: ${d.text}`, target: { kind: 'decision' as const, index: i + 1 } })),
      ...this.s.notes.map((n) => ({ label: `note ${n.path}`, target: { kind: 'note' as const, path: n.path } })),
    ];
  }

  async proposeFact(_place: Place, proposal: FactProposal): ReturnType<MemoryApi['proposeFact']> {
    this.s.proposals.push(proposal);
    return { kind: 'requested', reviewer: 'none' };
  }
}

class FakePrivate implements PrivateApi {
  constructor(private readonly s: FakeAssistant) {}

  /** No archive here: the doors these tests drive read no history. */
  recentMessages(_userId: string, _limit: number): LogEntry[] {
    return [];
  }

  async privateMemory(place: Place): Promise<PrivateMemoryView | null> {
    if (place.kind !== 'private') return null;
    const m = this.s.layersOf(place);
    return {
      layers: { summary: m.summary, decisions: m.decisions, quotes: m.quotes },
      style: m.style,
      messages: { count: this.s.handled.filter((h) => keyOf(h.place) === keyOf(place)).length, first: null, last: null },
      forgotten: 0,
    };
  }
  async forgetPrivate(place: Place, target: PrivateForgetTarget): Promise<PrivateForgetOutcome> {
    this.s.privateForgets.push({ place: keyOf(place), target });
    return { forgotten: place.kind === 'private', description: target.kind, messages: 0 };
  }
  private readonly wipeListeners: ((userId: string) => void)[] = [];
  onWipe(listener: (userId: string) => void): void {
    this.wipeListeners.push(listener);
  }
  async wipePrivate(place: Place): Promise<boolean> {
    if (place.kind !== 'private') return false;
    this.s.wiped.push(place.userId);
    this.s.layersByPlace.delete(keyOf(place));
    for (const l of this.wipeListeners) l(place.userId);
    return true;
  }
}

/** The privacy slice: a mode and a ledger in memory, as a front door's test sets them. */
export class FakePrivacy implements PrivacyApi {
  mode: ConsentMode = 'withhold';
  grants: ConsentGrant[] = [];
  consentMode(): ConsentMode {
    return this.mode;
  }
  async consents(userId: string): Promise<ConsentGrant[]> {
    return this.grants.filter((g) => g.userId === userId);
  }
  async revokeConsent(userId: string, grantId: string): Promise<boolean> {
    const g = this.grants.find((x) => x.userId === userId && x.id === grantId && x.answer === 'always' && !x.revoked);
    if (!g) return false;
    g.revoked = new Date(0).toISOString();
    return true;
  }
}

/** The assistant's four slices over one scripted state: front-door tests read and set the state here. */
export class FakeAssistant implements AssistantApi {
  readonly handled: IncomingMessage[] = [];
  /** performance.now() of each streamed text delta. */
  readonly deltaTimes: number[] = [];
  readonly reads: { place: string; path: string; reason: string }[] = [];
  readonly edits: { place: string; edit: Record<string, string | undefined> }[] = [];
  readonly layersByPlace = new Map<string, MemoryLayers & { style: string }>();
  readonly respond = new Map<string, 'always' | 'mention'>();
  notes: Note[] = [];
  /** Make showMemory and projectConfig throw this (e.g. a project file that cannot be read). */
  showMemoryError: Error | null = null;
  /** The consent access each turn was given (undefined: the door gave none). */
  readonly consentAccess: (ConsentAccess | undefined)[] = [];
  /** What the door answered each scripted consent question. */
  readonly consentAnswers: ConsentAnswer[] = [];
  /** Turns answered so far. */
  turns = 0;

  constructor(public script: TurnScript = (m) => ({ reply: `echo: ${m.text}` })) {}

  setScript(script: TurnScript): void {
    this.script = script;
  }
  candidates: Candidate[] = [];
  reviews: ReviewPair[] = [];
  readonly resolved: { id: string; choice: ReviewChoice }[] = [];
  /** What why() knows: chains by record id. */
  chains: RecordChain[] = [];
  readonly whyAsked: ({ query: string } | { ids: readonly string[] })[] = [];
  readonly reflections: string[] = [];
  versions: PageVersion[] = [];
  readonly forgets: { place: string; target: ForgetTarget; by: string; removeMessages: boolean }[] = [];
  readonly proposals: FactProposal[] = [];
  /** Text containing this must stay on this machine (never spoken by an online voice). */
  sensitiveWord: string | null = null;
  readonly wiped: string[] = [];
  readonly privateForgets: { place: string; target: PrivateForgetTarget }[] = [];

  /** The layers and style kept for a place (created empty). */
  layersOf(place: Place): MemoryLayers & { style: string } {
    const key = keyOf(place);
    let m = this.layersByPlace.get(key);
    if (!m) this.layersByPlace.set(key, (m = { summary: '', decisions: [], quotes: [], style: '' }));
    return m;
  }

  readonly conversation: ConversationApi = new FakeConversation(this);
  readonly settings: FakeSettings = new FakeSettings(this);
  readonly memory: FakeMemory = new FakeMemory(this);
  readonly private: FakePrivate = new FakePrivate(this);
  readonly privacy: FakePrivacy = new FakePrivacy();
  /** Projects by name (the doors these tests drive name none: they speak in places). */
  readonly projects: ProjectsApi = new InMemoryProjectStore();

  lanes(): ModelLane[] {
    return [
      { job: 'chat', model: 'fake-chat@http://127.0.0.1/v1', local: true },
      { job: 'memory (distillation, entities, remember)', model: 'fake-memory@http://127.0.0.1/v1', local: true },
    ];
  }

  async idle(): Promise<void> {}
}

/** One candidate waiting for promotion (Bob moving to Porto), as front-door tests show it. */
export function waitingCandidate(key: string): Candidate {
  return {
    key,
    entity: 'Bob',
    fact: { text: 'Is moving to Porto.', said: '2026-11-04', source: 'https://discord.com/channels/1/2/3' },
    message: 'Bob said something about Porto',
    score: 0.51,
    parts: { recency: 1, salience: 0.4, identity: 0, source: 0.7 },
    firstSeen: '2026-11-04T12:00:00.000Z',
    expires: '2026-11-18T12:00:00.000Z',
  };
}

/** Two records of Sarah Chen that disagree (Acme, then Globex): old r-aaaaaa, new r-bbbbbb. */
export function disagreeingPair(): ReviewPair {
  return {
    page: 'People/Sarah-Chen.md',
    title: 'Sarah Chen',
    old: { id: 'r-aaaaaa', statement: 'Works at Acme.', said: '2026-06-01' },
    new: { id: 'r-bbbbbb', statement: 'Joined Globex.', said: '2026-07-01' },
  };
}
