/**
 * A typed record: one fact line of an entity page read with its defaults filled in. The line
 * format is lines.ts's (one parser); this module only gives the fields their meaning:
 *
 *     - Will send the mock-ups by Friday. [type:: commitment] [due:: 2026-06-26] [confidence:: 0.8]
 *       [said:: 2026-06-22] [source:: voice:2026-06-22T10:00] [via:: voice] ^r-88d0
 *
 * Left out: category unknown (''), confidence 1, sensitivity the page's, status active, via
 * read from the source (a Discord link is chat, `voice:` voice, `inbox/` ingest, `[[Page]]`
 * reflection). A record whose statement no longer hashes to its block id (or that has none)
 * was written or changed by a person: it reads as via `manual` with confidence 1. A page moved
 * by hand keeps its old ids, so its records read as manual too (the id hashes the old path).
 */
import { blockIdFor, field, sourceOf, type FactLine } from '../graph/lines.js';
import type { WikiPage } from '../graph/page.js';
import { parseSensitivity, type SensitiveKind, type Sensitivity } from '../../core/sensitivity.js';

import { CATEGORIES, PROVENANCE_KINDS, STATUSES, type Category, type ProvenanceKind, type RecordStatus } from '../../core/records/record.js';

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

export interface PageDefaults {
  sensitivity: Sensitivity;
  kind?: SensitiveKind | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}/;
const dateOf = (v: string | undefined) => (v && DATE.test(v) ? v.slice(0, 10) : '');
const isOneOf = <T extends string>(list: readonly T[], v: string | undefined): v is T => v !== undefined && (list as readonly string[]).includes(v);

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

/** Whether the statement is still the one Charlie wrote: its block id is a hash of it. */
export function writtenByCharlie(page: string, fact: Pick<FactLine, 'text' | 'blockId'>): boolean {
  return fact.blockId !== undefined && fact.blockId === blockIdFor(page, fact.text);
}

export function readRecord(page: string, fact: FactLine, defaults: PageDefaults): MemoryRecord {
  const f = (key: string) => field(fact.fields, key);
  const type = f('type')?.toLowerCase();
  const sourceField = f('source') ?? '';
  const via = f('via')?.toLowerCase();
  // Charlie writes every record with a block id that hashes its statement
  const handEdited = !writtenByCharlie(page, fact);
  const conf = Number(f('confidence'));
  const sens = parseSensitivity(f('sensitivity')) ?? { sensitivity: defaults.sensitivity, ...(defaults.kind ? { kind: defaults.kind } : {}) };
  const status = f('status')?.toLowerCase();
  return {
    id: fact.blockId ?? '',
    page,
    line: fact.line,
    statement: fact.text,
    category: isOneOf(CATEGORIES, type) ? type : '',
    provenance: { kind: handEdited ? 'manual' : isOneOf(PROVENANCE_KINDS, via) ? via : provenanceOf(sourceField), source: sourceField ? sourceOf(sourceField) : '' },
    confidence: handEdited || f('confidence') === undefined || !Number.isFinite(conf) ? 1 : Math.min(1, Math.max(0, conf)),
    sensitivity: sens.sensitivity,
    ...(sens.kind ? { sensitiveKind: sens.kind } : {}),
    status: isOneOf(STATUSES, status) ? status : 'active',
    said: dateOf(f('said')),
    happened: dateOf(f('happened')),
    due: dateOf(f('due')),
    vs: (f('vs') ?? '').replace(/^\^/, ''),
    asked: dateOf(f('asked')),
    raised: dateOf(f('raised')),
    handEdited,
  };
}

/** Every record of a page (sourced or not), in page order. */
export function recordsOf(page: WikiPage): MemoryRecord[] {
  const defaults = { sensitivity: page.sensitivity, ...(page.sensitiveKind ? { kind: page.sensitiveKind } : {}) };
  return [...page.facts, ...page.unsourced].sort((a, b) => a.line - b.line).map((f) => readRecord(page.path, f, defaults));
}
