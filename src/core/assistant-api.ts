/**
 * What every front door (terminal, Discord text, voice, web, MCP) calls, in slices. Implemented
 * by `Assistant` in assistant.ts; front doors receive the slices they need as a parameter.
 */
import type { Candidate } from './records/candidates.js';
import type { ReviewChoice, ReviewPair, FileProblem, LogEntry, MemoryLayers, NoteSummary, Note, ProjectConfig, ProjectOrigin, PageLinks, RecallHit, RecordView } from './ports/index.js';
import type { TurnEndReason, TurnEventListener } from './turn/events.js';
import type { ModelLane } from './lanes.js';
import type { PageVersion, ReflectionReport, RestoreOutcome } from './reflection/reflection.js';
import type { ForgetOutcome, ForgetTarget } from './inspector/tombstones.js';
import type { WhyAnswer } from './inspector/why.js';
import type { ToolUser } from './turn/tool-source.js';
import type { ToolConfirm } from './tools/tool.js';
import type { IncomingMessage, Place } from './place.js';
import type { ConsentAccess, ConsentGrant, ConsentMode } from './privacy/consent.js';
import type { QuotedLines } from './privacy/egress.js';

/** Who may use tool servers in this turn, and how the front door asks before a tool with side effects runs. */
export interface TurnToolAccess {
  user: ToolUser;
  confirm?: ToolConfirm;
}

export interface FactProposal {
  /** The page it is about (a person, place, thing, topic). */
  title: string;
  text: string;
  category?: string;
  /** Provenance, e.g. `mcp:claude-desktop`. */
  source: string;
  /** Who proposed it (the client's name), kept with the candidate. */
  by: string;
}

export interface HandleOptions {
  onEvent?: TurnEventListener;
  signal?: AbortSignal;
  /** Absent: no tool server is offered (a front door that knows nobody's role). */
  tools?: TurnToolAccess;
  /** Who is asking and how to ask them before a sensitive item goes to a hosted service (absent: it is withheld). */
  consent?: ConsentAccess;
  /**
   * The conversation this message continues, newest last (at most `limit` entries), when a front
   * door keeps several in one place (the web app's conversations and their edited branches);
   * absent: the place's recent archive.
   */
  history?: (limit: number) => Promise<LogEntry[]>;
}

export interface TurnOutcome {
  project: string;
  reply: string;
  reason: TurnEndReason;
  /** Notes the turn found relevant, for "suggested notes" buttons. */
  related: string[];
  /** Block ids of the records the turn's tools showed the model (a "why?" button explains them). */
  records?: string[];
  /** Short visible warnings (images skipped, history truncated, model down…). */
  notices: string[];
  /** The turn's deadline: a front door stops posting the reply when it fires. */
  deadline?: AbortSignal;
  /** The turn drew on withheld or sensitive context: a hosted voice never speaks its reply. */
  tainted?: boolean;
}

export interface MemoryView {
  project: string;
  layers: MemoryLayers;
  problems: FileProblem[];
  config?: ProjectConfig;
  style: string;
}

export interface ForgettableItem {
  label: string;
  target: ForgetTarget;
}

export interface DistillOutcome {
  ran: boolean;
  /** Messages distilled in this run. */
  messages: number;
  error?: string;
}

export interface PrivateMemoryView {
  layers: MemoryLayers;
  style: string;
  messages: { count: number; first: string | null; last: string | null };
  /** How many tombstones keep forgotten items from coming back. */
  forgotten: number;
}

export type PrivateForgetTarget = { kind: 'decision' | 'quote'; index: number } | { kind: 'summary' } | { kind: 'messages'; sinceTime: string } | { kind: 'messages'; lastN: number };

export interface PrivateForgetOutcome {
  forgotten: boolean;
  description: string;
  messages: number;
}

/** A turn, and what a front door asks before sending text to a hosted service other than the chat model. */
export interface ConversationApi {
  handle(message: IncomingMessage, options?: HandleOptions): Promise<TurnOutcome>;
  /**
   * Text for a hosted service other than the chat model (a hosted MCP client or tool server): sensitive records withheld.
   * `quoted: 'allowed'`: the text is stored texts each let go by its own label, so a line is withheld when it shows a
   * sensitive record, not because a labelled text quotes it (an ordinary message a labelled reply repeats).
   */
  withholdSensitive(place: Place, text: string, quoted?: QuotedLines): Promise<string>;
  /** Whether text for a hosted service other than the chat model (an online voice) must stay on this machine (src/core/turn/taint.ts). */
  speechMustStayLocal(place: Place | null, text: string): Promise<boolean>;
}

/** A place's settings and its three layers (summary, decisions, quotes). */
export interface SettingsApi {
  showMemory(place: Place): Promise<MemoryView>;
  /** The project's settings without reading its memory (null for a private conversation). */
  projectConfig(place: Place): Promise<ProjectConfig | null>;
  /** Replaces the layers (e.g. from a Discord modal); the source of edited items becomes `manual`. */
  editMemory(place: Place, edit: { summary?: string; decisions?: string; quotes?: string; style?: string }): Promise<MemoryView>;
  setStyle(place: Place, style: string): Promise<void>;
  /** Whether a project answers every message or only when addressed; no effect in a private conversation. */
  setRespond(place: Place, respond: 'always' | 'mention'): Promise<void>;
}

/** The Memory Inspector: notes, typed records and their history, review, candidates, forgetting, page versions. */
export interface MemoryApi {
  distillNow(place: Place): Promise<DistillOutcome>;
  searchMemory(place: Place, query: string, limit?: number): Promise<RecallHit[]>;
  listNotes(place: Place): Promise<NoteSummary[]>;
  readNote(place: Place, path: string, reason: 'view' | 'suggestion_accepted' | 'tag'): Promise<Note | null>;
  forgetNote(place: Place, path: string, by?: string): Promise<boolean>;
  /** Forgets a note, one entry of a note, a decision or a quote, and leaves a tombstone so it is not learnt again. */
  forget(place: Place, target: ForgetTarget, by: string, options?: { removeMessages?: boolean }): Promise<ForgetOutcome>;
  /**
   * A fact proposed from outside (an MCP client): filed as a candidate for the memory lane's
   * gate, like a hosted model's `remember` — never written to a page directly.
   */
  proposeFact(place: Place, proposal: FactProposal): Promise<{ kind: 'requested'; reviewer: 'memory-lane' | 'none' } | { kind: 'refused'; reason: string }>;
  /** What can be forgotten here, labelled for autocomplete (none in a private conversation: /private forget does that). */
  forgettable(place: Place): Promise<ForgettableItem[]>;
  /** What the promotion gate keeps waiting, best score first (a project's, or a DM's in private.db). */
  memoryCandidates(place: Place): Promise<Candidate[]>;
  /** Promotes a waiting candidate (its key, or the start of it) by hand; false when none. */
  promoteCandidate(place: Place, key: string): Promise<boolean>;
  /** Pairs of records that disagree, waiting for the person (a project's, or a DM's in private.db). */
  reviewList(place: Place): Promise<ReviewPair[]>;
  /** keep-new / keep-old / keep-both for a pair (either record's id), or hold one record; false when none. */
  resolveReview(place: Place, id: string, choice: ReviewChoice): Promise<boolean>;
  /**
   * "Why does Charlie think that?": the records that answer `query` (found by recall), or the
   * records with these block ids (a reply's "why?" button), each with its provenance chain.
   */
  why(place: Place, ask: { query: string } | { ids: readonly string[] }): Promise<WhyAnswer>;
  /** Every typed record of the place, with decay read now: a project's entity pages, or a DM's rows in private.db. */
  records(place: Place): Promise<RecordView[]>;
  /** The pages and their labelled links, for a graph view (null in a private conversation). */
  pageLinks(place: Place): Promise<PageLinks | null>;
  /** A person rewrote a record's statement: provenance manual, confidence 1; false when there is no such record. */
  editRecord(place: Place, id: string, statement: string): Promise<boolean>;
  /** A person rewrote a note page's text (front matter kept): source manual, confidence 1; false when there is no such page. */
  editNotePage(place: Place, path: string, body: string): Promise<boolean>;
  /** Reflects on the project's pages now (merge, distil rules, expire, propose for review), on the memory lane. */
  reflect(place: Place): Promise<ReflectionReport>;
  /** Kept previous versions of the project's pages (of one page when named), oldest first. */
  pageVersions(place: Place, page?: string): Promise<PageVersion[]>;
  /** Writes a kept version of a page back, byte for byte (the newest when no version is named). */
  restorePage(place: Place, page: string, version?: string): Promise<RestoreOutcome>;
}

/** The asking user's own private memory (src/core/private/private-memory.ts); never another user's. */
export interface PrivateApi {
  /** What Charlie holds privately about the user of a private place (null in a project). */
  privateMemory(place: Place): Promise<PrivateMemoryView | null>;
  /** Forgets an item or a message range of the asking user's own private memory, with tombstones. */
  forgetPrivate(place: Place, target: PrivateForgetTarget): Promise<PrivateForgetOutcome>;
  /** Deletes every row of the asking user's private memory, and tells each listener (`onWipe`) whose. */
  wipePrivate(place: Place): Promise<boolean>;
  /** A front door's own stores of private conversations (the web app's titles, turns, images) forget a person with the wipe. */
  onWipe(listener: (userId: string) => void): void;
  /** The last `limit` messages of a person's own private conversation, newest last (private.db). */
  recentMessages(userId: string, limit: number): LogEntry[];
}

/**
 * The Markdown projects a front door lists and opens by name (the web app's sidebar and pages,
 * the MCP server's `project` argument): the project store, read as the assistant reads it.
 */
export interface ProjectsApi {
  listProjects(): Promise<ProjectConfig[]>;
  getProject(slug: string): Promise<{ config: ProjectConfig; problems: FileProblem[] } | null>;
  ensureProject(origin: ProjectOrigin): Promise<ProjectConfig>;
  /** Renames (display name only: the folder stays) or archives / unarchives a project. */
  relabelProject(slug: string, change: { name?: string; archived?: boolean }): Promise<ProjectConfig>;
  readPage(slug: string, page: string): Promise<string | null>;
  listNotes(slug: string): Promise<NoteSummary[]>;
  /** A note page parsed (throws when its front matter does not parse). */
  readNote(slug: string, path: string): Promise<Note | null>;
  recentLog(slug: string, limit: number): Promise<LogEntry[]>;
}

/** Asking in the moment (core/privacy/consent.ts): which way is on, and each person's ledger of answers. */
export interface PrivacyApi {
  /** `ask` (a person decides before a sensitive item goes to a hosted service) or `withhold` (it never goes). */
  consentMode(): ConsentMode;
  /** The person's answers, newest first: standing "always", used "once", and revoked. */
  consents(userId: string): Promise<ConsentGrant[]>;
  /** Ends a standing "always" of the person (never another's); false when they have none of that id. */
  revokeConsent(userId: string, grantId: string): Promise<boolean>;
}

/**
 * What the front doors call, in slices: each front door asks only for the slices it uses
 * (`Pick<AssistantApi, 'conversation'>` for voice), so a fake of it needs only those.
 */
export interface AssistantApi {
  readonly conversation: ConversationApi;
  readonly settings: SettingsApi;
  readonly memory: MemoryApi;
  readonly private: PrivateApi;
  readonly privacy: PrivacyApi;
  readonly projects: ProjectsApi;
  /** Which model does which job (chat, memory) and whether each is local. */
  lanes(): ModelLane[];
  /** Waits for background work (distillation) to settle; for shutdown and tests. */
  idle(): Promise<void>;
}
