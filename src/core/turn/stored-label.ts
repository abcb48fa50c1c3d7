/**
 * Which stored entry a text is, and its label: a reply read aloud (Read aloud in the web app,
 * the online voice) is judged by the label it was stored with, however old it is.
 */
import type { LogEntry } from '../ports/index.js';
import { isSensitive, labelOf } from '../privacy/sensitivity.js';

/**
 * How many stored entries are read to find the entry a text is (a reply read aloud): the newest
 * first, then wider, then the whole archive. There is no window at the end: a reply a year old is
 * found, with the label it was stored with.
 */
export const LABEL_LOOKBACK = [500, 5000, Number.MAX_SAFE_INTEGER] as const;
const norm = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * What the stored entries say of `text`: `sensitive` when it is part of (or holds) an entry
 * labelled sensitive, `stored` when it is part of an ordinary entry and no sensitive one was
 * read, `unknown` when no entry holds it (its origin is not known).
 */
export async function storedLabel(read: (limit: number) => Promise<LogEntry[]>, text: string, widths: readonly number[] = LABEL_LOOKBACK): Promise<'sensitive' | 'stored' | 'unknown'> {
  const t = norm(text);
  if (!t) return 'stored';
  for (const limit of widths) {
    const entries = await read(limit);
    let found = false;
    for (const e of entries) {
      const s = norm(e.text);
      if (!s) continue;
      if ((s.includes(t) || t.includes(s)) && isSensitive(labelOf(e))) return 'sensitive';
      if (s.includes(t)) found = true;
    }
    if (found) return 'stored';
    if (entries.length < limit) break;
  }
  return 'unknown';
}
