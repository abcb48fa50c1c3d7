/**
 * The record domain, one definition for every store (entity pages in Markdown, a DM's rows in
 * private.db): the one record type, the categories, the provenance kinds, the statuses, and which
 * statuses retrieval may see. Decay (decay.ts), the attribute a statement is about (review.ts) and
 * block ids (block-id.ts) sit next to it. Pure: it imports nothing outside the core.
 */
import type { SensitiveKind, Sensitivity } from '../privacy/sensitivity.js';

export const CATEGORIES = ['identity', 'preference', 'commitment', 'episode', 'relationship', 'rule'] as const;
export type Category = (typeof CATEGORIES)[number];
export const PROVENANCE_KINDS = ['chat', 'voice', 'ingest', 'manual', 'reflection', 'calendar'] as const;
export type ProvenanceKind = (typeof PROVENANCE_KINDS)[number];
export const STATUSES = ['active', 'review', 'held', 'superseded'] as const;
export type RecordStatus = (typeof STATUSES)[number];

/** Held and superseded records stay where they are written, for the record, but out of retrieval and prompts. */
export function retrievable(status: string): boolean {
  return status === 'active' || status === 'review';
}

export interface MemoryRecord {
  /** The block id (`r-…`), or '' for a line without one. */
  id: string;
  /** Page path relative to notes/. */
  page: string;
  line: number;
  statement: string;
  /** '' when the line has no (known) `type`. */
  category: Category | '';
  provenance: { kind: ProvenanceKind; source: string };
  confidence: number;
  sensitivity: Sensitivity;
  sensitiveKind?: SensitiveKind;
  status: RecordStatus;
  /** YYYY-MM-DD, or '' when unknown. */
  said: string;
  happened: string;
  due: string;
  /** The other record of a pair in review (an id without `^`), or ''. */
  vs: string;
  /** The day Charlie asked whether a past-due commitment happened, or '' (asked once). */
  asked: string;
  /** The day Charlie mentioned the review this record is in, or '' (mentioned once). */
  raised: string;
  /** Whether a person changed the statement since Charlie wrote it. */
  handEdited: boolean;
}

/** How a source reached Charlie, from its form. */
export function provenanceOf(source: string): ProvenanceKind {
  const s = source.trim();
  if (/^voice:/i.test(s)) return 'voice';
  if (/^inbox\//i.test(s) || /^ingest:/i.test(s)) return 'ingest';
  if (/^\[\[/.test(s)) return 'reflection';
  if (/^calendar:/i.test(s)) return 'calendar';
  if (/^manual\b/i.test(s)) return 'manual';
  return 'chat';
}
