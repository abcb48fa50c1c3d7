/**
 * The web app's Reminders: the same desk as `/remind` and the set_reminder tool (one phrase
 * parser), and the stream that brings a due reminder to the open page.
 *
 *   GET    /api/projects/:project/reminders              → { reminders, zone }
 *   POST   /api/projects/:project/reminders              { when, what, zone? } → { reminder, line }
 *   DELETE /api/projects/:project/reminders/:id          → { ok }
 *   POST   /api/reminders/:id/:action                    snooze | done | not-yet | drop → { line }
 *   GET    /api/reminders/events                         SSE: `reminder` events while the page is open
 *
 * A reminder set here is delivered here (`door: web`) while a page is open. The asker is the
 * signed-in person, as in the web chat: in `@me` their private place, never shown elsewhere.
 */
import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { Place } from '../core/place.js';
import { askerFor, type Asker } from '../core/time/reminder-desk.js';
import type { TimeAction } from '../core/time/outbox.js';
import type { WebEnv, WebTime } from './web-deps.js';
import type { WebUser } from './auth.js';
import { noSuchProject, requestPlace } from './places.js';
import type { AssistantApi } from '../core/assistant-api.js';
import type { WebDelivery } from './outbox.js';
import { heartbeat } from '../time/ticker.js';

const SetBody = z.object({ when: z.string().trim().min(1).max(200), what: z.string().trim().min(1).max(300), zone: z.string().max(64).optional() });
const ACTIONS: readonly TimeAction[] = ['snooze', 'done', 'not-yet', 'drop'];
const HEARTBEAT_MS = 25_000;

/** The signed-in person as an asker (the web chat's speaker id: a member's own, the owner by name). */
function asker(place: Place, user: WebUser): Asker {
  return askerFor(place, user.name, place.kind === 'private' || user.kind === 'member' ? user.id : undefined);
}

export function reminderRoutes(app: Hono<WebEnv>, deps: { assistant: Pick<AssistantApi, 'projects'>; time?: WebTime }): void {
  const time = deps.time;
  const off = (c: Context<WebEnv>) => c.json({ error: 'reminders are not running' }, 501);
  app.get('/api/projects/:project/reminders', async (c) => {
    if (!time) return off(c);
    const at = await requestPlace(c, deps.assistant.projects);
    if (!at) return noSuchProject(c);
    const who = asker(at.place, c.get('user'));
    return c.json({ reminders: time.desk.list(who).map((r) => ({ ...r, at: r.at.toISOString() })), zone: time.desk.zoneOf(who.ownerId) });
  });
  app.post('/api/projects/:project/reminders', async (c) => {
    if (!time) return off(c);
    const at = await requestPlace(c, deps.assistant.projects);
    if (!at) return noSuchProject(c);
    const body = SetBody.safeParse(await c.req.json().catch(() => null));
    if (!body.success) return c.json({ error: 'send { "when": "in 20 minutes", "what": "…" }' }, 400);
    const out = time.desk.set(asker(at.place, c.get('user')), body.data.what, body.data.when, { door: 'web', ...(body.data.zone ? { zone: body.data.zone } : {}) });
    if (!out.ok) return c.json({ error: out.error }, 422);
    return c.json({ reminder: { ...out.reminder, at: out.reminder.at.toISOString() }, line: out.line });
  });
  app.delete('/api/projects/:project/reminders/:id', async (c) => {
    if (!time) return off(c);
    const at = await requestPlace(c, deps.assistant.projects);
    if (!at) return noSuchProject(c);
    const ok = time.desk.cancel(asker(at.place, c.get('user')), c.req.param('id'));
    return ok ? c.json({ ok }) : c.json({ error: 'no such reminder here' }, 404);
  });
  app.post('/api/reminders/:id/:action', async (c) => {
    if (!time) return off(c);
    const action = ACTIONS.find((a) => a === c.req.param('action'));
    const place = time.desk.placeOf(c.req.param('id'));
    const user = c.get('user');
    // a private reminder is only its owner's to act on
    if (!action || !place || (place.kind === 'private' && place.userId !== user.id)) return c.json({ error: 'no such reminder' }, 404);
    const line = await time.desk.act(asker(place, user), c.req.param('id'), action);
    return line ? c.json({ line }) : c.json({ error: 'nothing to do for this reminder' }, 404);
  });
  app.get('/api/reminders/events', (c) => {
    if (!time) return off(c);
    const user = c.get('user');
    return streamSSE(c, async (stream) => {
      const queue: WebDelivery[] = [];
      let wake: (() => void) | null = null;
      const state = { open: true };
      const open = () => state.open;
      const stop = time.outbox.listen(user.id, (d) => {
        queue.push(d);
        wake?.();
      });
      stream.onAbort(() => {
        state.open = false;
        stop();
        wake?.();
      });
      const stopBeat = heartbeat(() => wake?.(), HEARTBEAT_MS);
      try {
        await stream.writeSSE({ event: 'ready', data: '{}' });
        while (open()) {
          const d = queue.shift();
          if (d) {
            await stream.writeSSE({ id: d.key, event: 'reminder', data: JSON.stringify(d) });
            continue;
          }
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
          if (open() && queue.length === 0) await stream.write(': keep-alive\n\n');
        }
      } finally {
        stopBeat();
        stop();
      }
    });
  });
}
