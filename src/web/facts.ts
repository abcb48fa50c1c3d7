/**
 * The typed records of entity pages (`## Facts` lines) as Memory Inspector records. They come
 * from the core's assistant API (the knowledge graph reads them with their defaults, provenance,
 * hand edits and decay), so the inspector shows exactly what retrieval and the memory lane see.
 */
import type { RecordView } from '../core/ports/index.js';
import { PRIVATE_PROJECT } from './places.js';
import type { RecordWire } from './shared/records.js';

export function factRecords(views: readonly RecordView[]): RecordWire[] {
  return views.map((r) => {
    const source = r.provenance.source
      ? { label: r.provenance.kind === 'manual' ? 'written or changed by a person' : `from ${r.provenance.kind}`, ref: r.provenance.source }
      : { label: r.handEdited ? 'written or changed by a person' : 'no source recorded', ref: r.provenance.kind };
    const typed = r.id !== '';
    // a private conversation's record lives in private.db: no page, held and reviewed but edited and forgotten from the DM
    const onPage = r.page !== '';
    return {
      id: `fact:${onPage ? r.page : PRIVATE_PROJECT}:${r.id || r.line}`,
      kind: 'fact',
      text: r.statement,
      page: onPage ? `notes/${r.page}` : null,
      title: r.pageTitle,
      ...(r.said ? { date: r.said } : {}),
      category: r.category || r.pageCategory,
      source: r.provenance.kind,
      provenance: onPage ? [source, { label: 'kept on the page', ref: `notes/${r.page}:${r.line}` }] : [source],
      confidence: r.confidence,
      effective: r.effective,
      decay: r.decay,
      sensitivity: r.sensitiveKind ? `${r.sensitivity}/${r.sensitiveKind}` : r.sensitivity,
      status: r.status,
      ...(r.due ? { due: r.due } : {}),
      ...(r.happened ? { happened: r.happened } : {}),
      ...(typed ? { blockId: r.id } : {}),
      line: r.line,
      handEdited: r.handEdited,
      editable: typed && onPage,
      forgettable: typed && onPage,
      holdable: typed && r.status !== 'superseded',
    };
  });
}

/** The block id and page of a fact record's id (`fact:People/Ann.md:r-1a2b3c`), or null. */
export function factTarget(id: string): { path: string; blockId: string } | null {
  const m = /^fact:(.+):(r-[\w-]+)$/.exec(id);
  return m?.[1] && m[2] ? { path: m[1], blockId: m[2] } : null;
}
