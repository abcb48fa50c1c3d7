/**
 * Provenance chains (src/core/inspector/why.ts) built from what is on disk: the record line (its source,
 * `said`, confidence, status) and its history in `notes/_log.md` (history.ts). Events are
 * matched by block id alone, so a record keeps its history when its page is renamed. A record
 * written before its history was kept shows the source on its line, saying so.
 */
import type { ChainStep, Provenance, RecordChain, RecordRef } from '../../core/records/provenance.js';
import { blockIdFor } from '../../core/records/block-id.js';
import type { WikiPage } from '../graph/page.js';
import { decay } from '../../core/records/decay.js';
import { absorbedBy, editEvent, type RecordEvent } from './history.js';
import { recordsOf } from './record.js';
import type { MemoryRecord } from '../../core/records/record.js';

/** `terminal:<ms>` and `voice:<ms|ISO>` messages live in the archive file of their day. */
export function sourceLink(source: string): string {
  const m = /^(terminal|voice):(\d{10,}|\d{4}-\d\d-\d\d\S*)/.exec(source.trim());
  if (!m) return source;
  const at = /^\d+$/.test(m[2] ?? '') ? new Date(Number(m[2])) : new Date(m[2] ?? '');
  return Number.isNaN(at.getTime()) ? source : `log/${at.toISOString().slice(0, 10)}.md (${source})`;
}

const editKey = (e: Pick<RecordEvent, 'id' | 'detail'>) => `${e.id} ${e.detail ?? ''}`;

/** The hand edits `events` hold, as unloggedEdits matches them (into `into`). */
export function loggedEdits(events: Iterable<RecordEvent>, into = new Set<string>()): Set<string> {
  for (const e of events) if (e.action === 'edited') into.add(editKey(e));
  return into;
}

/**
 * Records a person changed whose edit the log does not hold yet (the statement no longer hashes
 * to its id). A record on a page Charlie or a person renamed still hashes to its old path: that
 * is a move, not an edit (`renamed` holds old → new paths from the log). `events`: the log's
 * record events, or the hand edits they hold (loggedEdits).
 */
export function unloggedEdits(pages: Iterable<WikiPage>, events: readonly RecordEvent[] | ReadonlySet<string>, renamed: ReadonlyMap<string, string[]>): Omit<RecordEvent, 'at'>[] {
  const logged = events instanceof Set ? events : loggedEdits(events as readonly RecordEvent[]);
  const out: Omit<RecordEvent, 'at'>[] = [];
  for (const page of pages) {
    const before = renamed.get(page.path) ?? [];
    for (const r of recordsOf(page)) {
      if (!r.id || !r.handEdited || before.some((old) => blockIdFor(old, r.statement) === r.id)) continue;
      const e = editEvent(page.path, r.id, r.statement);
      if (!logged.has(editKey(e))) out.push(e);
    }
  }
  return out;
}

function step(e: RecordEvent, from?: string): ChainStep {
  const base = { at: e.at, kind: e.action, ...(from ? { from } : {}) };
  const src = e.source ? { source: sourceLink(e.source) } : {};
  switch (e.action) {
    case 'added':
      return { ...base, text: `stated, and written (${e.detail ?? 'no verdict recorded'})`, ...src };
    case 'restated':
      return { ...base, text: `restated (${e.detail ?? ''}); confidence back to full`, ...src };
    case 'edited':
      return { ...base, text: `changed by hand (noticed then; ${e.detail ?? ''}): it now reads as manual, confidence 1` };
    case 'merged': {
      const gone = absorbedBy(e);
      return { ...base, text: `merged by ${e.source ?? 'reflection'}: absorbed the duplicate ${gone ? `^${gone.id}` : ''}, keeping its sources` };
    }
    case 'review':
      return { ...base, text: `put into review: ${e.detail ?? ''}` };
    case 'reviewed':
      return { ...base, text: `review decision: ${e.detail ?? ''}`, ...src };
    case 'distilled':
      return { ...base, text: `${e.detail ?? 'a rule distilled'} by ${e.source ?? 'reflection'}` };
    case 'expired':
      return { ...base, text: `expired by ${e.source ?? 'reflection'}: past its due date ${e.detail ?? ''}`.trim() };
    case 'settled':
      return { ...base, text: `settled by ${e.source ?? 'reflection'}: an old episode ${e.detail ?? ''}`.trim() };
  }
}

const MAX_DEPTH = 5;

function stepsOf(id: string, byId: ReadonlyMap<string, RecordEvent[]>, depth: number, seen: Set<string>): ChainStep[] {
  if (depth > MAX_DEPTH || seen.has(id)) return [];
  seen.add(id);
  const out: ChainStep[] = [];
  for (const e of byId.get(id) ?? []) {
    out.push(step(e, depth > 0 ? id : undefined));
    const gone = absorbedBy(e);
    if (gone) out.push(...stepsOf(gone.id, byId, depth + 1, seen));
  }
  return out;
}

function chainOf(r: MemoryRecord, byId: ReadonlyMap<string, RecordEvent[]>, now: Date): RecordChain {
  const steps = r.id ? stepsOf(r.id, byId, 0, new Set()) : [];
  if (!steps.some((s) => s.kind === 'added' && !s.from)) {
    const src = r.provenance.source;
    steps.unshift({
      at: r.said,
      kind: 'said',
      text: r.id ? (src ? 'source on the record (its history from before Charlie kept one is not recorded)' : 'no source on the record') : 'written by a person (no block id, so no history)',
      ...(src ? { source: sourceLink(src) } : {}),
    });
  }
  steps.sort((a, b) => a.at.localeCompare(b.at));
  const d = decay(r, now);
  return {
    id: r.id,
    page: r.page,
    statement: r.statement,
    category: r.category,
    status: r.status,
    via: r.provenance.kind,
    confidence: r.confidence,
    effective: d.effective,
    state: d.state,
    said: r.said,
    handEdited: r.handEdited,
    sensitivity: r.sensitivity,
    steps,
  };
}

/** The chains of the records `refs` name, from the pages and the log's events. */
export function buildChains(pages: ReadonlyMap<string, WikiPage>, events: readonly RecordEvent[], refs: readonly RecordRef[], now: Date): Provenance {
  const byId = new Map<string, RecordEvent[]>();
  for (const e of events) byId.set(e.id, [...(byId.get(e.id) ?? []), e]);
  const records = new Map<string, MemoryRecord>();
  /** `[merged:: r-…]` on a kept record (the reflection job writes it): merged id → kept id. */
  const mergedInto = new Map<string, string>();
  for (const p of pages.values()) {
    for (const r of recordsOf(p)) if (r.id) records.set(r.id, r);
    for (const f of p.facts.concat(p.unsourced)) for (const m of f.fields.filter((x) => x.key === 'merged')) if (f.blockId) mergedInto.set(m.value.replace(/^\^/, ''), f.blockId);
  }
  const chains: RecordChain[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  const add = (r: MemoryRecord, askedFor?: string) => {
    const key = `${r.page}:${r.line}`;
    if (seen.has(key)) return;
    seen.add(key);
    chains.push({ ...chainOf(r, byId, now), ...(askedFor ? { askedFor } : {}) });
  };
  for (const ref of refs) {
    if ('id' in ref) {
      const id = ref.id.replace(/^\^/, '');
      const r = records.get(id) ?? keptAfterMerge(id, events, records) ?? records.get(mergedInto.get(id) ?? '');
      if (r) add(r, r.id === id ? undefined : id);
      else missing.push(id);
      continue;
    }
    const page = pages.get(ref.page);
    if (!page) continue;
    for (const r of recordsOf(page)) if (r.line >= ref.lineStart && r.line <= ref.lineEnd) add(r);
  }
  return { chains, missing };
}

/** A record merged away lives on in the one that absorbed it (following merges of merges). */
function keptAfterMerge(id: string, events: readonly RecordEvent[], records: ReadonlyMap<string, MemoryRecord>): MemoryRecord | undefined {
  let current = id;
  for (let hop = 0; hop < MAX_DEPTH; hop++) {
    const merge = events.find((e) => absorbedBy(e)?.id === current);
    if (!merge) return undefined;
    const kept = records.get(merge.id);
    if (kept) return kept;
    current = merge.id;
  }
  return undefined;
}
