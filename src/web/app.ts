/**
 * The web front door's HTTP application (Hono): guards, login, the JSON API under /api, and the
 * built client. Hono because it is small (no dependencies), built on the web-standard
 * Request/Response (the same types the client uses), ships the pieces this needs (SSE streaming,
 * cookies, secure headers with a CSP builder, body limits, static files on Node) and is widely
 * used and actively maintained; Fastify would bring a plugin system this app does not need.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AssistantApi } from '../core/assistant-api.js';
import type { LogEntry, Logger } from '../core/ports.js';
import { chatRoutes } from './api-chat.js';
import { memoryRoutes } from './api-memory.js';
import { reviewRoutes } from './api-review.js';
import { voiceRoutes, type SpeechServices } from './api-voice.js';
import { FailedLoginLimiter, type WebAuth, type WebUser } from './auth.js';
import { hostGuard, originGuard, securityHeaders, type HostPolicy } from './guard.js';
import { loginPage } from './login-page.js';
import type { ProjectDirectory } from './places.js';
import { TurnHub } from './turns.js';

export type WebEnv = { Variables: { user: WebUser } };

export interface WebDeps {
  assistant: AssistantApi;
  projects: ProjectDirectory;
  /** The signed-in person's private (DM) history, newest last. */
  privateHistory(userId: string, limit: number): LogEntry[];
  auth: WebAuth;
  logger: Logger;
  assistantName: string;
  /** Charlie's version, shown in the app's footer. */
  version: string;
  acceptsImages: boolean;
  speech?: SpeechServices;
  /** Folder of the built client (index.html, app.js, …). */
  clientDir: string;
  /** Mark the session cookie Secure (the public URL is https). */
  secureCookie?: boolean;
  /** One line per MCP tool server, shown to the owner. */
  toolServers?: () => string[];
  /** Charlie's memory as an MCP server at /api/mcp (Streamable HTTP, owner token). */
  mcpServer?: McpEndpoint;
}

/** Charlie's memory as an MCP server (Streamable HTTP), answered at /api/mcp. */
export interface McpEndpoint {
  handle(request: Request): Promise<Response>;
}

export const SESSION_COOKIE = 'charlie_session';

export function createWebApp(deps: WebDeps, hosts: HostPolicy): { app: Hono<WebEnv>; turns: TurnHub } {
  const app = new Hono<WebEnv>();
  const turns = new TurnHub();
  const limiter = new FailedLoginLimiter();
  app.use('*', securityHeaders());
  app.use('*', hostGuard(hosts));
  app.use('*', originGuard(hosts));
  app.use('/api/*', bodyLimit({ maxSize: 40 * 1024 * 1024, onError: (c) => c.json({ error: 'request too large (40 MB at most)' }, 413) }));
  app.onError((err, c) => {
    deps.logger.warn({ err: err.message, path: c.req.path }, 'web request failed');
    return c.json({ error: err.message }, 500);
  });

  app.get('/api/health', (c) => c.json({ ok: true, name: deps.assistantName, version: deps.version }));

  const clientKey = (c: Context) => {
    try {
      return getConnInfo(c).remote.address ?? 'unknown';
    } catch {
      return 'unknown';
    }
  };
  const login = (c: Context, token: string | undefined) => {
    const key = clientKey(c);
    if (limiter.blocked(key)) return c.html(loginPage(deps.assistantName, 'Too many failed attempts — wait 15 minutes and try again.'), 429);
    const user = token ? deps.auth.exchange(token) : null;
    if (!user) {
      if (token) limiter.fail(key);
      return c.html(loginPage(deps.assistantName, token ? 'That token or link is not valid (links work once and expire after 15 minutes).' : undefined), token ? 401 : 200);
    }
    setCookie(c, SESSION_COOKIE, deps.auth.sessionValue(user), {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      maxAge: deps.auth.sessionSeconds,
      secure: deps.secureCookie ?? false,
    });
    deps.logger.info({ kind: user.kind }, 'web login');
    return c.redirect('/', 303);
  };
  app.get('/login', (c) => login(c, c.req.query('token')));
  app.post('/login', async (c) => {
    const form: Record<string, unknown> = await c.req.parseBody().catch(() => ({}));
    const token = form.token;
    return login(c, typeof token === 'string' ? token.trim() : undefined);
  });

  app.use('/api/*', async (c, next) => {
    // getCookie is typed for a Context<any>; this one is the app's typed context
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument
    const user = deps.auth.readBearer(c.req.header('authorization')) ?? deps.auth.readSession(getCookie(c, SESSION_COOKIE));
    if (!user) return c.json({ error: 'not signed in: open the login link Charlie printed at start (or ask for one with /web in a DM)' }, 401);
    c.set('user', user);
    await next();
  });
  app.get('/api/me', (c) => {
    const u = c.get('user');
    return c.json({
      kind: u.kind,
      name: u.name,
      assistant: deps.assistantName,
      version: deps.version,
      acceptsImages: deps.acceptsImages,
      speech: { stt: typeof deps.speech?.transcribe === 'function', tts: typeof deps.speech?.speak === 'function' },
      ...(u.kind === 'owner' && deps.toolServers ? { toolServers: deps.toolServers() } : {}),
    });
  });
  app.post('/api/logout', (c) => {
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.json({ ok: true });
  });
  const mcp = deps.mcpServer;
  if (mcp) {
    // MCP clients send the owner token as a Bearer header; Host and Origin were checked above
    app.all('/api/mcp', async (c) => {
      if (c.get('user').kind !== 'owner') return c.json({ error: "Charlie's memory server is for the owner's token" }, 403);
      return mcp.handle(c.req.raw);
    });
  }
  chatRoutes(app, deps, turns);
  memoryRoutes(app, deps);
  reviewRoutes(app, deps);
  voiceRoutes(app, deps.speech);
  app.all('/api/*', (c) => c.json({ error: 'no such API route' }, 404));

  app.use('/*', async (c, next) => {
    await next();
    if (c.res.ok && !c.res.headers.has('cache-control')) c.res.headers.set('cache-control', 'no-cache');
  });
  app.use('/*', serveStatic({ root: deps.clientDir }));
  app.get('*', serveStatic({ root: deps.clientDir, rewriteRequestPath: () => '/index.html' }));
  return { app, turns };
}
