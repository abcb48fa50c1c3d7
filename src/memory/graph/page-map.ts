/**
 * The page map handed to the memory writer before it writes anything, built in plain code:
 * pages named in the new messages, the speakers' own pages, then the most relevant others by
 * recall — bounded in size however large the wiki grows.
 */
import type { PageMapEntry, PageMapRequest } from '../../core/ports/index.js';
import type { WikiPage } from './page.js';
import type { EntityResolver } from './resolver.js';

export const PAGE_MAP_LIMIT = 40;

export function buildPageMap(pages: ReadonlyMap<string, WikiPage>, resolver: EntityResolver, request: PageMapRequest): PageMapEntry[] {
  const limit = Math.max(1, Math.min(request.limit ?? PAGE_MAP_LIMIT, 200));
  const out: PageMapEntry[] = [];
  const seen = new Set<string>();
  const add = (path: string | null, why: PageMapEntry['why']) => {
    if (!path || seen.has(path) || out.length >= limit) return;
    const page = pages.get(path);
    if (!page) return;
    seen.add(path);
    out.push({
      path: page.path,
      title: page.title,
      aliases: page.aliases,
      category: page.category,
      description: page.description,
      updated: page.updated,
      staleness: page.staleness,
      sensitivity: page.sensitivity,
      ...(page.discordId ? { discordId: page.discordId } : {}),
      why,
    });
  };
  for (const s of request.speakers) add(resolver.resolve(s.name, s.discordId), 'speaker');
  for (const text of request.texts) for (const path of resolver.mentions(text)) add(path, 'named');
  for (const path of request.related ?? []) add(path.replace(/^notes\//, ''), 'related');
  return out;
}
