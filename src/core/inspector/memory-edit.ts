/**
 * The text form of decisions and quotes that people edit (Discord modal, terminal) and its
 * parser. An item kept as it was keeps its source; a new or changed one gets source `manual`.
 */
import type { Decision, Quote } from '../ports/index.js';

export function decisionsToText(decisions: Decision[]): string {
  return decisions.map((d) => `- ${d.date}: ${d.text}`).join('\n');
}

export function quotesToText(quotes: Quote[]): string {
  return quotes.map((q) => `- ${q.date} ${q.speaker}: "${q.text}"`).join('\n');
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function items(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').trim())
    .filter(Boolean);
}

export function decisionsFromText(text: string, previous: Decision[], today: string): Decision[] {
  return items(text).map((line) => {
    const m = /^(\d{4}-\d{2}-\d{2})\s*[:—–-]\s*(.+)$/.exec(line);
    const date = m && DATE.test(m[1]!) ? m[1]! : today;
    const body = (m ? m[2]! : line).trim();
    const same = previous.find((d) => d.text === body && d.date === date);
    return { date, text: body, source: same ? same.source : 'manual' };
  });
}

export function quotesFromText(text: string, previous: Quote[], today: string): Quote[] {
  return items(text).map((line) => {
    const m = /^(?:(\d{4}-\d{2}-\d{2})\s+)?([^:"“]{1,80}):\s*["“]?(.+?)["”]?$/.exec(line);
    const date = m?.[1] ?? today;
    const speaker = m ? m[2]!.trim() : 'unknown';
    const body = (m ? m[3]! : line).trim();
    const same = previous.find((q) => q.text === body && q.speaker === speaker && q.date === date);
    return { date, speaker, text: body, source: same ? same.source : 'manual' };
  });
}
