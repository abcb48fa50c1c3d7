/**
 * Search of a private (DM) conversation: its distilled memory and its whole message history
 * in SQLite. DMs never enter the shared index, so this is plain term matching.
 */
import { isSensitive, labelOf, sensitivityOf } from '../privacy/sensitivity.js';
import type { MemoryLayers, PrivateRecord, PrivateStore, RecallHit, Sensitivity } from '../ports/index.js';
import type { PrivateDoc, PrivateRecallIndex } from './private-recall.js';
import { retrievableRecords } from './private-records.js';

const COMMON = new Set([
  'the',
  'and',
  'for',
  'you',
  'that',
  'this',
  'with',
  'what',
  'did',
  'was',
  'are',
  'about',
  'have',
  'how',
  'when',
  'who',
  'why',
  'where',
  'does',
  'can',
  'will',
  'would',
  'tell',
  'said',
  'say',
  'our',
  'your',
  'my',
  'me',
]);

/** A record as a search result shows it: entity, statement and the fields that matter to an answer. */
function recordLine(r: PrivateRecord): string {
  const fields = [
    r.category && `[type:: ${r.category}]`,
    r.due && `[due:: ${r.due}]`,
    r.happened && `[happened:: ${r.happened}]`,
    r.status === 'review' && '[status:: review]',
    `[said:: ${r.said || '?'}]`,
  ];
  return `${r.entity}: ${r.statement} ${fields.filter(Boolean).join(' ')} ^${r.id}`;
}

/**
 * The DM's distilled memory, its typed records (held and superseded ones never; each scored
 * by its effective confidence, flagged `review`, `expired` or `old`) and its message history.
 */
export function searchPrivate(store: PrivateStore, userId: string, query: string, limit: number, records: readonly PrivateRecord[] = []): RecallHit[] {
  const terms = [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w.length > 2 && !COMMON.has(w)),
    ),
  ];
  if (terms.length === 0) return [];
  const score = (text: string) => terms.filter((t) => text.toLowerCase().includes(t)).length / terms.length;
  const hit = (page: string, text: string, updated: string, sensitivity: Sensitivity = sensitivityOf(text)): RecallHit => {
    const s = score(text);
    return { page, heading: '', lineStart: 0, lineEnd: 0, text, updated, staleness: 0, score: s, parts: { vector: 0, keyword: s, usage: 0, recency: 0 }, why: ['keyword'], sensitivity };
  };
  const memory = renderLayers(store.readLayers(userId))
    .split('\n')
    .filter((line) => !line.startsWith('## ') && score(line) > 0)
    .map((line) => hit('private memory', line, ''));
  const typed = retrievableRecords(records).flatMap((r) => {
    const line = recordLine(r);
    const s = score(`${r.entity} ${r.statement}`);
    if (s === 0) return [];
    const h = hit('private record', line, r.said, isSensitive(r.sensitivity) ? 'sensitive' : 'personal');
    const flags = [r.status === 'review' ? 'review' : '', r.state === 'expired' || r.state === 'old' ? r.state : ''].filter(Boolean);
    return [{ ...h, score: s * r.effective, confidence: r.effective, why: [...h.why, ...flags] }];
  });
  const messages = store.searchMessages(userId, terms, limit).map((e) => hit(`private message ${e.time.slice(0, 16).replace('T', ' ')}`, `${e.speaker}: ${e.text}`, e.time, labelOf(e).sensitivity));
  return [...typed, ...memory, ...messages].sort((a, b) => b.score - a.score).slice(0, limit);
}

/**
 * The same passages as `searchPrivate` — typed records, lines of the distilled memory, every
 * message — ranked by the conversation's own hybrid index (keyword, local vectors, usage), so a
 * question in other words than the DM's still finds it. A record's score is then multiplied by
 * its effective confidence, as in project recall.
 */
export async function searchPrivateHybrid(store: PrivateStore, index: PrivateRecallIndex, userId: string, query: string, limit: number, records: readonly PrivateRecord[] = []): Promise<RecallHit[]> {
  const docs: PrivateDoc[] = [];
  const hits = new Map<string, (score: number, parts: RecallHit['parts']) => RecallHit>();
  const add = (key: string, text: string, make: (score: number, parts: RecallHit['parts']) => RecallHit) => {
    if (hits.has(key)) return;
    docs.push({ key, text });
    hits.set(key, make);
  };
  const base = (page: string, text: string, updated: string, sensitivity: Sensitivity, score: number, parts: RecallHit['parts']): RecallHit => {
    const why = [parts.vector > 0 ? 'vector' : '', parts.keyword > 0 ? 'keyword' : '', parts.usage > 0 ? 'usage' : ''].filter(Boolean);
    return { page, heading: '', lineStart: 0, lineEnd: 0, text, updated, staleness: 0, score, parts, why, sensitivity };
  };
  for (const r of retrievableRecords(records)) {
    const flags = [r.status === 'review' ? 'review' : '', r.state === 'expired' || r.state === 'old' ? r.state : ''].filter(Boolean);
    add(`r:${r.id}`, `${r.entity}: ${r.statement}`, (score, parts) => {
      const h = base('private record', recordLine(r), r.said, isSensitive(r.sensitivity) ? 'sensitive' : 'personal', score * r.effective, parts);
      return { ...h, confidence: r.effective, why: [...h.why, ...flags] };
    });
  }
  for (const line of renderLayers(store.readLayers(userId)).split('\n')) {
    if (!line.trim() || line.startsWith('## ') || line.startsWith('(no')) continue;
    add(`l:${line}`, line, (score, parts) => base('private memory', line, '', sensitivityOf(line), score, parts));
  }
  for (const { id, entry: e } of store.messagesSince(userId, 0)) {
    const text = `${e.speaker}: ${e.text}`;
    add(`m:${id}`, text, (score, parts) => base(`private message ${e.time.slice(0, 16).replace('T', ' ')}`, text, e.time, labelOf(e).sensitivity, score, parts));
  }
  const ranked = await index.search(userId, query, docs, limit);
  return ranked
    .flatMap((h) => {
      const make = hits.get(h.key);
      return make ? [make(h.score, { vector: h.vector, keyword: h.keyword, usage: h.usage, recency: 0 })] : [];
    })
    .sort((a, b) => b.score - a.score);
}

export function renderLayers(layers: MemoryLayers, part: 'all' | 'summary' | 'decisions' | 'quotes' = 'all'): string {
  const out: string[] = [];
  if (part === 'all' || part === 'summary') out.push(`## Summary\n${layers.summary.trim() || '(no summary yet)'}`);
  if (part === 'all' || part === 'decisions') {
    out.push(`## Key decisions\n${layers.decisions.map((d) => `- ${d.date}: ${d.text} (source: ${d.source})`).join('\n') || '(none yet)'}`);
  }
  if (part === 'all' || part === 'quotes') {
    out.push(`## Recent quotes\n${layers.quotes.map((q) => `- "${q.text}" — ${q.speaker}, ${q.date} (source: ${q.source})`).join('\n') || '(none yet)'}`);
  }
  return out.join('\n\n');
}
