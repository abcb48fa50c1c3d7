/**
 * A private conversation's typed records (in private.db, never Markdown) behind the same
 * promotion gate as a project's pages: distillation sees a "page map" of the entities the DM's
 * records are about, the gate scores every proposed fact (novelty by the DM's own records),
 * and what passes becomes a record with category, provenance, confidence, sensitivity and
 * status. `/memory candidates|review|hold` in a DM act on these records.
 */
import { comparable as norm } from '../comparable.js';
import type { DistillGraph } from '../writing/distill.js';
import type { RecordShelf } from '../home-shelves.js';
import type { GraphWrite, PageMapEntry, PageMapRequest, PrivateRecord, PrivateRecords, PrivateStore, RecordView } from '../ports/index.js';
import { forgottenBy } from '../inspector/tombstones.js';
import { retrievable } from '../records/record.js';
import { toRecordView } from '../records/view.js';
import { isSensitive, parseSensitivity } from '../privacy/sensitivity.js';

const MAX_MAP = 40;

/** Whether a text names an entity (whole words, case and accents ignored). */
const names = (text: string, entity: string) => norm(entity) !== '' && ` ${norm(text)} `.includes(` ${norm(entity)} `);

const words = (s: string) =>
  norm(s)
    .split(' ')
    .filter((w) => w.length > 2);

/** Records a model or a search may see: held and superseded ones stay in private.db for the record. */
export function retrievableRecords(records: readonly PrivateRecord[]): PrivateRecord[] {
  return records.filter((r) => retrievable(r.status));
}

/** Whether a record is marked sensitive (any spelling, any kind): never sent to a hosted model. */
export function isSensitiveRecord(r: Pick<PrivateRecord, 'sensitivity'>): boolean {
  return isSensitive(r.sensitivity);
}

/** The entities of the DM's records as the page map distillation shows the memory model. */
function entityMap(records: readonly PrivateRecord[], request: PageMapRequest): PageMapEntry[] {
  const text = ` ${norm(request.texts.join('\n'))} `;
  const speakers = new Set(request.speakers.map((s) => norm(s.name)));
  const byEntity = new Map<string, PrivateRecord[]>();
  for (const r of retrievableRecords(records)) byEntity.set(r.entity, [...(byEntity.get(r.entity) ?? []), r]);
  const out: PageMapEntry[] = [];
  for (const [entity, list] of byEntity) {
    const key = norm(entity);
    const why = speakers.has(key) ? 'speaker' : key && text.includes(` ${key} `) ? 'named' : null;
    if (!why) continue;
    const updated = list.reduce((max, r) => (r.said > max ? r.said : max), '');
    const description = list
      .filter((r) => !isSensitiveRecord(r))
      .slice(-3)
      .map((r) => r.statement)
      .join(' ');
    out.push({ path: entity, title: entity, aliases: [], category: 'private', description: description.slice(0, 300), updated, staleness: 0, sensitivity: 'personal', why });
  }
  return out.slice(0, MAX_MAP);
}

/** What distillation of a DM reads and writes for its records: the DM's "graph". */
export function privateDistillGraph(store: PrivateStore, records: PrivateRecords, userId: string, now: () => Date): DistillGraph {
  return {
    taxonomy: async () => ['People', 'Places', 'Topics', 'Misc'],
    pageMap: async (request) => entityMap(records.list(userId, now()), request),
    write: async (write: GraphWrite) => {
      // what the user forgot is never written back
      const tombs = store.tombstones(userId);
      const entities = write.entities.map((e) => ({ ...e, facts: e.facts.filter((f) => !forgottenBy(tombs, { text: f.text })) }));
      return records.write(userId, { ...write, entities });
    },
    // novelty: does a record already say most of it?
    related: async (text) => {
      const asked = new Set(words(text));
      if (asked.size === 0) return [];
      return retrievableRecords(records.list(userId, now()))
        .filter((r) => {
          const have = words(r.statement);
          return have.filter((w) => asked.has(w)).length >= Math.max(1, Math.ceil(asked.size * 0.6));
        })
        .map((r) => r.entity);
    },
    candidates: records.candidates(userId),
  };
}

/** A DM's record (private.db) as front doors show typed records: its entity stands for the page, which it has none of. */
export function privateRecordView(r: PrivateRecord): RecordView {
  const s = parseSensitivity(r.sensitivity) ?? { sensitivity: 'personal' };
  return toRecordView(r, {
    page: '',
    pageTitle: r.entity,
    pageCategory: '',
    line: 0,
    provenance: { kind: r.via, source: r.source },
    effective: r.effective,
    decay: r.state,
    sensitivity: s.sensitivity,
    sensitiveKind: s.kind,
    handEdited: r.via === 'manual',
  });
}

/** A DM's records as the home's record shelf: review, hold, candidates and reminders, all in private.db. */
export function privateRecordShelf(records: PrivateRecords, userId: string, now: () => Date): RecordShelf {
  return {
    candidates: records.candidates(userId),
    reviewList: async () => records.reviewPairs(userId),
    review: async (id, choice) => records.review(userId, id, choice, now().toISOString().slice(0, 10)),
    write: async (write) => records.write(userId, write),
    // the user of a DM owns what it remembers: every past-due commitment in it is theirs to confirm
    raisable: async (ask, at) =>
      records.list(userId, at).map((r) => ({ ...r, sensitive: isSensitiveRecord(r), owner: true, named: names(ask.text, r.entity) || norm(r.entity) === norm(ask.speaker) })),
    mark: async (ids, what, date) => {
      records.mark(userId, ids, what, date);
    },
  };
}
