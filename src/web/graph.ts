/**
 * The "constellation": a project's entity pages as nodes and their labelled links as edges, from
 * the knowledge graph (through the assistant API); and the note pages as the inspector reads them.
 */
import type { ProjectsApi } from '../core/assistant-api.js';
import type { Note, PageLinks } from '../core/ports/index.js';
import { errorMessage } from '../util/error-text.js';

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

/** The project's note pages, parsed by the store; a page whose front matter does not parse is a problem, left untouched. */
export async function readNotePages(projects: ProjectsApi, slug: string): Promise<{ notes: Note[]; problems: { path: string; message: string }[] }> {
  const notes: Note[] = [];
  const problems: { path: string; message: string }[] = [];
  for (const { path } of await projects.listNotes(slug)) {
    try {
      const note = await projects.readNote(slug, path);
      if (note) notes.push(note);
    } catch (err) {
      problems.push({ path: `${slug}/notes/${path}`, message: `${errorMessage(err)}; left untouched` });
    }
  }
  return { notes, problems };
}

/**
 * Nodes and edges for the client from the knowledge graph's pages and `## Related` links (the
 * links Charlie's traversal and recall's entity hop follow); a link to a page that does not
 * exist yet becomes a ghost node.
 */
export function buildGraph(data: PageLinks): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const top = (p: { path: string; category: string }) => (p.category || (p.path.includes('/') ? p.path.slice(0, p.path.indexOf('/')) : 'Notes')).split('/')[0] ?? 'Notes';
  const nodes = new Map<string, GraphNode>(data.pages.map((p) => [`notes/${p.path}`, { id: `notes/${p.path}`, title: p.title, category: top(p), links: 0 }]));
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  for (const link of data.links) {
    const source = `notes/${link.from}`;
    let target = link.to === null ? null : `notes/${link.to}`;
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
  return { nodes: [...nodes.values()], edges };
}
