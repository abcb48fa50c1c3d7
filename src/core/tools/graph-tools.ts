/** Walking the knowledge graph: from a page to the pages it links to, with the links' labels. */
import { z } from 'zod';
import { clip, defineTool } from './tool.js';
import type { LinkedPage, PageCard } from '../ports/index.js';

function when(card: PageCard): string {
  return `updated ${card.updated.slice(0, 10) || 'unknown'}, staleness ${card.staleness}`;
}

export const followLinks = defineTool({
  name: 'follow_links',
  category: 'notes',
  projectOnly: true,
  description:
    'Follow the labelled links of a note (a person, place, employer, trip …): returns the linked pages with the link label (e.g. employer, sister), their description, when they were updated and their staleness. Depth 2 also follows the links of those pages.',
  params: z.object({
    page: z.string().min(1).max(300).describe('a note path such as People/Sarah-Chen.md, or a name such as "Sarah"'),
    label: z.string().max(60).optional().describe('only links whose label contains this, e.g. "employer"'),
    depth: z.number().int().min(1).max(2).default(1),
  }),
  async execute(args, ctx) {
    const graph = ctx.home.graph;
    if (!graph) return { content: 'the knowledge graph is not available here; use read_note', summary: 'no graph' };
    const found = await graph.follow(args.page, { depth: args.depth, ...(args.label ? { label: args.label } : {}) });
    if (!found) return { content: `no single page for "${args.page}"; use list_notes or search_notes to find it`, summary: `no page "${args.page}"` };
    const hosted = ctx.modelLocality === 'hosted';
    const line = (l: LinkedPage) => {
      const about = l.sensitivity === 'sensitive' && hosted ? '(marked sensitive: not shown to a hosted model)' : l.description || '(no description)';
      const via = l.depth > 1 ? ` via ${l.from}` : '';
      return `- ${l.label || 'related'}: ${l.title} (${l.path}${via}; ${when(l)}) — ${about}`;
    };
    const content = [`${found.start.title} (${found.start.path}; ${when(found.start)})`, ...found.linked.map(line)].join('\n');
    const hops = found.linked.map((l) => `${l.depth > 1 ? `${shortName(l.from)} → ` : ''}${l.label || 'related'}: ${l.title}`);
    return {
      content: clip(found.linked.length ? content : `${content}\n(no links${args.label ? ` labelled "${args.label}"` : ''})`),
      summary: `followed ${found.start.title}${hops.length ? ` → ${hops.join(', ')}` : ': no links'}`,
      pages: [`notes/${found.start.path}`, ...found.linked.map((l) => `notes/${l.path}`)],
    };
  },
});

function shortName(path: string): string {
  return (path.split('/').pop() ?? path).replace(/\.md$/, '').replace(/-/g, ' ');
}
