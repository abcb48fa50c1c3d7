/**
 * The Memory Inspector's list: every item Charlie remembers in one place, flattened into records
 * (summary, decisions, quotes, note pages with their front matter; facts.ts adds the typed
 * records of entity pages). The client shows whatever fields a record has.
 */
import { createHash } from 'node:crypto';
import type { MemoryLayers, Note } from '../core/ports/index.js';
import type { RecordWire, ProvenanceStep } from './shared/records.js';

export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 10);
}

export function sourceKind(source: string): string {
  if (source === 'manual') return 'manual';
  if (source.startsWith('https://discord.com/')) return 'discord';
  const m = /^([a-z]+):/.exec(source);
  return m?.[1] ?? (source ? 'other' : 'unknown');
}

function provenance(source: string, extra: ProvenanceStep[] = []): ProvenanceStep[] {
  const steps: ProvenanceStep[] = [];
  if (source) steps.push({ label: source === 'manual' ? 'edited by a person' : `from a ${sourceKind(source)} message`, ref: source });
  return [...steps, ...extra];
}

export function layerRecords(layers: MemoryLayers, inProject: boolean): RecordWire[] {
  const out: RecordWire[] = [];
  if (layers.summary.trim()) {
    out.push({
      id: `summary:0:${textHash(layers.summary)}`,
      kind: 'summary',
      text: layers.summary,
      page: inProject ? 'project.md' : null,
      category: 'summary',
      source: 'distillation',
      provenance: [{ label: 'distilled from the conversation archive', ref: inProject ? 'log/' : 'private history' }],
      status: 'active',
      editable: true,
      // the summary is rewritten by each distillation: edit it; there is nothing lasting to forget
      forgettable: false,
      holdable: false,
    });
  }
  layers.decisions.forEach((d, i) => {
    out.push({
      id: `decision:${i}:${textHash(`${d.date}\n${d.text}`)}`,
      kind: 'decision',
      text: d.text,
      page: inProject ? 'decisions.md' : null,
      date: d.date,
      category: 'decision',
      source: sourceKind(d.source),
      provenance: provenance(d.source),
      ...(d.source === 'manual' ? { confidence: 1 } : {}),
      status: 'active',
      editable: true,
      forgettable: true,
      holdable: false,
    });
  });
  layers.quotes.forEach((q, i) => {
    out.push({
      id: `quote:${i}:${textHash(`${q.date}\n${q.speaker}\n${q.text}`)}`,
      kind: 'quote',
      text: q.text,
      page: inProject ? 'quotes.md' : null,
      date: q.date,
      speaker: q.speaker,
      category: 'quote',
      source: sourceKind(q.source),
      provenance: provenance(q.source),
      ...(q.source === 'manual' ? { confidence: 1 } : {}),
      status: 'active',
      editable: true,
      forgettable: true,
      holdable: false,
    });
  });
  return out;
}

/** A note page as a record: its text, front matter and provenance. */
export function noteRecord(note: Note): RecordWire {
  const sources = note.sources ?? [];
  const first = sources[0] ?? '';
  return {
    id: `note:${note.path}`,
    kind: 'note',
    text: note.body.trim(),
    page: `notes/${note.path}`,
    title: note.title,
    date: note.updated.slice(0, 10),
    category: note.category ?? 'notes',
    source: sourceKind(first),
    provenance: sources.map((s) => ({ label: s === 'manual' ? 'edited by a person' : `from a ${sourceKind(s)} message`, ref: s })),
    confidence: note.confidence,
    sensitivity: note.sensitivity,
    status: note.status ?? 'active',
    tags: note.tags,
    editable: true,
    forgettable: true,
    holdable: false,
  };
}

/** Which layer item a record id names, checked against the current text (a stale id is refused). */
export function findLayerItem(layers: MemoryLayers, id: string): { kind: 'summary' | 'decision' | 'quote'; index: number } | null {
  const m = /^(summary|decision|quote):(\d+):([0-9a-f]{10})$/.exec(id);
  if (!m?.[1] || !m[2] || !m[3]) return null;
  const kind = m[1] as 'summary' | 'decision' | 'quote';
  const index = Number(m[2]);
  const current = layerRecords(layers, true).find((r) => r.kind === kind && r.id === id);
  return current ? { kind, index } : null;
}
