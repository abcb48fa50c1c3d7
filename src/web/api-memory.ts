/**
 * The Memory Inspector's reads and writes, the recall playground and the graph.
 *
 *   GET    /api/projects/:project/records          every record (summary, decisions, quotes, notes, typed facts) + problems
 *   PATCH  /api/projects/:project/records/:id      { text } → edited (provenance `manual`, confidence 1)
 *   DELETE /api/projects/:project/records/:id      forget it, with a tombstone in forgotten.md (as /memory forget)
 *   POST   /api/projects/:project/records/:id/hold     keep a typed record out of answers (as /memory hold)
 *   POST   /api/projects/:project/records/:id/release  make a held record active again
 *   GET    /api/projects/:project/pages            the project's pages (layers + notes)
 *   GET    /api/projects/:project/page?path=       one page's raw Markdown
 *   GET    /api/projects/:project/search?q=        recall hits with page, lines and score parts
 *   GET    /api/projects/:project/graph            entity pages and their labelled `## Related` links
 *   GET    /api/projects/:project/versions?page=   kept earlier versions of a note page (reflection's `.history/`)
 *   POST   /api/projects/:project/restore          { page, version? } → that version written back (as /memory restore)
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { Place } from '../core/place.js';
import { CharlieError, UnsafeNameError } from '../core/errors.js';
import { decisionsToText, quotesToText } from '../core/inspector/memory-edit.js';
import type { MemoryLayers } from '../core/ports/index.js';
import type { ForgetTarget } from '../core/inspector/tombstone-types.js';
import type { WebDeps, WebEnv } from './web-deps.js';
import { buildGraph, readNotePages } from './graph.js';
import { noSuchProject, requestPlace } from './places.js';
import { factRecords, factTarget } from './facts.js';
import { findLayerItem, layerRecords, noteRecord } from './records.js';
import type { RecordWire } from './shared/records.js';

export function memoryRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  const at = (c: Context<WebEnv>) => requestPlace(c, deps.assistant.projects);

  app.get('/api/projects/:project/records', async (c) => {
    const where = await at(c);
    if (!where) return noSuchProject(c);
    const view = await deps.assistant.settings.showMemory(where.place);
    const records: RecordWire[] = layerRecords(view.layers, where.slug !== null);
    const problems = view.problems.map((p) => ({ path: p.path, line: p.line, message: p.message }));
    if (where.slug) {
      const pages = await readNotePages(deps.assistant.projects, where.slug);
      records.push(...pages.notes.map(noteRecord));
      problems.push(...pages.problems.map((p) => ({ ...p, line: undefined })));
    }
    records.push(...factRecords(await deps.assistant.memory.records(where.place)));
    return c.json({ project: c.req.param('project'), style: view.style, records, problems });
  });

  app.patch('/api/projects/:project/records/:id', async (c) => {
    const where = await at(c);
    if (!where) return noSuchProject(c);
    const body = z.object({ text: z.string().trim().min(1).max(20_000) }).safeParse(await c.req.json().catch(() => null));
    if (!body.success) return c.json({ error: 'send { "text": "…" } with the new text' }, 400);
    const id = c.req.param('id');
    const fact = factTarget(id);
    if (fact) return (await deps.assistant.memory.editRecord(where.place, fact.blockId, body.data.text)) ? c.json({ edited: id }) : gone(c);
    if (id.startsWith('note:')) return (await deps.assistant.memory.editNotePage(where.place, id.slice(5), body.data.text)) ? c.json({ edited: id }) : gone(c);
    return editLayer(c, deps, where.place, id, body.data.text);
  });

  app.delete('/api/projects/:project/records/:id', async (c) => {
    const where = await at(c);
    if (!where) return noSuchProject(c);
    const id = c.req.param('id');
    try {
      const target = await forgetTarget(deps, where.place, id);
      if (!target) return gone(c);
      const out = await deps.assistant.memory.forget(where.place, target, c.get('user').name);
      return out.forgotten ? c.json({ forgotten: id, description: out.description }) : gone(c);
    } catch (err) {
      // `note:../../x` or `fact:…` naming a path outside projects/: the caller's mistake, not ours
      if (err instanceof UnsafeNameError) return c.json({ error: err.message }, 400);
      throw err;
    }
  });

  for (const [action, choice] of [
    ['hold', 'hold'],
    ['release', 'keep-both'],
  ] as const) {
    app.post(`/api/projects/:project/records/:id/${action}`, async (c) => {
      const where = await at(c);
      if (!where) return noSuchProject(c);
      const fact = factTarget(c.req.param('id'));
      if (!fact) return c.json({ error: 'only typed records (facts of an entity page) can be held' }, 400);
      return (await deps.assistant.memory.resolveReview(where.place, fact.blockId, choice)) ? c.json({ [action === 'hold' ? 'held' : 'released']: fact.blockId }) : gone(c);
    });
  }

  app.get('/api/projects/:project/pages', async (c) => {
    const where = await at(c);
    if (!where) return noSuchProject(c);
    if (!where.slug) return c.json({ pages: [] });
    const notes = await deps.assistant.memory.listNotes(where.place);
    const layers = ['project.md', 'decisions.md', 'quotes.md'].map((page) => ({ page, title: page.replace('.md', ''), aliases: [] as string[] }));
    const { notes: pages } = await readNotePages(deps.assistant.projects, where.slug);
    const aliases = new Map(pages.map((p) => [p.path, p.aliases]));
    return c.json({ pages: [...layers, ...notes.map((n) => ({ page: `notes/${n.path}`, title: n.title, aliases: aliases.get(n.path) ?? [] }))] });
  });

  app.get('/api/projects/:project/page', async (c) => {
    const where = await at(c);
    if (!where) return noSuchProject(c);
    if (!where.slug) return c.json({ error: 'private memory has no pages: it lives in SQLite only' }, 404);
    const path = c.req.query('path') ?? '';
    try {
      const markdown = await deps.assistant.projects.readPage(where.slug, path);
      if (markdown === null) return c.json({ error: `no page ${path}` }, 404);
      return c.json({ path, markdown });
    } catch (err) {
      if (err instanceof UnsafeNameError) return c.json({ error: err.message }, 400);
      throw err;
    }
  });

  app.get('/api/projects/:project/versions', async (c) => {
    const where = await at(c);
    if (!where) return noSuchProject(c);
    const page = c.req.query('page')?.replace(/^notes\//, '');
    return c.json({ versions: await deps.assistant.memory.pageVersions(where.place, page || undefined) });
  });

  app.post('/api/projects/:project/restore', async (c) => {
    const where = await at(c);
    if (!where) return noSuchProject(c);
    const body = z.object({ page: z.string().trim().min(1).max(500), version: z.string().trim().max(100).optional() }).safeParse(await c.req.json().catch(() => null));
    if (!body.success) return c.json({ error: 'send { "page": "People/Sarah-Chen.md", "version": "…" }' }, 400);
    // a name outside notes/ never throws: restore answers with a reason ("… is not a page name")
    const out = await deps.assistant.memory.restorePage(where.place, body.data.page, body.data.version || undefined);
    return out.ok ? c.json(out) : c.json({ error: out.reason }, 404);
  });

  app.get('/api/projects/:project/search', async (c) => {
    const where = await at(c);
    if (!where) return noSuchProject(c);
    const q = (c.req.query('q') ?? '').trim().slice(0, 500);
    if (!q) return c.json({ error: 'give a query: ?q=…' }, 400);
    const limit = Math.min(Math.max(Number(c.req.query('limit') ?? 8) || 8, 1), 50);
    const started = performance.now();
    const hits = await deps.assistant.memory.searchMemory(where.place, q, limit);
    return c.json({ query: q, ms: Math.round(performance.now() - started), hits });
  });

  app.get('/api/projects/:project/graph', async (c) => {
    const where = await at(c);
    if (!where) return noSuchProject(c);
    if (!where.slug) return c.json({ nodes: [], edges: [] });
    const links = await deps.assistant.memory.pageLinks(where.place);
    return c.json(links ? buildGraph(links) : { nodes: [], edges: [] });
  });
}

const gone = (c: Context<WebEnv>) => c.json({ error: 'this item changed or is gone since the list was loaded — reload' }, 409);

/** The core's forget target for an inspector record id (the same targets /memory forget names). */
async function forgetTarget(deps: WebDeps, place: Place, id: string): Promise<ForgetTarget | null> {
  const fact = factTarget(id);
  if (fact) return { kind: 'record', path: fact.path, id: fact.blockId };
  if (id.startsWith('note:')) return { kind: 'note', path: id.slice(5) };
  const item = findLayerItem((await deps.assistant.settings.showMemory(place)).layers, id);
  return item && item.kind !== 'summary' ? { kind: item.kind, index: item.index + 1 } : null;
}

async function editLayer(c: Context<WebEnv>, deps: WebDeps, place: Place, id: string, text: string): Promise<Response> {
  const view = await deps.assistant.settings.showMemory(place);
  const item = findLayerItem(view.layers, id);
  if (!item) return gone(c);
  const layers: MemoryLayers = view.layers;
  const one = text.replace(/\s*\n\s*/g, ' ');
  try {
    if (item.kind === 'summary') await deps.assistant.settings.editMemory(place, { summary: text });
    else if (item.kind === 'decision') {
      const list = layers.decisions.map((d, i) => (i !== item.index ? d : { ...d, text: one }));
      await deps.assistant.settings.editMemory(place, { decisions: decisionsToText(list) });
    } else {
      const list = layers.quotes.map((q, i) => (i !== item.index ? q : { ...q, text: one }));
      await deps.assistant.settings.editMemory(place, { quotes: quotesToText(list) });
    }
  } catch (err) {
    if (err instanceof CharlieError) return c.json({ error: err.message }, 409);
    throw err;
  }
  return c.json({ edited: id });
}
