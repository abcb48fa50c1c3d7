/**
 * The Markdown adapter of the record domain (src/core/records): one fact line of an entity page
 * read as a MemoryRecord, its defaults filled in. The line format is lines.ts's (one parser):
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
import { field, sourceOf, type FactLine } from '../markdown/lines.js';
import { blockIdFor } from '../../core/records/block-id.js';
import type { WikiPage } from '../graph/page.js';
import { parseSensitivity, type SensitiveKind, type Sensitivity } from '../../core/privacy/sensitivity.js';
import { CATEGORIES, PROVENANCE_KINDS, provenanceOf, STATUSES, type MemoryRecord } from '../../core/records/record.js';

export interface PageDefaults {
  sensitivity: Sensitivity;
  kind?: SensitiveKind | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}/;
const dateOf = (v: string | undefined) => (v && DATE.test(v) ? v.slice(0, 10) : '');
const isOneOf = <T extends string>(list: readonly T[], v: string | undefined): v is T => v !== undefined && (list as readonly string[]).includes(v);

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
