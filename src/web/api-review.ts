/**
 * What waits for a person, in the Memory Inspector: the review queue and the promotion
 * candidates. The same core operations as `/memory review` and `/memory candidates`.
 *
 *   GET  /api/projects/:project/review                 pairs of records that disagree (old, new)
 *   POST /api/projects/:project/review/:id             { choice: keep-new | keep-old | keep-both | hold }
 *   GET  /api/projects/:project/candidates             what the promotion gate keeps waiting, best score first
 *   POST /api/projects/:project/candidates/:key/promote   promote one now
 *   GET  /api/projects/:project/why?id=r-…|q=…         a record's provenance chain (as /memory why)
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { WebDeps, WebEnv } from './web-deps.js';
import { noSuchProject, requestPlace } from './places.js';

const choiceBody = z.object({ choice: z.enum(['keep-new', 'keep-old', 'keep-both', 'hold']) });

export function reviewRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  const at = (c: Context<WebEnv>) => requestPlace(c, deps.assistant.projects);

  app.get('/api/projects/:project/review', async (c) => {
    const where = await at(c);
    if (!where) return noSuchProject(c);
    return c.json({ pairs: await deps.assistant.memory.reviewList(where.place) });
  });

  app.post('/api/projects/:project/review/:id', async (c) => {
    const where = await at(c);
    if (!where) return noSuchProject(c);
    const body = choiceBody.safeParse(await c.req.json().catch(() => null));
    if (!body.success) return c.json({ error: 'send { "choice": "keep-new" | "keep-old" | "keep-both" | "hold" }' }, 400);
    const id = c.req.param('id');
    const done = await deps.assistant.memory.resolveReview(where.place, id, body.data.choice);
    return done ? c.json({ resolved: id, choice: body.data.choice }) : c.json({ error: `nothing in review as ${id} (already resolved?) — reload` }, 409);
  });

  app.get('/api/projects/:project/why', async (c) => {
    const where = await at(c);
    if (!where) return noSuchProject(c);
    const ids = c.req.queries('id') ?? [];
    const q = (c.req.query('q') ?? '').trim().slice(0, 500);
    if (!ids.length && !q) return c.json({ error: 'give record ids (?id=r-…) or a question (?q=…)' }, 400);
    return c.json(await deps.assistant.memory.why(where.place, ids.length ? { ids: ids.slice(0, 20) } : { query: q }));
  });

  app.get('/api/projects/:project/candidates', async (c) => {
    const where = await at(c);
    if (!where) return noSuchProject(c);
    const waiting = await deps.assistant.memory.memoryCandidates(where.place);
    return c.json({
      candidates: waiting.map((w) => ({
        key: w.key,
        entity: w.entity,
        text: w.fact.text,
        ...(w.fact.type ? { type: w.fact.type } : {}),
        source: w.fact.source,
        message: w.message,
        score: w.score,
        parts: w.parts,
        firstSeen: w.firstSeen,
        expires: w.expires,
      })),
    });
  });

  app.post('/api/projects/:project/candidates/:key/promote', async (c) => {
    const where = await at(c);
    if (!where) return noSuchProject(c);
    const key = c.req.param('key');
    return (await deps.assistant.memory.promoteCandidate(where.place, key)) ? c.json({ promoted: key }) : c.json({ error: `nothing waits as ${key} — reload` }, 409);
  });
}
