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
  for (const p of snap.pages.values()) linkEntry(out, snap, p);
  return out;
}

function linkEntry(out: Map<string, string[]>, snap: WikiSnapshot, p: WikiPage): void {
  const targets = p.links.map((l) => snap.target(l.target)).filter((t): t is string => t !== null);
  if (targets.length)
    out.set(
      `notes/${p.path}`,
      targets.map((t) => `notes/${t}`),
    );
  else out.delete(`notes/${p.path}`);
}

/**
 * The link map of `snap` from the one of `prev`, when `snap` is `prev` with some pages read again
 * and the same names (wiki-pages.ts's patched snapshot: the same link targets): only the pages
 * that changed are resolved again, in `prev`'s map itself, where building it whole resolved every
 * link of every page after each hand edit (and copying it cost a map of every page). When `snap`
 * says which pages it read again since `prev`, only those are looked at; otherwise each page is
 * compared with `prev`'s by identity. Null when the names may differ.
 */
export function linkMapAfter(prev: { snap: WikiSnapshot; links: Map<string, string[]> }, snap: WikiSnapshot): Map<string, string[]> | null {
  if (prev.snap.target !== snap.target || prev.snap.pages.size !== snap.pages.size) return null;
  const out = prev.links;
  if (snap.patch?.of === prev.snap.serial) {
    for (const path of snap.patch.paths) {
      const page = snap.pages.get(path);
      if (page) linkEntry(out, snap, page);
    }
    return out;
  }
  for (const [path, page] of snap.pages) if (prev.snap.pages.get(path) !== page) linkEntry(out, snap, page);
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
