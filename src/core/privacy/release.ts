/**
 * Releasing labelled items to a hosted chat model, decided by label where the data is read: a
 * tool that reads memory for a hosted model names the sensitive items it would leave out (a fact
 * line, a whole page, an archived message, a layer entry) and asks the turn which of them their
 * person let go (core/privacy/consent-turn.ts). Everything not released is left out, as in
 * `withhold` mode; with no way to ask, nothing is released.
 */
import { isSensitiveFactLine } from '../inspector/record-view.js';
import type { ConsentItem } from './consent.js';
import { blockItem, pageSubject } from './sensitive-records.js';

/** One labelled item and the words it would send (the words never go into the question). */
export interface Releasable {
  item: ConsentItem;
  text: string;
}

/** Asks which of these items may go to the hosted model in this turn; resolves to the released ids. */
export type Release = (entries: readonly Releasable[]) => Promise<ReadonlySet<string>>;

/** Nobody can be asked: nothing is released. */
export const NO_RELEASE: Release = () => Promise.resolve(new Set());

/** The fact lines of a text labelled sensitive, each as an item of the page at `path`. */
export function factLineEntries(text: string, path: string): Releasable[] {
  const subject = pageSubject(path);
  return text
    .split('\n')
    .filter(isSensitiveFactLine)
    .map((line) => ({ item: blockItem(path, line, subject), text: line }));
}

/** `text` without the fact lines labelled sensitive that are not among the released ids. */
export function withReleasedLines(text: string, path: string, released: ReadonlySet<string>): string {
  const subject = pageSubject(path);
  return text
    .split('\n')
    .filter((line) => !isSensitiveFactLine(line) || released.has(blockItem(path, line, subject).id))
    .join('\n');
}

/** A page's text for a hosted model: its fact lines labelled sensitive are kept only when their person let them go. */
export async function releaseFactLines(text: string, path: string, release: Release): Promise<string> {
  const entries = factLineEntries(text, path);
  return entries.length ? withReleasedLines(text, path, await release(entries)) : text;
}
