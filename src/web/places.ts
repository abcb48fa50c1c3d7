/**
 * The web app's names for places: a project by its folder name (slug), and `@me` for the signed-in
 * person's private conversation (their DM memory, which never leaves SQLite). This is the only
 * file of the web front door that builds the core's `Place`.
 */
import type { Place } from '../core/place.js';
import type { ProjectOrigin } from '../core/ports/index.js';
import type { Context } from 'hono';
import type { WebEnv } from './web-deps.js';
import type { ProjectsApi } from '../core/assistant-api.js';
import type { WebUser } from './auth.js';
import { projectOrigin } from '../core/project-origin.js';

export const PRIVATE_PROJECT = '@me';

export type WebPlace = { place: Place; slug: string | null };

const SLUG = /^[a-z0-9][a-z0-9._-]{0,99}$/i;

/** The place a URL's `:project` names for this user, or null when there is no such project. */
export async function placeFor(project: string, user: WebUser, projects: Pick<ProjectsApi, 'getProject'>): Promise<WebPlace | null> {
  if (project === PRIVATE_PROJECT) return { place: { kind: 'private', userId: user.id, userName: user.name }, slug: null };
  if (!SLUG.test(project)) return null;
  const found = await projects.getProject(project);
  if (!found) return null;
  const { config } = found;
  return { place: { kind: 'project', origin: projectOrigin(config, 'web') }, slug: config.slug };
}

/** The place a request's `:project` names for its signed-in user; null (answer 404) when there is none. */
export function requestPlace(c: Context<WebEnv>, projects: Pick<ProjectsApi, 'getProject'>): Promise<WebPlace | null> {
  return placeFor(c.req.param('project') ?? '', c.get('user'), projects);
}

export const noSuchProject = (c: Context<WebEnv>) => c.json({ error: 'no such project' }, 404);

/** A new project made in the web app, keyed so that it never collides with a Discord channel. */
export function newProjectOrigin(name: string, id: string): ProjectOrigin {
  return { name, key: `web:${id}` };
}
