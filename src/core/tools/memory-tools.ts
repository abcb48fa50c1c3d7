/** Tools over the three memory layers and recall. */
import { z } from 'zod';
import { clip, defineTool, type ToolContext } from './tool.js';
import type { MemoryLayers, PrivateStore, RecallHit } from '../ports.js';

const COMMON = new Set(['the', 'and', 'for', 'you', 'that', 'this', 'with', 'what', 'did', 'was', 'are', 'about', 'have', 'how', 'when', 'who', 'why', 'where', 'does', 'can', 'will', 'would', 'tell', 'said', 'say', 'our', 'your', 'my', 'me']);

/**
 * Search of a private (DM) conversation: its distilled memory and its whole message history
 * in SQLite. DMs never enter the shared index, so this is plain term matching.
 */
export function searchPrivate(store: PrivateStore, userId: string, query: string, limit: number): RecallHit[] {
  const terms = [...new Set(query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2 && !COMMON.has(w)))];
  if (terms.length === 0) return [];
  const score = (text: string) => terms.filter((t) => text.toLowerCase().includes(t)).length / terms.length;
  const hit = (page: string, text: string, updated: string): RecallHit => {
    const s = score(text);
    return { page, heading: '', lineStart: 0, lineEnd: 0, text, updated, staleness: 0, score: s, parts: { vector: 0, keyword: s, usage: 0, recency: 0 }, why: ['keyword'] };
  };
  const memory = renderLayers(store.readLayers(userId))
    .split('\n')
    .filter((line) => !line.startsWith('## ') && score(line) > 0)
    .map((line) => hit('private memory', line, ''));
  const messages = store.searchMessages(userId, terms, limit).map((e) => hit(`private message ${e.time.slice(0, 16).replace('T', ' ')}`, `${e.speaker}: ${e.text}`, e.time));
  return [...memory, ...messages].sort((a, b) => b.score - a.score).slice(0, limit);
}

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
      const hits = ctx.privateStore ? searchPrivate(ctx.privateStore, ctx.scope.userId, args.query, args.limit) : [];
      const content = hits.map((h) => `[${h.page}] ${h.text}`).join('\n');
      return { content: clip(content || 'nothing found'), summary: `${hits.length} hits for "${args.query}" in this private conversation` };
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
