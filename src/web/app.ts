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
import { compress } from 'hono/compress';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { dirname, join } from 'node:path';
import { chatRoutes } from './api-chat.js';
import { projectRoutes } from './api-projects.js';
import { clientAssets } from './client-build.js';
import { memoryRoutes } from './api-memory.js';
import { ingestRoutes } from './api-ingest.js';
import { fileRoutes } from './api-files.js';
import { reviewRoutes } from './api-review.js';
import { reminderRoutes } from './api-reminders.js';
import { voiceRoutes } from './api-voice.js';
import { FailedLoginLimiter, type WebUser } from './auth.js';
import { machineRoutes } from './api-machines.js';
import { syncRoutes } from './api-sync.js';
import { clientAddress, hostGuard, originGuard, securityHeaders, type HostPolicy } from './guard.js';
import { loginPage } from './login-page.js';
import type { WebDeps, WebEnv } from './web-deps.js';
import { settingsRoutes } from './api-settings.js';
import { listening, liveSettingsRoutes } from './api-live-settings.js';
import { privacyRoutes } from './api-privacy.js';
import { TraceStore } from './trace-store.js';
import { ImageStore } from './image-store.js';
import { PRIVATE_CONVERSATION_FOLDERS, wipePrivateConversations } from './private-wipe.js';
import { conversationsDir, WebConversations } from './conversations.js';
import { TurnHub } from './turns.js';
import { guardRouteGroups } from './roles.js';
import { memberRoutes } from './api-members.js';
import { passkeyRoutes } from './passkey-routes.js';

export const SESSION_COOKIE = 'charlie_session';

export function createWebApp(deps: WebDeps, hosts: HostPolicy): { app: Hono<WebEnv>; turns: TurnHub } {
  const app = new Hono<WebEnv>();
  const turns = new TurnHub();
  const limiter = new FailedLoginLimiter();
  app.use('*', securityHeaders());
  app.use('*', hostGuard(hosts));
  app.use('*', originGuard(hosts));
  // JSON and the pages the server writes; the built files come compressed already (.br/.gz), SSE never is
  app.use('*', compress());
  app.use('/api/*', bodyLimit({ maxSize: 40 * 1024 * 1024, onError: (c) => c.json({ error: 'request too large (40 MB at most)' }, 413) }));
  app.onError((err, c) => {
    deps.logger.warn({ err, path: c.req.path }, 'web request failed');
    return c.json({ error: err.message }, 500);
  });

  app.get('/api/health', (c) => c.json({ ok: true, name: deps.assistantName, version: deps.version }));

  const clientKey = (c: Context) => {
    let peer: string | undefined;
    try {
      peer = getConnInfo(c).remote.address;
    } catch {
      peer = undefined;
    }
    return clientAddress(peer, c.req.header('x-forwarded-for'), deps.trustedProxies ?? []);
  };
  const assets = () => clientAssets(deps.clientDir);
  const TOO_MANY = 'Too many wrong tokens from here — wait 15 minutes, or use the right token or a fresh link.';
  const startSession = (c: Context, user: WebUser) => {
    const value = deps.auth.sessionValue(user);
    setCookie(c, SESSION_COOKIE, value, { httpOnly: true, sameSite: 'Strict', path: '/', maxAge: deps.auth.sessionSeconds, secure: deps.secureCookie ?? false });
    return value;
  };
  const login = (c: Context, token: string | undefined) => {
    const key = clientKey(c);
    // the token is checked first: a correct one always signs in, however many wrong ones came before
    const user = token ? deps.auth.exchange(token) : null;
    if (!user) {
      if (!token) return c.html(loginPage(assets(), deps.assistantName));
      if (limiter.blocked(key)) return c.html(loginPage(assets(), deps.assistantName, TOO_MANY), 429, { 'retry-after': '900' });
      limiter.fail(key);
      return c.html(loginPage(assets(), deps.assistantName, 'That token or link is not valid (links work once and expire after 15 minutes).'), 401);
    }
    limiter.succeed(key);
    startSession(c, user);
    deps.logger.info({ kind: user.kind }, 'web login');
    return c.redirect('/', 303);
  };
  app.get('/login', (c) => login(c, c.req.query('token')));
  app.post('/login', async (c) => {
    const form: Record<string, unknown> = await c.req.parseBody().catch(() => ({}));
    const token = form.token;
    return login(c, typeof token === 'string' ? token.trim() : undefined);
  });
  // a member's invite page and passkeys: before /api, which answers nobody without a session
  const ceremonies = passkeyRoutes(app, deps, startSession, assets);

  app.use('/api/*', async (c, next) => {
    const bearer = deps.auth.readBearer(c.req.header('authorization'));
    if (bearer === 'wrong') {
      // getConnInfo is typed for a Context<any> too
      // eslint-disable-next-line @typescript-eslint/no-unsafe-argument
      const key = clientKey(c);
      if (limiter.blocked(key)) return c.json({ error: 'too many wrong tokens from here: wait 15 minutes' }, 429, { 'retry-after': '900' });
      limiter.fail(key);
      return c.json({ error: 'that Bearer token is not the owner token' }, 401);
    }
    // getCookie is typed for a Context<any>; this one is the app's typed context
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument
    const user = bearer ?? deps.auth.readSession(getCookie(c, SESSION_COOKIE));
    if (!user) return c.json({ error: 'not signed in: open the login link Charlie printed at start (or ask for one with /web in a DM)' }, 401);
    c.set('user', user);
    await next();
  });
  app.get('/api/me', (c) => {
    const u = c.get('user');
    return c.json({
      kind: u.kind,
      role: u.role,
      name: u.name,
      assistant: deps.assistantName,
      version: deps.version,
      acceptsImages: deps.acceptsImages,
      speech: { ...listening(deps.speech, u.kind === 'owner'), tts: typeof deps.speech?.speak === 'function' },
      ...(u.kind === 'owner' && deps.toolServers ? { toolServers: deps.toolServers() } : {}),
    });
  });
  app.post('/api/logout', (c) => {
    const cookie = getCookie(c, SESSION_COOKIE);
    // a member's own sign-out leaves the owner's list of their sessions too
    const own = cookie ? deps.auth.sessionOf(cookie) : null;
    if (own) deps.members?.book.revokeSession(c.get('user').id, own.sid);
    deps.auth.endSession(cookie);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.json({ ok: true });
  });
  // who may do what: the role table's middleware on each route group (src/web/roles.ts)
  guardRouteGroups(app);
  const mcp = deps.mcpServer;
  if (mcp) {
    // MCP clients send the owner token as a Bearer header; Host and Origin were checked above
    app.all('/api/mcp', (c) => mcp.handle(c.req.raw));
  }
  app.get('/api/settings', (c) => c.json(deps.settings?.() ?? { items: [], doctor: 'not available' }));
  settingsRoutes(app, deps);
  liveSettingsRoutes(app, deps.liveSettings);
  privacyRoutes(app, deps);
  const turnsDir = deps.turnsDir ?? join(dirname(deps.clientDir), 'turns');
  const traces = new TraceStore(turnsDir);
  const archive = {
    recentLog: (slug: string, n: number) => deps.assistant.projects.recentLog(slug, n),
    recentMessages: (userId: string, n: number) => deps.assistant.private.recentMessages(userId, n),
  };
  // the web app's stores of a place's conversations sit side by side under DATA_DIR/web/; a private one's go with /private wipe
  const conversations = new WebConversations(archive, traces, conversationsDir(turnsDir));
  const images = new ImageStore(join(turnsDir, '..', PRIVATE_CONVERSATION_FOLDERS.images));
  deps.assistant.private.onWipe((userId) => wipePrivateConversations({ conversations: conversations.store, turns: traces, images }, userId));
  chatRoutes(app, deps, turns, traces, conversations, images);
  projectRoutes(app, deps);
  memoryRoutes(app, deps);
  ingestRoutes(app, deps);
  fileRoutes(app, deps);
  reviewRoutes(app, deps);
  voiceRoutes(app, deps.speech, deps.assistant.projects);
  reminderRoutes(app, deps);
  machineRoutes(app, deps);
  syncRoutes(app, deps);
  memberRoutes(app, deps, ceremonies);
  app.all('/api/*', (c) => c.json({ error: 'no such API route' }, 404));

  app.use('/*', async (c, next) => {
    await next();
    if (!c.res.ok || c.res.headers.has('cache-control')) return;
    // files under /assets/ have their content hash in their name: they never change
    c.res.headers.set('cache-control', c.req.path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
  });
  app.use('/*', serveStatic({ root: deps.clientDir, precompressed: true }));
  // an old hashed name (a page from before an update) is not found, not the app's index page
  app.get('/assets/*', (c) => c.text('not found', 404));
  app.get('*', serveStatic({ root: deps.clientDir, precompressed: true, rewriteRequestPath: () => '/index.html' }));
  return { app, turns };
}
