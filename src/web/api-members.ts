/**
 * The owner's members API (Settings › Members): list the household members with their passkeys
 * and sessions, invite someone (a single-use link with an expiry and a role from the role
 * table), make a new invite for a member's next device, and revoke a member, one passkey or one
 * session. Only the owner reaches these routes: their route group in roles.ts needs `settings`.
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { MembersWire, MemberWire, OwnPasskeysWire } from './shared/members.js';
import { DISCORD_ID, INVITE_HOURS, INVITE_ROLES, NotLetIn, type Member } from './members.js';
import { deviceLabel, relyingParty, type PasskeyCeremonies } from './passkeys.js';
import type { WebDeps, WebEnv } from './web-deps.js';

const inviteBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'a name is needed')
    .max(80, 'a name has at most 80 characters')
    // eslint-disable-next-line no-control-regex
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'a name is one line of text'),
  role: z.enum(INVITE_ROLES, { error: `the role is one of: ${INVITE_ROLES.join(', ')}` }),
  discordId: z
    .string()
    .trim()
    .optional()
    .transform((s) => (s ? s : undefined))
    .refine((s) => s === undefined || DISCORD_ID.test(s), 'a Discord user id is digits only (in Discord: Developer Mode, then right-click the person › Copy User ID)'),
});

function wire(m: Member, now: number): MemberWire {
  const invite = m.invites.at(-1);
  return {
    id: m.id,
    name: m.name,
    role: m.role,
    discord: m.discord,
    created: m.created,
    ...(m.revoked ? { revoked: m.revoked } : {}),
    invite: invite ? { expires: invite.expires, state: invite.used ? 'used' : Date.parse(invite.expires) < now ? 'expired' : 'open' } : null,
    passkeys: m.passkeys.map((p) => ({ id: p.id, label: p.label, created: p.created, ...(p.lastUsed ? { lastUsed: p.lastUsed } : {}), ...(p.revoked ? { revoked: p.revoked } : {}) })),
    sessions: m.sessions.filter((s) => Date.parse(s.expires) > now).map((s) => ({ id: s.sid, label: s.label, created: s.created, expires: s.expires, ...(s.revoked ? { revoked: s.revoked } : {}) })),
  };
}

/**
 * The members routes: the owner's (above) and, for any member signed in, their own passkeys —
 * list them and add one for the device they are on. A member signed in with a Discord `/web`
 * link who adds a passkey becomes a member here as that same Discord person.
 */
export function memberRoutes(app: Hono<WebEnv>, deps: WebDeps, ceremonies: PasskeyCeremonies | undefined): void {
  const members = deps.members;
  if (!members || !ceremonies) return;
  const { book } = members;
  const link = (c: Context, token: string) => `${(members.publicUrl ?? new URL(c.req.url).origin).replace(/\/$/, '')}/invite?token=${encodeURIComponent(token)}`;
  const now = () => Date.now();

  app.get('/api/members', (c) => {
    const body: MembersWire = { members: book.list().map((m) => wire(m, now())), roles: [...INVITE_ROLES], inviteHours: INVITE_HOURS };
    return c.json(body);
  });
  app.post('/api/members', async (c) => {
    const parsed = inviteBody.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return c.json({ error: parsed.error.issues[0]?.message ?? 'a name and a role are needed' }, 400);
    try {
      const { member, token, expires } = book.invite(parsed.data);
      return c.json({ member: wire(member, now()), link: link(c, token), expires }, 201);
    } catch (e) {
      if (e instanceof NotLetIn) return c.json({ error: e.message }, 409);
      throw e;
    }
  });
  app.post('/api/members/:id/invite', (c) => {
    try {
      const { token, expires } = book.reinvite(c.req.param('id'));
      return c.json({ link: link(c, token), expires });
    } catch (e) {
      if (e instanceof NotLetIn) return c.json({ error: e.message }, 404);
      throw e;
    }
  });
  app.delete('/api/members/:id', (c) => {
    const ended = book.revokeMember(c.req.param('id'));
    if (!ended) return c.json({ error: 'no such member (or already removed)' }, 404);
    for (const s of ended) deps.auth.endSessionId(s.sid, s.expires);
    return c.json({ revoked: c.req.param('id'), sessions: ended.length });
  });
  app.delete('/api/members/:id/passkeys/:passkey', (c) => {
    const ended = book.revokePasskey(c.req.param('id'), c.req.param('passkey'));
    if (!ended) return c.json({ error: 'no such passkey (or already removed)' }, 404);
    for (const s of ended) deps.auth.endSessionId(s.sid, s.expires);
    return c.json({ revoked: c.req.param('passkey'), sessions: ended.length });
  });
  app.delete('/api/members/:id/sessions/:session', (c) => {
    const ended = book.revokeSession(c.req.param('id'), c.req.param('session'));
    if (!ended) return c.json({ error: 'no such session (or already ended)' }, 404);
    deps.auth.endSessionId(ended.sid, ended.expires);
    return c.json({ revoked: ended.sid });
  });

  app.get('/api/me/passkeys', (c) => {
    const member = book.get(c.get('user').id);
    const body: OwnPasskeysWire = { passkeys: member && c.get('user').kind === 'member' ? wire(member, now()).passkeys : [] };
    return c.json(body);
  });
  app.post('/api/me/passkeys/options', async (c) => {
    const user = c.get('user');
    if (user.kind !== 'member') return c.json({ error: 'The owner signs in with the owner token: passkeys are for household members.' }, 400);
    try {
      return c.json(await ceremonies.addition(book.enroll(user), relyingParty(c.req.header('origin'), deps.assistantName)));
    } catch (e) {
      if (e instanceof NotLetIn) return c.json({ error: e.message }, 400);
      throw e;
    }
  });
  app.post('/api/me/passkeys/verify', async (c) => {
    const body: unknown = await c.req.json().catch(() => ({}));
    const { ceremony, response } = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    try {
      const made = await ceremonies.register(ceremony, response, relyingParty(c.req.header('origin'), deps.assistantName), deviceLabel(c.req.header('user-agent')), c.get('user').id);
      return c.json({ ok: true, label: made.passkey.label });
    } catch (e) {
      if (e instanceof NotLetIn) return c.json({ error: e.message }, 400);
      throw e;
    }
  });
}
