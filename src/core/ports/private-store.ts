/** Ports owned by the core: private (DM) memory. Adapters implement them; nothing here imports infrastructure. */
import type { Tombstone } from '../inspector/tombstone-types.js';
import type { CandidateStore } from '../records/candidates.js';
import type { GraphWrite, GraphWriteReport, ReviewChoice, ReviewPair } from './knowledge-graph.js';
import type { LogEntry, MemoryLayers } from './project-store.js';
import type { SensitivityValue } from '../privacy/sensitivity.js';
import type { MemoryRecord, ProvenanceKind } from '../records/record.js';
import type { DecayState } from '../records/decay.js';

/** DM conversations: SQLite only, never Markdown, never the shared index. */
export interface PrivateStore {
  appendMessage(userId: string, entry: LogEntry): void;
  recentMessages(userId: string, limit: number): LogEntry[];
  messagesSince(userId: string, afterId: number): { id: number; entry: LogEntry }[];
  /**
   * Stores the memory lane's verdict on these messages (by id): a sensitive label on the message
   * and the reply of its turn (never lowering a label), and a provisional one (`unjudged`) settled
   * as given, ordinary included (sensitivity-verdict.ts).
   */
  raiseMessageLabels(userId: string, raised: readonly { id: number; label: SensitivityValue }[]): void;
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
 * A typed record of a private conversation, as read (decay computed on read): the core's one
 * MemoryRecord (src/core/records) as private.db keeps it, never in Markdown. It has no page: the
 * entity it is about stands for one; `privateRecordView` makes it a RecordView.
 */
export interface PrivateRecord extends Pick<MemoryRecord, 'id' | 'statement' | 'category' | 'confidence' | 'status' | 'said' | 'happened' | 'due' | 'vs' | 'asked' | 'raised'> {
  /** Who or what the record is about, as named (the DM's "page"). */
  entity: string;
  source: string;
  via: ProvenanceKind;
  /** Confidence decayed by category (src/core/records/decay.ts) at the time of reading. */
  effective: number;
  state: DecayState;
  /** `public`, `personal`, `sensitive`, `sensitive/phi` … as stored (parsed failing closed on use). */
  sensitivity: string;
  about: string;
  /** The day the record lost a review. */
  superseded: string;
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
