/**
 * The record domain's vocabulary, one definition for every store (entity pages in Markdown, a
 * DM's rows in private.db): the categories, the provenance kinds, the statuses, and which
 * statuses retrieval may see. Pure: it imports nothing outside the core.
 */
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
