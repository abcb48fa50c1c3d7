/**
 * A record's id (`r-…`, an Obsidian block id), the same rule for entity pages and a DM's rows:
 * stable, derived from where the record lives (page path, or user and entity) and its
 * statement as first written. A statement that no longer hashes to its id was edited by a person.
 */
import { createHash } from 'node:crypto';

export function blockIdFor(page: string, text: string): string {
  return `r-${createHash('sha1').update(`${page}\n${text}`).digest('hex').slice(0, 6)}`;
}
