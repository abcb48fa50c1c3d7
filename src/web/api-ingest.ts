/**
 * Inbox progress for the web app's Inspector:
 *
 *   GET /api/projects/:project/ingest   { files: IngestProgress[] } — every big inbox file part-way
 *                                       (rows and bytes done of the total, batches, rate, time left)
 */
import type { Hono } from 'hono';
import type { WebDeps, WebEnv } from './web-deps.js';
import { noSuchProject, requestPlace } from './places.js';

export function ingestRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/api/projects/:project/ingest', async (c) => {
    const where = await requestPlace(c, deps.assistant.projects);
    if (!where) return noSuchProject(c);
    // private memory has no inbox
    const files = where.slug && deps.ingest ? await deps.ingest.status(where.slug) : [];
    return c.json({ project: c.req.param('project'), files });
  });
}
