/**
 * Tokenising for keyword search and the built-in embedder: lower-case words, stop words
 * removed, Porter-stemmed; plus picking the few meaningful terms of a query.
 */
import { stemmer } from 'stemmer';
import { STOP_WORDS } from './stop-words.js';

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** Lower-cased words of `text`, apostrophes normalised, possessive 's dropped. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const w = m[0].replace(/’/g, "'").replace(/'s$/, '');
    if (w) out.push(w);
  }
  return out;
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word) || (word.length === 1 && !/\d/.test(word));
}

export function stem(word: string): string {
  return /^\d+$/.test(word) || word.includes("'") ? word : stemmer(word);
}

/** Words of `text` without stop words, stemmed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) if (!isStopWord(w)) out.push(stem(w));
  return out;
}

/**
 * The meaningful words of a query, stop words removed, at most `max`, longest (rarest-looking)
 * kept first when there are too many, original order preserved. Unstemmed, so they can be
 * handed to a full-text engine that stems on its own.
 */
export function keyTerms(query: string, max = 8): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const w of words(query)) {
    if (isStopWord(w)) continue;
    const s = stem(w);
    if (seen.has(s)) continue;
    seen.add(s);
    kept.push(w.replace(/'/g, ''));
  }
  if (kept.length <= max) return kept;
  const chosen = new Set([...kept].sort((a, b) => b.length - a.length).slice(0, max));
  return kept.filter((w) => chosen.has(w));
}
