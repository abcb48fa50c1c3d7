/**
 * The signed-in person's own answers to "may this go to a hosted service?" (issue 40), in the
 * web app's Settings: the same ledger as `/privacy consents` and `/privacy revoke` on the other
 * doors. Each person sees and revokes only their own grants: the user is the session's, never
 * a parameter.
 *
 *   GET  /api/privacy/consents              { mode, modeLine, consents: [{ id, item, service, answer, at, revoked?, standing }] }
 *   POST /api/privacy/consents/:id/revoke   ends one of your standing "always" answers (404 when you have none of that id)
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { consentModeLine } from '../core/privacy/consent-commands.js';
import type { ConsentGrant } from '../core/privacy/consent.js';
import { itemWire, serviceWire } from './consents.js';
import type { ConsentGrantWire, ConsentLedgerWire } from './shared/consent.js';
import type { WebDeps, WebEnv } from './web-deps.js';

const grantId = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a consent id is letters, digits, - and _') });

function grantWire(g: ConsentGrant): ConsentGrantWire {
  return {
    id: g.id,
    item: itemWire(g.item),
    service: serviceWire(g.service),
    answer: g.answer,
    at: g.at,
    ...(g.revoked ? { revoked: g.revoked } : {}),
    standing: g.answer === 'always' && !g.revoked,
  };
}

export function privacyRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  const privacy = deps.assistant.privacy;

  app.get('/api/privacy/consents', async (c) => {
    const mode = privacy.consentMode();
    const body: ConsentLedgerWire = { mode, modeLine: consentModeLine(mode), consents: (await privacy.consents(c.get('user').id)).map(grantWire) };
    return c.json(body);
  });

  app.post('/api/privacy/consents/:id/revoke', async (c) => {
    const params = grantId.safeParse({ id: c.req.param('id') });
    if (!params.success) return c.json({ error: params.error.issues.map((i) => i.message).join('; ') }, 400);
    const revoked = await privacy.revokeConsent(c.get('user').id, params.data.id);
    return revoked ? c.json({ revoked: params.data.id }) : c.json({ error: `you have no standing "always" with the id ${params.data.id}` }, 404);
  });
}
