/** Tools over the three memory layers and recall. */
import { z } from 'zod';
import { clip, defineTool, type ToolContext } from './tool.js';
import type { MemoryLayers } from '../ports.js';

async function layersFor(ctx: ToolContext): Promise<MemoryLayers> {
  if (ctx.scope.kind === 'private') {
    if (!ctx.privateStore) return { summary: '', decisions: [], quotes: [] };
    return ctx.privateStore.readLayers(ctx.scope.userId);
  }
  return (await ctx.store.readLayers(ctx.scope.slug)).layers;
}

export function renderLayers(layers: MemoryLayers, part: 'all' | 'summary' | 'decisions' | 'quotes' = 'all'): string {
  const out: string[] = [];
  if (part === 'all' || part === 'summary') out.push(`## Summary\n${layers.summary.trim() || '(no summary yet)'}`);
  if (part === 'all' || part === 'decisions') {
    out.push(
      `## Key decisions\n${layers.decisions.map((d) => `- ${d.date}: ${d.text} (source: ${d.source})`).join('\n') || '(none yet)'}`,
    );
  }
  if (part === 'all' || part === 'quotes') {
    out.push(`## Recent quotes\n${layers.quotes.map((q) => `- "${q.text}" — ${q.speaker}, ${q.date} (source: ${q.source})`).join('\n') || '(none yet)'}`);
  }
  return out.join('\n\n');
}

export const readMemory = defineTool({
  name: 'read_memory',
  category: 'memory',
  description: "Read this project's distilled memory: the summary, the key decisions, and recent meaningful quotes.",
  params: z.object({
    part: z.enum(['all', 'summary', 'decisions', 'quotes']).default('all').describe('which layer to read'),
  }),
  async execute(args, ctx) {
    const layers = await layersFor(ctx);
    const pages = ctx.scope.kind === 'project' ? ['project.md', 'decisions.md', 'quotes.md'] : [];
    return {
      content: clip(renderLayers(layers, args.part)),
      summary: `read ${args.part === 'all' ? 'memory' : args.part}: ${layers.decisions.length} decisions, ${layers.quotes.length} quotes`,
      pages,
    };
  },
});

export const searchMemory = defineTool({
  name: 'search_memory',
  category: 'memory',
  description:
    'Search everything this project remembers (notes, decisions, quotes, the conversation archive) for a query. Returns the best matching passages with their page and lines.',
  params: z.object({
    query: z.string().min(1).max(500).describe('what to look for, in a few words'),
    limit: z.number().int().min(1).max(20).default(6),
  }),
  async execute(args, ctx) {
    if (ctx.scope.kind === 'private') {
      const layers = await layersFor(ctx);
      const words = args.query.toLowerCase().split(/\W+/).filter((w) => w.length > 2);
      const lines = renderLayers(layers).split('\n').filter((l) => words.some((w) => l.toLowerCase().includes(w)));
      return { content: lines.join('\n') || 'nothing found', summary: `${lines.length} hits for "${args.query}" in private memory` };
    }
    if (ctx.recall) {
      const hits = await ctx.recall.recall(args.query, { project: ctx.scope.slug, limit: args.limit });
      const content = hits
        .map((h) => `[${h.page}:${h.lineStart}-${h.lineEnd}${h.heading ? ` § ${h.heading}` : ''}] (score ${h.score.toFixed(2)}; ${h.why.join('+')})\n${h.text}`)
        .join('\n\n');
      const pages = [...new Set(hits.map((h) => h.page))];
      return { content: clip(content || 'nothing found'), summary: `${hits.length} hits for "${args.query}"`, pages };
    }
    const hits = await ctx.store.grepNotes(ctx.scope.slug, args.query, args.limit);
    const pages = [...new Set(hits.map((h) => `notes/${h.path}`))];
    return {
      content: clip(hits.map((h) => `[notes/${h.path}:${h.line}] ${h.text}`).join('\n') || 'nothing found'),
      summary: `${hits.length} hits for "${args.query}"`,
      pages,
    };
  },
});
