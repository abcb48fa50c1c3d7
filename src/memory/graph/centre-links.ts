/**
 * You at the centre: a record the graph writer puts on a page links to the centre page of every
 * person who talks to Charlie that it names (but the page's own person)
 * (`[person:: [[Users/Ann/USER]]]`), so "Tom is Ann's brother" on Tom's page leads to Ann. Names are
 * the centre page's title and aliases, matched as whole words (any case, "Ann's" too).
 */
import type { GraphFact } from '../../core/ports/index.js';

export interface CentrePage {
  /** `Users/Ann/USER.md`. */
  path: string;
  names: readonly string[];
}

export const isCentrePath = (path: string) => /(?:^|\/)USER\.md$/.test(path);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function mentions(text: string, name: string): boolean {
  const n = name.trim().replace(/\s+/g, ' ');
  if (n.length < 2) return false;
  return new RegExp(`(?<![\\p{L}\\p{N}])${escape(n).replace(/ /g, '\\s+')}(?![\\p{L}\\p{N}])`, 'iu').test(text);
}

/** The centre pages (as link targets, `Users/Ann/USER`) a statement names, in a stable order. */
export function namedCentres(text: string, centres: readonly CentrePage[]): string[] {
  return centres
    .filter((c) => c.names.some((n) => mentions(text, n)))
    .map((c) => c.path.replace(/\.md$/, ''))
    .sort();
}

/** Sets `person` on each fact that names someone with a centre page (other than the page's own person). */
export function linkFactsToCentres(pagePath: string, facts: GraphFact[], centres: readonly CentrePage[]): void {
  const others = centres.filter((c) => c.path !== pagePath);
  if (others.length === 0) return;
  for (const f of facts) {
    const people = namedCentres(f.text, others);
    if (people.length) f.person = people;
  }
}
