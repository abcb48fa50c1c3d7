/**
 * The web app's machines: the same book as `/machines` (core/machines/machine-book.ts).
 *
 *   GET  /api/projects/:project/machines                     → { machines } (logins with the signed-in person's badges, never a secret)
 *   POST /api/projects/:project/machines/:machine/:action    revoke | forget | forget-key → { line }
 *
 * The asker is the signed-in person, as in the web chat: a badge and a revoke are about their own
 * vault entries only.
 */
import type { Context, Hono } from 'hono';
import type { Place } from '../core/place.js';
import { machinesCommand, type MachineBook } from '../core/machines/machine-book.js';
import { askerFor, type Asker } from '../core/time/reminder-desk.js';
import type { WebEnv } from './web-deps.js';
import type { WebUser } from './auth.js';
import { noSuchProject, requestPlace } from './places.js';
import type { AssistantApi } from '../core/assistant-api.js';

const ACTIONS = new Set(['revoke', 'forget', 'forget-key']);

function asker(place: Place, user: WebUser): Asker {
  return askerFor(place, user.name, place.kind === 'private' || user.kind === 'member' ? user.id : undefined);
}

export function machineRoutes(app: Hono<WebEnv>, deps: { assistant: Pick<AssistantApi, 'projects'>; machines?: MachineBook }): void {
  const book = deps.machines;
  const off = (c: Context<WebEnv>) => c.json({ error: 'machines (SSH) are off here (SSH_ENABLED=false)' }, 501);
  app.get('/api/projects/:project/machines', async (c) => {
    if (!book) return off(c);
    const at = await requestPlace(c, deps.assistant.projects);
    if (!at) return noSuchProject(c);
    return c.json({ machines: await book.list(at.place, asker(at.place, c.get('user'))) });
  });
  app.post('/api/projects/:project/machines/:machine/:action', async (c) => {
    if (!book) return off(c);
    const action = c.req.param('action');
    if (!ACTIONS.has(action)) return c.json({ error: 'the action is one of revoke, forget, forget-key' }, 400);
    const at = await requestPlace(c, deps.assistant.projects);
    if (!at) return noSuchProject(c);
    const name = c.req.param('machine').slice(0, 80);
    return c.json({ line: await machinesCommand(`${action} ${name}`, book, at.place, asker(at.place, c.get('user'))) });
  });
}
