/**
 * A record's provenance, as the knowledge graph and private.db hand it to the core: each record
 * with its chain of steps (said, added by the gate, restated, edited, merged, reviewed) and the
 * records asked for that no store holds any more. `core/inspector/why.ts` picks the records and renders
 * the chains; the ports (ports/knowledge-graph.ts) return them. Pure types.
 */
import type { Sensitivity } from '../privacy/sensitivity.js';

export type ChainStepKind = 'said' | 'added' | 'restated' | 'edited' | 'merged' | 'review' | 'reviewed' | 'distilled' | 'expired' | 'settled';

export interface ChainStep {
  /** ISO time (from the log), or YYYY-MM-DD when only the day is known. */
  at: string;
  kind: ChainStepKind;
  /** What happened, in a few words. */
  text: string;
  /** The message or source it came from: a Discord link, an archive file (`log/2026-06-01.md`), an inbox item. */
  source?: string;
  /** Set on the steps of a record that was merged into this one: that record's id. */
  from?: string;
}

export interface RecordChain {
  id: string;
  /** Page path relative to notes/. */
  page: string;
  statement: string;
  category: string;
  status: string;
  /** How it came (chat, voice, ingest, manual, reflection). */
  via: string;
  /** As written on the record (1 for a hand-edited one). */
  confidence: number;
  /** After decay, now. */
  effective: number;
  /** fresh, fading, old or expired. */
  state: string;
  said: string;
  handEdited: boolean;
  /** The record's label (its own, or its page's): a hosted reader is not given a sensitive one. */
  sensitivity: Sensitivity;
  steps: ChainStep[];
  /** Set when the record asked for was merged away into this one. */
  askedFor?: string;
}

/** Records by block id, or the records on some lines of a page (a recall hit). */
export type RecordRef = { id: string } | { page: string; lineStart: number; lineEnd: number };

export interface Provenance {
  chains: RecordChain[];
  /** Ids asked for that no page holds any more (forgotten, or rewritten by hand without an id). */
  missing: string[];
}
