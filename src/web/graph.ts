/**
 * The "constellation": a project's entity pages as nodes and their `[[links]]` as labelled edges,
 * read from the page Markdown itself (so the `## Related` sections the knowledge graph writes
 * show up without any other index). Links to pages that do not exist become ghost nodes.
 */
import { parseNote } from '../memory/notes/note-format.js';
import type { WebDeps } from './app.js';
import { LinkResolver, wikiLinks } from './shared/links.js';

export interface NotePage {
  /** Relative to notes/. */
  path: string;
  title: string;
  aliases: string[];
  category: string;
  markdown: string;
}

export interface GraphNode {
  id: string;
  title: string;
  category: string;
  links: number;
  missing?: boolean;
}

export interface GraphEdge {
  source: string;
  target: string;
  label?: string;
}

export async function readNotePages(deps: Pick<WebDeps, 'projects'>, slug: string): Promise<NotePage[]> {
  const out: NotePage[] = [];
  const list = await deps.projects.listNotes(slug);
  for (const { path } of list) {
    const markdown = await deps.projects.readPage(slug, `notes/${path}`);
    if (markdown === null) continue;
    const parsed = parseNote(markdown, path, `notes/${path}`);
    const top = path.includes('/') ? path.slice(0, path.indexOf('/')) : 'Notes';
    if (!parsed.ok) out.push({ path, title: path, aliases: [], category: top, markdown });
    else out.push({ path, title: parsed.note.title, aliases: parsed.note.aliases, category: (parsed.note.category ?? top).split('/')[0] ?? top, markdown });
  }
  return out;
}

export function buildGraph(pages: readonly NotePage[]): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const resolver = new LinkResolver(pages.map((p) => ({ page: `notes/${p.path}`, title: p.title, aliases: p.aliases })));
  const nodes = new Map<string, GraphNode>(pages.map((p) => [`notes/${p.path}`, { id: `notes/${p.path}`, title: p.title, category: p.category, links: 0 }]));
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  for (const p of pages) {
    const source = `notes/${p.path}`;
    for (const link of wikiLinks(p.markdown)) {
      let target = resolver.resolve(link.target);
      if (!target) {
        target = `missing:${link.target.toLowerCase()}`;
        if (!nodes.has(target)) nodes.set(target, { id: target, title: link.target, category: 'missing', links: 0, missing: true });
      }
      if (target === source) continue;
      const key = `${source}\u0000${target}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push({ source, target, ...(link.label ? { label: link.label } : {}) });
      const a = nodes.get(source);
      const b = nodes.get(target);
      if (a) a.links++;
      if (b) b.links++;
    }
  }
  return { nodes: [...nodes.values()], edges };
}
