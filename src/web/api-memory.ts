/**
 * The Memory Inspector's reads and writes, the recall playground and the graph.
 *
 *   GET    /api/projects/:project/records          every record (summary, decisions, quotes, notes) + problems
 *   PATCH  /api/projects/:project/records/:id      { text } → edited (source becomes `manual`)
 *   DELETE /api/projects/:project/records/:id      forget it (the Markdown changes on disk)
 *   GET    /api/projects/:project/pages            the project's pages (layers + notes)
 *   GET    /api/projects/:project/page?path=       one page's raw Markdown
 *   GET    /api/projects/:project/search?q=        recall hits with page, lines and score parts
 *   GET    /api/projects/:project/graph            entities (notes) and their labelled [[links]]
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { Place } from '../core/assistant-api.js';
import { CharlieError, UnsafeNameError } from '../core/errors.js';
import { decisionsToText, quotesToText } from '../core/memory-edit.js';
import type { MemoryLayers } from '../core/ports.js';
import type { WebDeps, WebEnv } from './app.js';
import { buildGraph, readNotePages } from './graph.js';
import { placeFor, type WebPlace } from './places.js';
import { factRecords } from './facts.js';
import { findLayerItem, layerRecords, noteRecord } from './records.js';
import type { MemoryRecord } from './shared/records.js';

export function memoryRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  const at = async (c: Context<WebEnv>): Promise<WebPlace | null> => placeFor(c.req.param('project') ?? '', c.get('user'), deps.projects);
  const missing = (c: Context<WebEnv>) => c.json({ error: 'no such project' }, 404);

  app.get('/api/projects/:project/records', async (c) => {
    const where = await at(c);
    if (!where) return missing(c);
    const view = await deps.assistant.showMemory(where.place);
    const records: MemoryRecord[] = layerRecords(view.layers, where.slug !== null);
    const problems = view.problems.map((p) => ({ path: p.path, line: p.line, message: p.message }));
    if (where.slug) {
      const pages = await readNotePages(deps, where.slug);
      for (const p of pages) {
        const r = noteRecord(p.path, p.markdown);
        if (r) records.push(r, ...factRecords(p.path, p.markdown, { title: p.title, category: p.category, sensitivity: r.sensitivity }));
        else problems.push({ path: `${where.slug}/notes/${p.path}`, line: undefined, message: 'front matter does not parse; left untouched' });
      }
    }
    return c.json({ project: c.req.param('project'), style: view.style, records, problems });
  });

  app.patch('/api/projects/:project/records/:id', async (c) => {
    const where = await at(c);
    if (!where) return missing(c);
    const body = z.object({ text: z.string().trim().min(1).max(20_000) }).safeParse(await c.req.json().catch(() => null));
    if (!body.success) return c.json({ error: 'send { "text": "…" } with the new text' }, 400);
    const id = c.req.param('id');
    if (id.startsWith('note:')) return c.json({ error: 'a note page is edited as a file (open it in projects/); per-fact editing comes with typed records' }, 409);
    return editLayer(c, deps, where.place, id, body.data.text);
  });

  app.delete('/api/projects/:project/records/:id', async (c) => {
    const where = await at(c);
    if (!where) return missing(c);
    const id = c.req.param('id');
    if (id.startsWith('note:')) {
      const gone = await deps.assistant.forgetNote(where.place, id.slice(5));
      return gone ? c.json({ forgotten: id }) : c.json({ error: 'no such note' }, 404);
    }
    return editLayer(c, deps, where.place, id, null);
  });

  app.get('/api/projects/:project/pages', async (c) => {
    const where = await at(c);
    if (!where) return missing(c);
    if (!where.slug) return c.json({ pages: [] });
    const notes = await deps.assistant.listNotes(where.place);
    const layers = ['project.md', 'decisions.md', 'quotes.md'].map((page) => ({ page, title: page.replace('.md', ''), aliases: [] as string[] }));
    const pages = await readNotePages(deps, where.slug);
    const aliases = new Map(pages.map((p) => [p.path, p.aliases]));
    return c.json({ pages: [...layers, ...notes.map((n) => ({ page: `notes/${n.path}`, title: n.title, aliases: aliases.get(n.path) ?? [] }))] });
  });

  app.get('/api/projects/:project/page', async (c) => {
    const where = await at(c);
    if (!where) return missing(c);
    if (!where.slug) return c.json({ error: 'private memory has no pages: it lives in SQLite only' }, 404);
    const path = c.req.query('path') ?? '';
    try {
      const markdown = await deps.projects.readPage(where.slug, path);
      if (markdown === null) return c.json({ error: `no page ${path}` }, 404);
      return c.json({ path, markdown });
    } catch (err) {
      if (err instanceof UnsafeNameError) return c.json({ error: err.message }, 400);
      throw err;
    }
  });

  app.get('/api/projects/:project/search', async (c) => {
    const where = await at(c);
    if (!where) return missing(c);
    const q = (c.req.query('q') ?? '').trim().slice(0, 500);
    if (!q) return c.json({ error: 'give a query: ?q=…' }, 400);
    const limit = Math.min(Math.max(Number(c.req.query('limit') ?? 8) || 8, 1), 50);
    const started = performance.now();
    const hits = await deps.assistant.searchMemory(where.place, q, limit);
    return c.json({ query: q, ms: Math.round(performance.now() - started), hits });
  });

  app.get('/api/projects/:project/graph', async (c) => {
    const where = await at(c);
    if (!where) return missing(c);
    if (!where.slug) return c.json({ nodes: [], edges: [] });
    return c.json(buildGraph(await readNotePages(deps, where.slug)));
  });
}

async function editLayer(c: Context<WebEnv>, deps: WebDeps, place: Place, id: string, text: string | null): Promise<Response> {
  const view = await deps.assistant.showMemory(place);
  const item = findLayerItem(view.layers, id);
  if (!item) return c.json({ error: 'this item changed or is gone since the list was loaded — reload' }, 409);
  const layers: MemoryLayers = view.layers;
  const one = text?.replace(/\s*\n\s*/g, ' ') ?? null;
  try {
    if (item.kind === 'summary') await deps.assistant.editMemory(place, { summary: text ?? '' });
    else if (item.kind === 'decision') {
      const list = layers.decisions.flatMap((d, i) => (i !== item.index ? [d] : one === null ? [] : [{ ...d, text: one }]));
      await deps.assistant.editMemory(place, { decisions: decisionsToText(list) });
    } else {
      const list = layers.quotes.flatMap((q, i) => (i !== item.index ? [q] : one === null ? [] : [{ ...q, text: one }]));
      await deps.assistant.editMemory(place, { quotes: quotesToText(list) });
    }
  } catch (err) {
    if (err instanceof CharlieError) return c.json({ error: err.message }, 409);
    throw err;
  }
  return c.json(text === null ? { forgotten: id } : { edited: id });
}
