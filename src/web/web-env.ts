/**
 * The Hono environment every web route sees: the signed-in person. In a file of its own so a route
 * file that web-deps.ts names a port of (api-live-settings.ts) imports it without a cycle.
 */
import type { WebUser } from './auth.js';

export type WebEnv = { Variables: { user: WebUser } };
