/** Small in-memory stand-ins shared by the memory tests: the candidate store and reflection records. */
import type { Candidate, CandidateStore } from '../../src/core/records/candidates.js';
import type { ReflectionRecord } from '../../src/core/reflection/reflect.js';

/** The promotion gate's store of waiting candidates, in memory; `items` is what it holds. */
export class MemoryCandidates implements CandidateStore {
  items: Candidate[] = [];
  list() {
    return Promise.resolve(this.items.map((c) => ({ ...c })));
  }
  replace(c: Candidate[]) {
    this.items = c;
    return Promise.resolve();
  }
}

/** A fresh, active, personal record as reflection reads it; `extra` changes any field. */
export function reflectionRecord(id: string, page: string, statement: string, extra: Partial<ReflectionRecord> = {}): ReflectionRecord {
  return {
    id,
    page,
    statement,
    category: 'preference',
    said: '2026-06-01',
    due: '',
    happened: '',
    status: 'active',
    state: 'fresh',
    manual: false,
    marked: false,
    sensitivity: 'personal',
    ...extra,
  };
}
