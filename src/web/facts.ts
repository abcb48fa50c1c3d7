/**
 * The typed records of an entity page (`## Facts` lines) as Memory Inspector records. The line is
 * read by the graph's parser and given its meaning by src/memory/records (defaults, provenance,
 * hand edits), so the inspector shows exactly what retrieval and the memory lane see.
 */
import { parseFactLine } from '../memory/graph/lines.js';
import { readRecord, type Sensitivity } from '../memory/records/record.js';
import type { MemoryRecord } from './shared/records.js';

export function factRecords(path: string, markdown: string, page: { title: string; category: string; sensitivity?: string }): MemoryRecord[] {
  const out: MemoryRecord[] = [];
  const sensitivity: Sensitivity = page.sensitivity === 'public' || page.sensitivity === 'sensitive' ? page.sensitivity : 'personal';
  let section = '';
  markdown.split(/\r?\n/).forEach((raw, i) => {
    const heading = /^##\s+(.+?)\s*$/.exec(raw);
    if (heading) {
      section = heading[1]?.toLowerCase() ?? '';
      return;
    }
    if (section !== 'facts') return;
    const fact = parseFactLine(raw, i + 1);
    if (!fact) return;
    const r = readRecord(path, fact, { sensitivity });
    const steps = [
      r.provenance.source
        ? { label: r.provenance.kind === 'manual' ? 'written or changed by a person' : `from ${r.provenance.kind}`, ref: r.provenance.source }
        : { label: r.handEdited ? 'written or changed by a person' : 'no source recorded', ref: r.provenance.kind },
      { label: 'kept on the page', ref: `notes/${path}:${r.line}` },
    ];
    out.push({
      id: `fact:${path}:${r.id || r.line}`,
      kind: 'fact',
      text: r.statement,
      page: `notes/${path}`,
      title: page.title,
      ...(r.said ? { date: r.said } : {}),
      category: r.category || page.category,
      source: r.provenance.kind,
      provenance: steps,
      confidence: r.confidence,
      sensitivity: r.sensitiveKind ? `${r.sensitivity}/${r.sensitiveKind}` : r.sensitivity,
      status: r.status,
      ...(r.due ? { due: r.due } : {}),
      ...(r.happened ? { happened: r.happened } : {}),
      ...(r.id ? { blockId: r.id } : {}),
      line: r.line,
      handEdited: r.handEdited,
      editable: false,
      forgettable: false,
      holdable: false,
    });
  });
  return out;
}
