/**
 * The routes a household member uses before they are signed in, so outside /api (which answers
 * nobody without a session): the invite page, making a passkey for an invite, and signing in
 * with a passkey. Each answers what went wrong in plain words (an expired or used invite, a
 * passkey not known here, a device the owner removed).
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { WebUser } from './auth.js';
import type { ClientAssets } from './client-build.js';
import { invitePage } from './invite-page.js';
import { NotLetIn, type Member, type Passkey } from './members.js';
import { deviceLabel, PasskeyCeremonies, relyingParty } from './passkeys.js';
import type { WebDeps, WebEnv } from './web-deps.js';

/** Starts a session for `user` (the session cookie) and returns the cookie's value. */
export type StartSession = (c: Context, user: WebUser) => string;

export const memberUser = (m: Member): WebUser => ({ kind: 'member', id: m.id, name: m.name, role: m.role });

const bodyOf = async (c: Context): Promise<Record<string, unknown>> => {
  const body: unknown = await c.req.json().catch(() => ({}));
  return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
};

/** A session for a member who just proved their passkey, listed on their row for the owner. */
function signIn(c: Context, deps: WebDeps, startSession: StartSession, done: { member: Member; passkey: Passkey; counter: number }): Response {
  const { member, passkey, counter } = done;
  const value = startSession(c, memberUser(member));
  const facts = deps.auth.sessionOf(value);
  if (facts) deps.members?.book.signedIn(member, passkey, counter, { sid: facts.sid, expires: new Date(facts.exp).toISOString(), label: deviceLabel(c.req.header('user-agent')) });
  return c.json({ ok: true, name: member.name });
}

/** The routes before a session; returns the ceremonies, which a signed-in member's own routes share (api-members.ts). */
export function passkeyRoutes(app: Hono<WebEnv>, deps: WebDeps, startSession: StartSession, assets: () => ClientAssets): PasskeyCeremonies | undefined {
  const book = deps.members?.book;
  if (!book) return undefined;
  const ceremonies = new PasskeyCeremonies(book);
  // outside /api, so its body limit does not cover these: a passkey's answer is a few kilobytes
  app.use('/auth/*', bodyLimit({ maxSize: 64 * 1024, onError: (c) => c.json({ error: 'request too large' }, 413) }));
  const rp = (c: Context) => relyingParty(c.req.header('origin'), deps.assistantName);
  const refuse = (c: Context, e: unknown, status: 400 | 401) => {
    if (e instanceof NotLetIn) return c.json({ error: e.message }, status);
    throw e;
  };

  app.get('/invite', (c) => {
    try {
      const member = book.openInvite(c.req.query('token') ?? '');
      return c.html(invitePage(assets(), deps.assistantName, { name: member.name }));
    } catch (e) {
      if (e instanceof NotLetIn) return c.html(invitePage(assets(), deps.assistantName, { error: e.message }), 410);
      throw e;
    }
  });
  app.post('/auth/invite/options', async (c) => {
    const body = await bodyOf(c);
    try {
      return c.json(await ceremonies.registration(typeof body.token === 'string' ? body.token : '', rp(c)));
    } catch (e) {
      return refuse(c, e, 400);
    }
  });
  app.post('/auth/invite/verify', async (c) => {
    const body = await bodyOf(c);
    try {
      const made = await ceremonies.register(body.ceremony, body.response, rp(c), deviceLabel(c.req.header('user-agent')));
      deps.logger.info({ kind: 'member' }, 'web passkey made');
      return signIn(c, deps, startSession, made);
    } catch (e) {
      return refuse(c, e, 400);
    }
  });
  app.post('/auth/passkey/options', async (c) => {
    try {
      return c.json(await ceremonies.authentication(rp(c)));
    } catch (e) {
      return refuse(c, e, 400);
    }
  });
  app.post('/auth/passkey/verify', async (c) => {
    const body = await bodyOf(c);
    try {
      const done = await ceremonies.signIn(body.ceremony, body.response, rp(c));
      deps.logger.info({ kind: 'member' }, 'web passkey sign-in');
      return signIn(c, deps, startSession, done);
    } catch (e) {
      return refuse(c, e, 401);
    }
  });
  return ceremonies;
}
