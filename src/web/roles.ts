/**
 * The role table (src/core/roles.ts) on the web API, the Hono way: one middleware per route
 * group, so no handler checks a role inline and a route added to a group is guarded by it.
 * The groups name what their routes do; a person's own private conversation (`@me`) is theirs,
 * as a DM is on Discord, so only Charlie's settings stay the owner's there.
 */
import type { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { may, refusal, type Action } from '../core/roles.js';
import type { WebEnv } from './web-deps.js';
import { PRIVATE_PROJECT } from './places.js';

/** Lets the request on only when the signed-in person's role may do every one of `actions`. */
export function requireRole(...actions: Action[]) {
  return createMiddleware<WebEnv>(async (c, next) => {
    const own = c.req.param('project') === PRIVATE_PROJECT && !actions.includes('settings');
    const denied = own ? undefined : actions.find((a) => !may(c.get('user').role, a));
    if (denied) return c.json({ error: refusal(denied) }, 403);
    await next();
  });
}

/** Which requests do what, by route group: the one place the web API maps its routes onto the table. */
export const WEB_ROUTE_GROUPS: { action: Action; methods: string[]; paths: string[] }[] = [
  {
    action: 'edit-memory',
    methods: ['PATCH', 'DELETE', 'POST', 'PUT'],
    paths: [
      '/api/projects/:project/records/*',
      '/api/projects/:project/restore',
      '/api/projects/:project/review/*',
      '/api/projects/:project/candidates/*',
      // revoke a login, forget a machine or its host key: they change the shared machine page (as /machines remove on Discord)
      '/api/projects/:project/machines/*',
    ],
  },
  // the body says which (a name or archived): both need the same roles
  { action: 'rename-project', methods: ['PATCH'], paths: ['/api/projects/:project'] },
  { action: 'archive-project', methods: ['PATCH'], paths: ['/api/projects/:project'] },
  { action: 'project-settings', methods: ['GET', 'PUT'], paths: ['/api/settings/projects', '/api/settings/projects/*'] },
  { action: 'settings', methods: ['GET', 'POST'], paths: ['/api/settings', '/api/settings/checks', '/api/sync', '/api/sync/*'] },
  // GET /api/settings/live is everyone's (read-only, without server addresses for a member)
  { action: 'settings', methods: ['PUT'], paths: ['/api/settings/live/*'] },
  { action: 'settings', methods: ['GET', 'POST', 'DELETE'], paths: ['/api/mcp'] },
];

/** Puts each group's middleware in front of its routes (call before the routes are registered). */
export function guardRouteGroups(app: Hono<WebEnv>): void {
  for (const g of WEB_ROUTE_GROUPS) app.on(g.methods, g.paths, requireRole(g.action));
}
