/**
 * Search of a private (DM) conversation: its distilled memory and its whole message history
 * in SQLite. DMs never enter the shared index, so this is plain term matching.
 */
import { sensitivityOf } from './egress.js';
import type { MemoryLayers, PrivateStore, RecallHit, Sensitivity } from './ports.js';

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

export function searchPrivate(store: PrivateStore, userId: string, query: string, limit: number): RecallHit[] {
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
  const messages = store
    .searchMessages(userId, terms, limit)
    .map((e) => hit(`private message ${e.time.slice(0, 16).replace('T', ' ')}`, `${e.speaker}: ${e.text}`, e.time, e.sensitivity ?? sensitivityOf(e.text)));
  return [...memory, ...messages].sort((a, b) => b.score - a.score).slice(0, limit);
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
