/**
 * Ports owned by the core. Adapters (src/llm, src/memory, src/storage, src/speech, …)
 * implement them; tests use scripted fakes of them. Nothing here imports infrastructure.
 */

import type { ForgetOutcome, ForgetTarget, Tombstone } from './tombstone-types.js';
import type { Provenance, RecordRef } from './why.js';
import type { CandidateStore } from './promotion.js';

// ───────────────────────────── chat model ─────────────────────────────

export type Locality = 'local' | 'hosted';

import type { SensitiveKind, Sensitivity } from './sensitivity.js';

export type { SensitiveKind, Sensitivity };

export interface ToolCall {
  /** Provider-assigned id, or one we generate when the model gave none. */
  id: string;
  name: string;
  /** Raw argument text exactly as the model produced it (may not be valid JSON). */
  arguments: string;
}

export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ContentPart[]; name?: string }
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** JSON Schema of a tool's parameters (an object schema). */
export type JsonSchema = Record<string, unknown>;

export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  temperature?: number;
  maxTokens?: number;
  /** Ask for a JSON object reply (response_format json_object where supported). */
  json?: boolean;
  /**
   * Ask for JSON matching this schema: a grammar constrains the embedded model, so the reply
   * always parses (unless cut short by the token limit); the OpenAI-compatible client sends
   * response_format json_schema (LM Studio, llama.cpp server, vLLM, Ollama) and, where a server
   * refuses it, json_object, then the prompt alone — so the prompt must describe the JSON too.
   * The reply is still validated by the caller.
   */
  jsonSchema?: JsonSchema;
  signal?: AbortSignal;
}

/**
 * What a streaming completion yields. Tool calls are yielded whole, once their
 * arguments are complete (the adapter assembles deltas and recovers calls written
 * inside the text by models that do that).
 */
export type ChatChunk = { type: 'text'; text: string } | { type: 'tool_call'; call: ToolCall } | { type: 'done'; finishReason: string | null };

export interface ChatModel<L extends Locality = Locality> {
  /** e.g. "qwen2.5-7b-instruct@http://localhost:1234/v1" — never contains a key. */
  readonly id: string;
  readonly locality: L;
  /** Whether the model accepts image parts in user messages. */
  readonly acceptsImages: boolean;
  stream(request: ChatRequest): AsyncIterable<ChatChunk>;
}

/** The memory writer (distillation, reflection) accepts only a model that runs on the owner's machine. */
export type LocalChatModel = ChatModel<'local'>;

export function asLocalModel(model: ChatModel): LocalChatModel | null {
  return model.locality === 'local' ? (model as LocalChatModel) : null;
}

// ───────────────────────────── clock ─────────────────────────────

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

// ───────────────────────────── project memory ─────────────────────────────

/** Identifies where a project came from; ids are strings (Discord snowflakes etc.). */
export interface ProjectOrigin {
  /** Human name, e.g. the Discord channel name or `--project NAME`. */
  name: string;
  /** A stable key that survives renames, e.g. `discord:<guildId>:<channelId>` or `terminal:general`. */
  key: string;
  discord?: { guildId: string; channelId: string };
}

export interface ProjectConfig {
  slug: string;
  name: string;
  /** Free-text response style applied to every reply in this project. */
  style: string;
  distillEvery: number;
  /** Whether every message is appended to the log/ archive. */
  archive: boolean;
  /** `always` answers every message; `mention` only when addressed (Discord). */
  respond: 'always' | 'mention';
  keys: string[];
  discord?: { guildId: string; channelIds: string[] };
  /** Hidden from the web app's project list (front matter `archived: true`); memory and channel mapping stay. */
  archived?: boolean;
  created: string;
  updated: string;
}

export interface Decision {
  /** YYYY-MM-DD */
  date: string;
  text: string;
  /** Source link of the message that made the decision. */
  source: string;
}

export interface Quote {
  date: string;
  speaker: string;
  text: string;
  source: string;
}

export interface MemoryLayers {
  summary: string;
  decisions: Decision[];
  quotes: Quote[];
}

/** A problem found while reading a Markdown file: the file is left untouched. */
export interface FileProblem {
  path: string;
  line?: number;
  message: string;
}

/** One message in the conversation archive (`log/YYYY-MM-DD.md`). */
export interface LogEntry {
  /** ISO timestamp. */
  time: string;
  speaker: string;
  /** A link or URI that points back to the message (discord URL, `terminal:…`, `voice:…`, `locomo:D1:3`). */
  source: string;
  text: string;
  /** `user` for people, `assistant` for Charlie's own replies. */
  role: 'user' | 'assistant';
  /** Set when stored as sensitive (private rows); otherwise read from the entry's marker. */
  sensitivity?: Sensitivity;
}

/** Position in the archive: the log file name and a byte offset into it. */
export interface LogCursor {
  file: string;
  offset: number;
}

export interface LogTail {
  entries: LogEntry[];
  /** Cursor just after the last entry returned. */
  cursor: LogCursor | null;
  /** Cursor just after each entry (same order), so a reader can stop part-way. */
  after: LogCursor[];
}

/** Versions of the three layer files as read, so a write can detect hand edits made since. */
export interface LayersSnapshot {
  layers: MemoryLayers;
  /** Opaque content hashes per file; passed back to `writeLayers`. */
  versions: Record<string, string>;
  problems: FileProblem[];
}

export type WriteOutcome = { ok: true } | { ok: false; reason: 'conflict' | 'invalid'; paths: string[]; message: string };

export interface NoteSummary {
  /** Path relative to the project's notes/ folder, e.g. `People/Sarah-Chen.md`. */
  path: string;
  title: string;
  tags: string[];
  updated: string;
}

export interface Note extends NoteSummary {
  body: string;
  aliases: string[];
  category?: string;
  staleness: number;
  confidence: number;
  sensitivity: Sensitivity;
  /** The front matter's provenance (message links, `manual`, …), as written. */
  sources?: string[];
  /** The front matter's `status` (active, review, held); absent = active. */
  status?: string;
}

export interface NoteDraft {
  title: string;
  body: string;
  category?: string;
  tags?: string[];
  aliases?: string[];
  source: string;
  /**
   * Makes the save idempotent: a note that already holds an entry saved with this key is left
   * as it is (distillation replayed after a crash passes the same key for the same messages).
   */
  key?: string;
}

export interface TextHit {
  path: string;
  line: number;
  text: string;
  /** The page's, read from its front matter failing closed (an unreadable value is sensitive). */
  sensitivity?: Sensitivity;
}

/** The Markdown project memory. Paths given to it are always relative and validated by the adapter. */
export interface ProjectStore {
  /** Find or create the project for an origin; names become safe slugs. */
  ensureProject(origin: ProjectOrigin): Promise<ProjectConfig>;
  getProject(slug: string): Promise<{ config: ProjectConfig; problems: FileProblem[] } | null>;
  updateProject(slug: string, patch: Partial<Pick<ProjectConfig, 'style' | 'distillEvery' | 'archive' | 'respond'>>): Promise<ProjectConfig>;
  readLayers(slug: string): Promise<LayersSnapshot>;
  /** Atomic; refuses (`conflict`) when a file changed since `versions` were read. */
  writeLayers(slug: string, layers: MemoryLayers, versions: Record<string, string>): Promise<WriteOutcome>;
  appendLog(slug: string, entry: LogEntry): Promise<void>;
  /** Entries after `cursor` (null = from the beginning), reading only the tail of the archive. */
  readLogSince(slug: string, cursor: LogCursor | null): Promise<LogTail>;
  /** The last `limit` entries of the archive (conversation context for a turn). */
  recentLog(slug: string, limit: number): Promise<LogEntry[]>;
  getDistillCursor(slug: string): Promise<LogCursor | null>;
  setDistillCursor(slug: string, cursor: LogCursor): Promise<void>;
  listNotes(slug: string): Promise<NoteSummary[]>;
  /** Notes that cannot be read (their front matter does not parse), as paths relative to notes/. */
  unreadableNotes(slug: string): Promise<string[]>;
  readNote(slug: string, path: string): Promise<Note | null>;
  /** Creates or updates (appends a dated entry to) the note for `draft.title`. Returns its path. */
  saveNote(slug: string, draft: NoteDraft): Promise<{ path: string; created: boolean }>;
  deleteNote(slug: string, path: string): Promise<boolean>;
  /** Plain case-insensitive text search over notes (the hybrid engine lives in recall). */
  grepNotes(slug: string, query: string, limit: number): Promise<TextHit[]>;
  /** The project's tombstones (forgotten.md). Notes and layers that match one are never written. */
  tombstones(slug: string): Promise<Tombstone[]>;
  /** Removes the item, leaves a tombstone, and optionally redacts the archive entries that said it. */
  forget(slug: string, target: ForgetTarget, by: string, options: { removeMessages: boolean }): Promise<ForgetOutcome>;
}

// ───────────────────────────── retrieval ─────────────────────────────

/**
 * The embedder port: texts in, unit-length vectors out. The index stores every vector
 * with the embedder's id (`model:dimensions`) so a change of embedder re-embeds and
 * never mixes vectors of two models.
 */
export interface Embedder {
  /** `model:dimensions`, e.g. `Xenova/all-MiniLM-L6-v2:384` or `builtin-hash-v2:384`. */
  readonly id: string;
  readonly dimensions: number;
  /** Whether the embedder is a real sentence model (vs lexical hashing). */
  readonly semantic: boolean;
  /** Where it runs: a hosted embedder is never given a sensitive chunk or query (they are found by keywords). */
  readonly locality: Locality;
  embed(texts: string[]): Promise<Float32Array[]>;
  /** A search query's vector, when the model wants queries phrased differently (bge prefix). */
  embedQuery?(text: string): Promise<Float32Array>;
}

export interface ScoreParts {
  vector: number;
  keyword: number;
  usage: number;
  recency: number;
}

export interface RecallHit {
  /** Page path relative to the project folder, e.g. `notes/People/Sarah-Chen.md` or `log/2026-11-29.md`. */
  page: string;
  heading: string;
  lineStart: number;
  lineEnd: number;
  text: string;
  updated: string;
  staleness: number;
  score: number;
  parts: ScoreParts;
  /**
   * For a passage of typed records: the best effective confidence among them (confidence
   * decayed by category, see src/memory/records/decay.ts), which also multiplied the score.
   */
  confidence?: number;
  /** Which signals fired, e.g. ["vector", "keyword"]. */
  why: string[];
  /** The chunk's sensitivity: its page's front matter, or its own marker. */
  sensitivity?: Sensitivity;
  /** A section of a long archive message: the message's header line (lineStart..lineEnd is the section). */
  message?: number;
}

export interface RecallScope {
  project: string;
  limit?: number;
  /** Only note pages (records and the pages they live on): for "why", where archive messages would fill the hits. */
  notesOnly?: boolean;
}

export interface Recall {
  recall(query: string, scope: RecallScope): Promise<RecallHit[]>;
}

export type UsageKind = 'view' | 'tag' | 'suggestion_accepted' | 'retrieved';

export interface UsageStore {
  record(project: string, page: string, kind: UsageKind, at?: Date): void;
  /** Boost in [0, 1] per page. */
  boost(project: string, page: string, at?: Date): number;
}

// ───────────────────────────── private (DM) memory ─────────────────────────────

/** DM conversations: SQLite only, never Markdown, never the shared index. */
export interface PrivateStore {
  appendMessage(userId: string, entry: LogEntry): void;
  recentMessages(userId: string, limit: number): LogEntry[];
  messagesSince(userId: string, afterId: number): { id: number; entry: LogEntry }[];
  /** Messages containing any of the terms (case-insensitive), most matching terms first, then newest. */
  searchMessages(userId: string, terms: string[], limit: number): LogEntry[];
  readLayers(userId: string): MemoryLayers & { distilledThrough: number; style: string };
  writeLayers(userId: string, layers: MemoryLayers, distilledThrough: number): void;
  setStyle(userId: string, style: string): void;
  /** Messages stored as sensitive (or carrying the marker): withheld from hosted models. */
  sensitiveMessages(userId: string): LogEntry[];
  /** How many messages are kept for this user, and the first and last times. */
  messageStats(userId: string): { count: number; first: string | null; last: string | null };
  /** Deletes this user's messages from `sinceTime` on (ISO), or the last `lastN`; returns how many. */
  deleteMessages(userId: string, range: { sinceTime: string } | { lastN: number }): number;
  /** Private tombstones (fingerprints only): matching decisions and quotes are never written again. */
  tombstones(userId: string): Tombstone[];
  addTombstone(userId: string, tombstone: Tombstone): void;
  /** Deletes every row of this user (messages, memory, tombstones); other users are untouched. */
  wipe(userId: string): void;
}

/**
 * A typed record of a private conversation, as read (decay computed on read): the same fields
 * as a fact line of an entity page, kept in SQLite (private.db), never in Markdown.
 */
export interface PrivateRecord {
  /** Stable id (`r-…`), a hash of the user, the entity and the statement as first written. */
  id: string;
  /** Who or what the record is about, as named (the DM's "page"). */
  entity: string;
  statement: string;
  /** identity, preference, commitment, episode, relationship, rule — or '' (none). */
  category: string;
  source: string;
  /** chat, voice, ingest, manual, reflection. */
  via: string;
  confidence: number;
  /** Confidence decayed by category (src/memory/records/decay.ts) at the time of reading. */
  effective: number;
  state: 'fresh' | 'fading' | 'old' | 'expired';
  /** `public`, `personal`, `sensitive`, `sensitive/phi` … */
  sensitivity: string;
  status: 'active' | 'review' | 'held' | 'superseded';
  /** YYYY-MM-DD or ''. */
  said: string;
  happened: string;
  due: string;
  about: string;
  /** The other record of a pair in review. */
  vs: string;
  /** The day the record lost a review. */
  superseded: string;
  /** The day Charlie asked whether a past-due commitment happened (asked once). */
  asked: string;
  /** The day Charlie mentioned the open review this record is in (mentioned once). */
  raised: string;
}

/** One change to a DM record, as private.db keeps it: the record's history for `/memory why`. */
export interface PrivateRecordEvent {
  /** The record's id. */
  id: string;
  /** YYYY-MM-DD */
  at: string;
  kind: 'added' | 'restated' | 'review' | 'reviewed';
  /** What happened, in a few words (the gate's verdict, the review decision); never the statement. */
  text: string;
  /** The message that said it, when a message did. */
  source: string;
}

/** A DM's typed records and waiting candidates, in private.db (the private twin of the graph's records). */
export interface PrivateRecords {
  list(userId: string, now: Date): PrivateRecord[];
  /** The changes to these records, oldest first (records written before private.db kept them have none). */
  history(userId: string, ids: readonly string[]): PrivateRecordEvent[];
  /** Promoted facts become records: a restated one is refreshed, a contradicting one goes into review with the other. */
  write(userId: string, write: GraphWrite): GraphWriteReport;
  reviewPairs(userId: string): ReviewPair[];
  /** keep-new / keep-old / keep-both for either record of a pair, or hold one record; false when there is none. */
  review(userId: string, id: string, choice: ReviewChoice, today: string): boolean;
  /** Notes on the records that Charlie asked about them (a follow-up) or raised their review, so neither is repeated. */
  mark(userId: string, ids: readonly string[], what: 'asked' | 'raised', date: string): void;
  candidates(userId: string): CandidateStore;
}

// ───────────────────────────── speech ─────────────────────────────

export interface SpeechToText {
  readonly id: string;
  /** 16 kHz mono signed 16-bit PCM in, text out. */
  transcribe(pcm16k: Int16Array, options?: { language?: string; signal?: AbortSignal }): Promise<string>;
  /** Optional: load (or download) the model now rather than on the first utterance. */
  warmUp?(): Promise<void>;
}

export interface SynthesizedAudio {
  /** Container/codec of `data`, e.g. `audio/mpeg` or `audio/wav`. */
  mime: string;
  data: Uint8Array;
  /** Set by the speech guard: which kind of voice spoke it (the web's Read aloud says so). */
  spokenBy?: Locality;
}

export interface TextToSpeech {
  readonly id: string;
  readonly locality: Locality;
  /** For a hosted voice: the local engine that speaks what must not leave the machine (none: it is not spoken). */
  readonly localVoice?: TextToSpeech;
  synthesize(text: string, options?: { signal?: AbortSignal }): Promise<SynthesizedAudio>;
  /** Optional: get the local engine ready now (compile, first run) rather than on the first reply. */
  warmUp?(): Promise<void>;
}

// ───────────────────────────── logging ─────────────────────────────

/** The subset of pino the core uses; message text goes only to `debug`. */
export interface Logger {
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silentLogger;
  },
};

// ───────────────────────────── knowledge graph ─────────────────────────────

/** What the memory writer and traversal see of a page (never its whole text). */
export interface PageCard {
  /** Relative to the project's notes/ folder, e.g. `People/Professional/Sarah-Chen.md`. */
  path: string;
  title: string;
  aliases: string[];
  category: string;
  description: string;
  updated: string;
  staleness: number;
  sensitivity: Sensitivity;
  discordId?: string;
}

export interface PageMapEntry extends PageCard {
  /** Why the page is in the map: named in the messages, a speaker's own page, or found by recall. */
  why: 'named' | 'speaker' | 'related';
}

export interface PageMapRequest {
  /** The new messages (or source items) the writer will read. */
  texts: string[];
  speakers: { name: string; discordId?: string }[];
  /** Page paths recall found relevant, best first. */
  related?: string[];
  limit?: number;
}

/** One atomic fact, with the exact message (or source item) that said it. */
export interface GraphFact {
  text: string;
  type?: string;
  /** YYYY-MM-DD */
  said: string;
  source: string;
  /** 0 (never goes stale) … 10 (stale in a day), set by the writer from the nature of the fact. */
  staleness?: number;
  /** Set by the promotion gate: how sure Charlie is (0–1), how it came (chat, voice, ingest). */
  confidence?: number;
  via?: string;
  /** `sensitive/phi|credential|financial` when the text says so; left out = the page's. */
  sensitivity?: string;
  /** YYYY-MM-DD: a commitment's due date; an episode's day. */
  due?: string;
  happened?: string;
  /** The attribute the fact is about (employer, home …), for contradictions. */
  about?: string;
  /** How it was let in (the promotion gate's verdict and score), kept in the record's history (`_log.md`). */
  gate?: string;
  /** Set by the graph writer: the centre pages (`Users/Ann/USER`) of the people the fact names. */
  person?: string[];
}

export interface GraphEntity {
  /** A name, alias or page path; resolved against the project's pages. */
  name: string;
  category?: string;
  aliases?: string[];
  description?: string;
  /** For a new page: set once, never recomputed. */
  staleness?: number;
  discordId?: string;
  /** A speaker's web identity (the name they sign in to the web app with), kept on their USER.md. */
  webUser?: string;
  facts: GraphFact[];
  /** May a new page be created for it (lasting significance, or a speaker)? */
  create: boolean;
  /** A person who talks to Charlie: their page is their centre page, `Users/<Name>/USER.md`. */
  centre?: boolean;
}

/** Evidence for a relationship: a message that states it, or a page whose text states it. */
export type LinkEvidence = { kind: 'message'; source: string } | { kind: 'page'; page: string; quote: string };

export interface GraphLink {
  from: string;
  to: string;
  /** What `to` is to `from` (on `from`'s page), e.g. `employer`. */
  label: string;
  /** What `from` is to `to` (on `to`'s page), e.g. `employee`. */
  reverseLabel: string;
  evidence: LinkEvidence;
}

export interface GraphWrite {
  entities: GraphEntity[];
  links: GraphLink[];
  /** For `_log.md`: what produced this write (`distillation`, `inbox/calendar.ics`). */
  origin: string;
}

export interface GraphWriteReport {
  created: string[];
  updated: string[];
  factsAdded: number;
  factsRefreshed: number;
  linksAdded: number;
  /** Items not written, with why (unresolved, ambiguous, no evidence, forgotten, conflict). */
  refused: { item: string; reason: string }[];
}

export interface LinkedPage extends PageCard {
  label: string;
  /** The page the link was followed from. */
  from: string;
  depth: number;
}

export interface KnowledgeGraph {
  /** The project's category folders for new pages (project.md `taxonomy`, or the defaults). */
  taxonomy(project: string): Promise<readonly string[]>;
  pageMap(project: string, request: PageMapRequest): Promise<PageMapEntry[]>;
  write(project: string, write: GraphWrite): Promise<GraphWriteReport>;
  /** Pages linked from a page (path or name), optionally only links whose label matches, 1–2 hops. */
  follow(project: string, start: string, options: { label?: string; depth: number }): Promise<{ start: PageCard; linked: LinkedPage[] } | null>;
  /** Pairs of records that disagree, waiting for a person. */
  reviewList(project: string): Promise<ReviewPair[]>;
  /** A person's choice about a record in review, or `hold`; false when no page has the record. */
  review(project: string, id: string, choice: ReviewChoice): Promise<boolean>;
  /** The records asked for, each with its provenance chain (src/core/why.ts). */
  provenance(project: string, refs: readonly RecordRef[]): Promise<Provenance>;
  /** Every typed record of the project's pages (only of `pages`, paths under notes/, when given), with its decay read at `now`. */
  records(project: string, now: Date, pages?: readonly string[]): Promise<RecordView[]>;
  /** The pages and their labelled `## Related` links (a front door's graph view). */
  pageLinks(project: string): Promise<PageLinks>;
  /** Notes on records that Charlie asked about them (`[asked:: date]`) or mentioned their review (`[raised:: date]`). */
  markRecords(project: string, ids: readonly string[], what: 'asked' | 'raised', date: string): Promise<void>;
  /** A person rewrote a record's statement: provenance `manual`, confidence 1; false when no page has the record. */
  editRecord(project: string, id: string, statement: string): Promise<boolean>;
  /** A person rewrote a page's text (front matter kept): source `manual`, confidence 1; false when there is no such page. */
  editPage(project: string, path: string, body: string): Promise<boolean>;
}

/** A project's pages and the labelled links between them, as read from the pages. */
export interface PageLinks {
  /** Paths relative to notes/. */
  pages: { path: string; title: string; category: string }[];
  /** `to` is the page the link resolves to, or null when no page has that name yet (`target` as written). */
  links: { from: string; to: string | null; target: string; label: string }[];
}

/** A typed record (one `## Facts` line) as a front door shows it, e.g. the Memory Inspector. */
export interface RecordView {
  /** The block id (`r-…`), or '' for a line without one. */
  id: string;
  /** Page path relative to notes/; '' for a record of a private conversation (private.db, no page). */
  page: string;
  /** The page's title, or the entity a private record is about. */
  pageTitle: string;
  pageCategory: string;
  line: number;
  statement: string;
  /** identity, preference, commitment, episode, relationship, rule, or '' when untyped. */
  category: string;
  /** chat, voice, ingest, manual or reflection, and the source (a message link, `voice:…`, a page). */
  provenance: { kind: string; source: string };
  confidence: number;
  /** Confidence after decay at the time of reading (0–1). */
  effective: number;
  decay: 'fresh' | 'fading' | 'old' | 'expired';
  sensitivity: Sensitivity;
  sensitiveKind?: SensitiveKind;
  /** active, review, held or superseded. */
  status: string;
  /** YYYY-MM-DD or ''. */
  said: string;
  happened: string;
  due: string;
  /** The other record of a pair in review; when Charlie asked about a past-due commitment; when it mentioned the review (each once). */
  vs?: string;
  asked?: string;
  raised?: string;
  /** Whether a person changed the statement since Charlie wrote it. */
  handEdited: boolean;
}

export type ReviewChoice = 'keep-new' | 'keep-old' | 'keep-both' | 'hold';

export interface ReviewPair {
  page: string;
  title: string;
  /** The older and the newer record (by `said`, then by place on the page). */
  old: { id: string; statement: string; said: string };
  new: { id: string; statement: string; said: string };
}
