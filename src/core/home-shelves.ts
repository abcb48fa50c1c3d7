/**
 * What a home holds beyond its layers, each bound to its project or DM: entity notes, the
 * knowledge graph and the typed records behind the promotion gate (core/home.ts builds them;
 * private-records.ts builds a DM's record shelf). Types only, so both sides import them here.
 */
import type { CandidateStore } from './records/candidates.js';
import type { Raisable } from './turn/raise.js';
import type { GraphWrite, GraphWriteReport, LinkedPage, Note, NoteSummary, PageCard, PageMapEntry, PageMapRequest, ReviewChoice, ReviewPair, TextHit, UsageKind } from './ports/index.js';

/** Entity notes (Markdown pages under `notes/`): only shared projects have them. */
export interface NoteShelf {
  list(): Promise<NoteSummary[]>;
  read(path: string): Promise<Note | null>;
  /** Records that a note was used (opened, tagged, accepted): it feeds the recall boost. */
  used(note: Note, kind: UsageKind): void;
  grep(query: string, limit: number): Promise<TextHit[]>;
}

/** A project's knowledge graph (entity pages and their labelled links), bound to the project. */
export interface ProjectGraph {
  taxonomy(): Promise<readonly string[]>;
  pageMap(request: PageMapRequest): Promise<PageMapEntry[]>;
  write(write: GraphWrite): Promise<GraphWriteReport>;
  follow(start: string, options: { label?: string; depth: number }): Promise<{ start: PageCard; linked: LinkedPage[] } | null>;
}

/** Typed records behind the promotion gate: a project's entity pages, or a DM's rows in private.db. */
export interface RecordShelf {
  /** What waits for promotion (the gate). */
  candidates: CandidateStore;
  reviewList(): Promise<ReviewPair[]>;
  /** A person's choice about a record in review, or `hold`; false when there is no such record. */
  review(id: string, choice: ReviewChoice): Promise<boolean>;
  /** Writes facts a person vouched for (a candidate promoted by hand). */
  write(write: GraphWrite): Promise<GraphWriteReport>;
  /** The records with who they concern in this turn, for what Charlie raises in a turn (core/turn/raise.ts). */
  raisable(ask: { speaker: string; speakerId?: string; text: string }, now: Date): Promise<Raisable[]>;
  /** Notes on the records that Charlie asked about them or mentioned their review. */
  mark(ids: readonly string[], what: 'asked' | 'raised', date: string): Promise<void>;
}
