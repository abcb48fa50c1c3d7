/** Tools over the three memory layers and recall. */
import { z } from 'zod';
import { renderLayers } from '../private/private-search.js';
import { recordIds } from '../inspector/record-view.js';
import type { RecallHit } from '../ports/index.js';
import { clip, defineTool } from './tool.js';
import { foundItem, releasableLayers } from '../privacy/sensitive-records.js';
import { mayGo } from '../privacy/sensitivity.js';
import { factLineEntries, NO_RELEASE, withReleasedLines, type Release } from '../privacy/release.js';

/** The hits a hosted model may read: labelled passages and fact lines only where their person let them go (one question). */
async function releasedHits(found: RecallHit[], release: Release): Promise<RecallHit[]> {
  const labelled = (h: RecallHit) => !mayGo(h.sensitivity ? { sensitivity: h.sensitivity } : null, 'hosted');
  const path = (h: RecallHit) => h.page.replace(/^notes\//, '');
  const entries = found.flatMap((h) => (labelled(h) ? [{ item: foundItem(h.page, h.text), text: h.text }] : factLineEntries(h.text, path(h))));
  const ok = entries.length ? await release(entries) : new Set<string>();
  return found
    .filter((h) => !labelled(h) || ok.has(foundItem(h.page, h.text).id))
    .map((h) => (labelled(h) ? h : { ...h, text: withReleasedLines(h.text, path(h), ok) }))
    .filter((h) => h.text.trim());
}

function where(h: RecallHit): string {
  const lines = h.lineStart > 0 ? `:${h.lineStart}-${h.lineEnd}` : '';
  return `${h.page}${lines}${h.heading ? ` § ${h.heading}` : ''}`;
}

/** When the passage was last updated and how fast its kind of information goes stale. */
function age(h: RecallHit): string {
  return h.updated ? `updated ${h.updated.slice(0, 10)}, staleness ${h.staleness}/10; ` : '';
}

/** What the answer must say about a passage's records: they disagree, or a commitment is past due. */
function caveats(h: RecallHit): string {
  const notes: string[] = [];
  if (h.why.includes('review')) notes.push('records marked [status:: review] disagree with each other: if you use them, say that they disagree and that the user can settle it with /memory review');
  if (h.why.includes('expired')) notes.push('a commitment here is past its due date: ask once whether it happened');
  return notes.length ? `\nNOTE: ${notes.join('; ')}.` : '';
}

export const readMemory = defineTool({
  name: 'read_memory',
  category: 'memory',
  description: "Read this project's distilled memory: the summary, the key decisions, and recent meaningful quotes.",
  params: z.object({
    part: z.enum(['all', 'summary', 'decisions', 'quotes']).default('all').describe('which layer to read'),
  }),
  async execute(args, ctx) {
    const { layers: all } = await ctx.home.layers();
    const layers = releasableLayers(all, ctx.modelLocality);
    return {
      content: clip(renderLayers(layers, args.part)),
      summary: `read ${args.part === 'all' ? 'memory' : args.part}: ${layers.decisions.length} decisions, ${layers.quotes.length} quotes`,
      pages: ctx.home.layerPages,
    };
  },
});

export const searchMemory = defineTool({
  name: 'search_memory',
  category: 'memory',
  description:
    'Search everything this project remembers (notes, decisions, quotes, the conversation archive) for a query. Returns the best matching passages with their page, lines, when they were updated and their staleness (0 = never goes stale, 10 = stale within a day).',
  params: z.object({
    query: z.string().min(1).max(500).describe('what to look for, in a few words'),
    limit: z.number().int().min(1).max(20).default(6),
  }),
  async execute(args, ctx) {
    const found = await ctx.home.search(args.query, args.limit);
    // for a hosted model: a passage labelled sensitive (a page, a block, an archived message) is left out, and so
    // are its fact lines labelled sensitive, unless their person let them go (asked in the moment); an empty passage is dropped
    const hits = ctx.modelLocality === 'hosted' ? await releasedHits(found, ctx.release ?? NO_RELEASE) : found;
    const content = hits
      .map((h) => `[${where(h)}] (${age(h)}score ${h.score.toFixed(2)}; ${h.confidence !== undefined ? `confidence ${h.confidence.toFixed(2)}; ` : ''}${h.why.join('+')})${caveats(h)}\n${h.text}`)
      .join('\n\n');
    const pages = ctx.home.private ? [] : [...new Set(hits.map((h) => h.page))];
    const records = ctx.home.private ? [] : recordIds(hits.map((h) => h.text).join('\n'));
    return { content: clip(content || 'nothing found'), summary: `${hits.length} ${hits.length === 1 ? 'hit' : 'hits'} for "${args.query}"`, pages, hits: hits.length, records };
  },
});
