/** Reading the links of a snapshot: a page's neighbours (1–2 hops), the link map recall hops along, the graph view. */
import type { LinkedPage, PageCard, PageLinks } from '../../core/ports/index.js';
import type { WikiPage } from './page.js';
import type { WikiSnapshot } from './wiki-pages.js';

function card(p: WikiPage): PageCard {
  return {
    path: p.path,
    title: p.title,
    aliases: p.aliases,
    category: p.category,
    description: p.description,
    updated: p.updated,
    staleness: p.staleness,
    sensitivity: p.sensitivity,
    ...(p.discordId ? { discordId: p.discordId } : {}),
  };
}

/** Pages linked from `start` (path or name), only links whose label matches at the first hop, 1–2 hops. */
export function follow(snap: WikiSnapshot, start: string, options: { label?: string; depth: number }): { start: PageCard; linked: LinkedPage[] } | null {
  const first = snap.target(start) ?? snap.resolver.resolve(start);
  const page = first ? snap.pages.get(first) : undefined;
  if (!page) return null;
  const depth = Math.max(1, Math.min(2, Math.floor(options.depth)));
  const label = options.label?.trim().toLowerCase();
  const linked: LinkedPage[] = [];
  const seen = new Set([page.path]);
  let frontier = [page];
  for (let d = 1; d <= depth; d++) {
    const next: WikiPage[] = [];
    for (const from of frontier) {
      for (const l of from.links) {
        if (d === 1 && label && !l.label.toLowerCase().includes(label)) continue;
        const path = snap.target(l.target);
        const to = path ? snap.pages.get(path) : undefined;
        if (!to || seen.has(to.path)) continue;
        seen.add(to.path);
        linked.push({ ...card(to), label: l.label, from: from.path, depth: d });
        next.push(to);
      }
    }
    frontier = next;
  }
  return { start: card(page), linked };
}

/** Page → pages it links to (paths relative to the project folder). */
export function linkMap(snap: WikiSnapshot): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of snap.pages.values()) {
    const targets = p.links.map((l) => snap.target(l.target)).filter((t): t is string => t !== null);
    if (targets.length)
      out.set(
        `notes/${p.path}`,
        targets.map((t) => `notes/${t}`),
      );
  }
  return out;
}

/** The pages and their `## Related` links. */
export function pageLinks(snap: WikiSnapshot): PageLinks {
  const pages = [...snap.pages.values()];
  return {
    pages: pages.map((p) => ({ path: p.path, title: p.title, category: p.category, sensitivity: p.sensitivity })),
    links: pages.flatMap((p) => p.links.map((l) => ({ from: p.path, to: snap.target(l.target), target: l.target, label: l.label }))),
  };
}
