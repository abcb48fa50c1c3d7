/**
 * A typed record as a front door shows it (RecordView), built in one place for both holders:
 * a page's line (the knowledge graph) and a DM's row (private.db). The holder adds only what
 * it alone knows — where the record lives, how it came, its decay now, its sensitivity.
 */
import type { RecordView } from '../ports/index.js';
import type { MemoryRecord } from './record.js';

/** The fields a typed record carries wherever it is kept. */
type RecordCore = Pick<MemoryRecord, 'id' | 'statement' | 'category' | 'confidence' | 'status' | 'said' | 'happened' | 'due' | 'vs' | 'asked' | 'raised'>;

/** What the holder of a record knows of it. */
type RecordPlace = Omit<RecordView, keyof RecordCore>;

export function toRecordView(r: RecordCore, place: RecordPlace): RecordView {
  const { sensitiveKind, ...rest } = place;
  return {
    id: r.id,
    statement: r.statement,
    category: r.category,
    confidence: r.confidence,
    status: r.status,
    said: r.said,
    happened: r.happened,
    due: r.due,
    vs: r.vs,
    asked: r.asked,
    raised: r.raised,
    ...rest,
    ...(sensitiveKind ? { sensitiveKind } : {}),
  };
}
