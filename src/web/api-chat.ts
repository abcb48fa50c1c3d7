/**
 * Chat over HTTP: projects, history, and a turn streamed as server-sent events. The turn runs on
 * its own (a closed tab does not cancel it); the stream can be picked up again after a reload.
 *
 *   GET  /api/projects                          projects + the private conversation
 *   POST /api/projects                          { name } → a new project made here
 *   GET  /api/projects/:project/messages        a conversation's shown branch, newest page first (?conversation=<id>&limit=1–500&before=<cursor of an older page>)
 *   POST /api/projects/:project/messages        { text, images?, mode?, conversation?, replaces? | regenerates? } → SSE of the turn
 *   (the conversations themselves, and search across them: api-conversations.ts)
 *   GET  /api/projects/:project/images?source=&n=  the `n`th image (0–3) a person sent with a message (image-store.ts)
 *   GET  /api/projects/:project/turn            the running (or just finished) turn, if any, and its conversation
 *   GET  /api/turns/:turn/events                SSE replay + live (Last-Event-ID / ?after=)
 *   POST /api/turns/:turn/cancel                stop a running turn
 *   POST /api/turns/:turn/confirm               { id, allow } → answers a `confirm` event (a tool asks first)
 *   POST /api/turns/:turn/consent               { id, answer } → answers a `consent` event (once | always | no; consents.ts)
 */
import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { TurnEvent } from '../core/turn/events.js';
import type { ToolConfirm } from '../core/tools/tool.js';
import { MODEL_CUT } from '../core/turn/tool-loop.js';
import { newProjectOrigin, placeFor, PRIVATE_PROJECT } from './places.js';
import { traceOf, type TraceStore } from './trace-store.js';
import { TurnHub, type TurnEventRecord, type WebTurn } from './turns.js';
import { WebConsents } from './consents.js';
import { CONSENT_ANSWERS } from '../core/privacy/consent.js';
import type { WebEnv, WebDeps } from './web-deps.js';
import { pageOf, pageQuery, type ChatMessage } from './history-page.js';
import { conversationRoutes } from './api-conversations.js';
import { conversationId, FIRST_CONVERSATION, sourceFor, titleFrom } from './conversation-store.js';
import type { ConversationTree } from './conversation-tree.js';
import type { WebConversations, Where } from './conversations.js';
import { errorMessage } from '../util/error-text.js';
import type { ImageStore } from './image-store.js';
import { removeSecrets } from '../core/privacy/secrets.js';

const MAX_IMAGE_CHARS = 8_000_000;

const messageBody = z.object({
  text: z.string().max(100_000),
  images: z
    .array(
      z
        .string()
        .max(MAX_IMAGE_CHARS)
        .regex(/^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/=]+$/, 'images must be data: URLs of png, jpeg, webp or gif'),
    )
    .max(4)
    .optional(),
  mode: z.enum(['text', 'voice']).optional(),
  /** Which of the place's conversations (default: the first). */
  conversation: conversationId.default(FIRST_CONVERSATION),
  /** Retry: the newest question again, as an alternative of its turn. */
  retry: z.boolean().optional(),
  /** Regenerate: the source of a turn whose question is asked again; the new answer is an alternative of it. */
  regenerates: z.string().min(1).max(300).optional(),
  /** Edit: the source of one of the person's own messages; this one is an alternative of it (a new branch). */
  replaces: z.string().min(1).max(300).optional(),
});

/**
 * Tool confirmations waiting for a button in the page: the turn pushes a `confirm` event and
 * waits; the answer (or the turn ending) settles it and pushes `confirm_done`.
 */
class WebConfirmations {
  private readonly waiting = new Map<string, (allow: boolean) => void>();

  for(turn: WebTurn, hub: TurnHub): ToolConfirm {
    return (request, signal) =>
      new Promise<boolean>((resolve) => {
        const id = randomUUID().slice(0, 8);
        const key = `${turn.id}:${id}`;
        const settle = (allow: boolean) => {
          if (!this.waiting.delete(key)) return;
          hub.push(turn, 'confirm_done', { id, allowed: allow });
          resolve(allow);
        };
        this.waiting.set(key, settle);
        signal?.addEventListener('abort', () => settle(false), { once: true });
        hub.push(turn, 'confirm', { id, server: request.server, tool: request.tool, args: request.args, reason: request.reason });
      });
  }

  answer(turnId: string, id: string, allow: boolean): boolean {
    const settle = this.waiting.get(`${turnId}:${id}`);
    settle?.(allow);
    return Boolean(settle);
  }
}

/** The turn a new message follows, or why it cannot be sent (an edit of someone else's message, a turn not in the conversation). */
function parentFor(tree: ConversationTree, body: z.infer<typeof messageBody>, speaker: string): { after: string | null; text: string } | { refused: string } {
  const named = body.replaces ?? body.regenerates ?? (body.retry ? tree.tail() : null);
  if (!named) return { after: tree.tail(), text: body.text };
  const turn = tree.turns.get(named);
  if (!turn?.user) return { refused: 'that message is not in this conversation' };
  if (body.replaces && turn.user.speaker !== speaker) return { refused: 'only your own messages can be edited' };
  return { after: turn.after, text: body.replaces ? body.text : turn.user.text };
}

export function chatRoutes(app: Hono<WebEnv>, deps: WebDeps, hub: TurnHub, traces: TraceStore, conversations: WebConversations, imageStore: ImageStore): void {
  const confirmations = new WebConfirmations();
  const consents = new WebConsents();
  conversationRoutes(app, deps, conversations);
  app.get('/api/projects', async (c) => {
    const user = c.get('user');
    const list = await deps.assistant.projects.listProjects();
    return c.json({
      user: { kind: user.kind, name: user.name },
      private: { project: PRIVATE_PROJECT, name: `Private: ${user.name}` },
      projects: list.map((p) => ({ project: p.slug, name: p.name, style: p.style, discord: Boolean(p.discord), archived: Boolean(p.archived), updated: p.updated })),
    });
  });

  app.post('/api/projects', async (c) => {
    const parsed = z.object({ name: z.string().trim().min(1).max(80) }).safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return c.json({ error: 'give the new project a name (1–80 characters)' }, 400);
    const config = await deps.assistant.projects.ensureProject(newProjectOrigin(parsed.data.name, randomUUID()));
    return c.json({ project: config.slug, name: config.name }, 201);
  });

  app.get('/api/projects/:project/messages', async (c) => {
    const at = await placeFor(c.req.param('project'), c.get('user'), deps.assistant.projects);
    if (!at) return c.json({ error: 'no such project' }, 404);
    const query = pageQuery.safeParse(c.req.query());
    if (!query.success) return c.json({ error: query.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') }, 400);
    const tree = await conversations.tree({ userId: c.get('user').id, project: c.req.param('project'), at }, query.data.conversation);
    if (!tree) return c.json({ error: 'no such conversation (it may have been deleted)' }, 404);
    const page = pageOf(tree.messages(), query.data.limit, query.data.before);
    // how many images each message was sent with: the page draws them through the images route
    const count = imageStore.counts(conversations.key({ userId: c.get('user').id, project: c.req.param('project'), at }));
    const messages = page.messages.map((m) => (m.role === 'user' && count(m.source) ? { ...m, images: count(m.source) } : m));
    return c.json({ ...page, messages: c.get('user').kind === 'owner' ? messages : messages.map(withoutErrorText) });
  });

  // an image of the place's own messages, to someone who may read the place (a private one: its person only)
  app.get('/api/projects/:project/images', async (c) => {
    const at = await placeFor(c.req.param('project'), c.get('user'), deps.assistant.projects);
    const query = z.object({ source: z.string().min(1).max(300), n: z.coerce.number().int().min(0).max(3) }).safeParse(c.req.query());
    if (!at || !query.success) return c.json({ error: 'no such image' }, 404);
    const image = imageStore.get(conversations.key({ userId: c.get('user').id, project: c.req.param('project'), at }), query.data.source, query.data.n);
    if (!image) return c.json({ error: 'no such image' }, 404);
    return c.body(new Uint8Array(image.bytes), 200, { 'content-type': image.type, 'cache-control': 'private, max-age=86400', 'x-content-type-options': 'nosniff' });
  });

  app.post('/api/projects/:project/messages', async (c) => {
    const user = c.get('user');
    const project = c.req.param('project');
    const at = await placeFor(project, user, deps.assistant.projects);
    if (!at) return c.json({ error: 'no such project' }, 404);
    const parsed = messageBody.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return c.json({ error: parsed.error.issues.map((i) => i.message).join('; ') }, 400);
    const { images, mode, conversation } = parsed.data;
    const where = { userId: user.id, project, at };
    const tree = await conversations.tree(where, conversation);
    if (!tree) return c.json({ error: 'no such conversation (it may have been deleted)' }, 404);
    const parent = parentFor(tree, parsed.data, user.name);
    if ('refused' in parent) return c.json({ error: parent.refused }, 409);
    const { after, text } = parent;
    // a member signed in through /web is a Discord user (their id names their page); the owner's web id is no Discord id
    if (!text.trim() && !images?.length) return c.json({ error: 'empty message' }, 400);
    const owner = TurnHub.owner(user.id, project);
    const turn = hub.start(owner);
    const source = sourceFor(conversation, Date.now());
    linkTurn(conversations, where, tree, conversation, source, after, text);
    if (images?.length) imageStore.add(conversations.key(where), source, images);
    hub.push(turn, 'accepted', { turnId: turn.id, project, source, conversation });
    // the model stopping at its own length limit is marked, so the page (and the kept trace) knows the reply is cut
    const onEvent = (e: TurnEvent) => hub.push(turn, e.type, e.type === 'notice' && e.text === MODEL_CUT ? { ...e, cut: true } : e);
    void deps.assistant.conversation
      .handle(
        { place: at.place, speaker: user.name, ...(user.kind === 'member' ? { speakerId: user.id } : {}), text, source, images, mode: mode ?? 'text' },
        {
          onEvent,
          signal: turn.controller.signal,
          tools: { user: { owner: user.kind === 'owner', ...(user.kind === 'member' ? { id: user.id } : {}) }, confirm: confirmations.for(turn, hub) },
          // a project is read by others; the private conversation is the person's own
          consent: consents.access(turn, hub, user, at.slug !== null),
          // the model reads this conversation's branch up to the turn it follows, not the place's other conversations
          history: (limit) => Promise.resolve(tree.historyBefore(after, limit)),
        },
      )
      .then((outcome) => hub.push(turn, 'outcome', { reply: outcome.reply, reason: outcome.reason, related: outcome.related, notices: outcome.notices }))
      .catch((err: unknown) => {
        const words = errorMessage(err);
        deps.logger.warn({ err: words }, 'web turn failed');
        hub.push(turn, 'outcome', { reply: '', reason: 'error', error: words, related: [], notices: ['the turn failed; see the log'] });
      })
      .finally(() => {
        try {
          traces.add(owner, traceOf(source, turn.events, false));
        } catch (err) {
          deps.logger.warn({ err }, 'turn trace not kept');
        }
        hub.finish(turn);
      });
    return followTurn(c, hub, turn, 0);
  });

  app.get('/api/projects/:project/turn', (c) => {
    const turn = hub.latest(TurnHub.owner(c.get('user').id, c.req.param('project')));
    // which conversation it answers in: a page of another conversation does not pick it up
    const accepted = turn?.events[0]?.data as { conversation?: unknown } | undefined;
    const conversation = typeof accepted?.conversation === 'string' ? accepted.conversation : FIRST_CONVERSATION;
    return c.json({ turn: turn ? { id: turn.id, done: turn.done, events: turn.events.length, conversation } : null });
  });

  app.get('/api/turns/:turn/events', (c) => {
    const turn = findTurn(c, hub);
    if (!turn) return c.json({ error: 'no such turn (finished turns are kept for two minutes)' }, 404);
    const after = Number(c.req.header('last-event-id') ?? c.req.query('after') ?? 0) || 0;
    return followTurn(c, hub, turn, after);
  });

  app.post('/api/turns/:turn/confirm', async (c) => {
    const turn = findTurn(c, hub);
    if (!turn) return c.json({ error: 'no such turn' }, 404);
    const body = z.object({ id: z.string().min(1).max(40), allow: z.boolean() }).safeParse(await c.req.json().catch(() => null));
    if (!body.success) return c.json({ error: 'expected { id, allow }' }, 400);
    return confirmations.answer(turn.id, body.data.id, body.data.allow) ? c.json({ ok: true }) : c.json({ error: 'that question was already answered or has expired' }, 409);
  });

  // the question is the turn's starter's to answer: another signed-in person is refused (403), not told it is gone
  app.post('/api/turns/:turn/consent', async (c) => {
    const body = z.object({ id: z.string().min(1).max(40), answer: z.enum(CONSENT_ANSWERS) }).safeParse(await c.req.json().catch(() => null));
    if (!body.success) return c.json({ error: 'expected { id, answer: "once" | "always" | "no" }' }, 400);
    const done = consents.answer(c.req.param('turn'), body.data.id, c.get('user').id, body.data.answer);
    if (done === 'not-yours') return c.json({ error: 'only the person who asked may answer this question' }, 403);
    if (done === 'gone') return findTurn(c, hub) ? c.json({ error: 'that question was already answered or has expired' }, 409) : c.json({ error: 'no such turn' }, 404);
    return c.json({ ok: true });
  });

  app.post('/api/turns/:turn/cancel', (c) => {
    const turn = findTurn(c, hub);
    if (!turn) return c.json({ error: 'no such turn' }, 404);
    turn.controller.abort();
    return c.json({ cancelled: !turn.done });
  });
}

/**
 * Links a new turn into its conversation (before it is archived); a conversation's first message
 * titles it, unless a person did. A private conversation is titled by its day instead: its messages
 * live only in private.db, and a title is kept in a file that /private wipe does not reach.
 */
function linkTurn(conversations: WebConversations, where: Where, tree: ConversationTree, conversation: string, source: string, after: string | null, text: string): void {
  const key = conversations.key(where);
  conversations.store.link(key, conversation, source, after, new Date());
  const info = conversations.read(where).list.find((x) => x.id === conversation);
  if (conversation === FIRST_CONVERSATION || tree.turns.size > 0 || !info || info.renamed) return;
  // a secret typed in it never becomes a title
  const title = where.at.slug === null ? `Conversation of ${new Date().toISOString().slice(0, 10)}` : titleFrom(removeSecrets(text).text);
  conversations.store.rename(key, conversation, title, false);
}

/**
 * The error's own text names server paths, URLs and setting names: only the owner reads it. A
 * member gets the failure's kind (and the model's own message), which the app says in plain words.
 */
function withoutErrorText(m: ChatMessage): ChatMessage {
  if (!m.trace?.error) return m;
  const { error: _error, ...trace } = m.trace;
  return { ...m, trace };
}

function memberData(event: string, data: unknown): unknown {
  if ((event !== 'turn_end' && event !== 'outcome') || !data || typeof data !== 'object') return data;
  const { error: _error, ...rest } = data as Record<string, unknown>;
  return rest;
}

function findTurn(c: Context<WebEnv>, hub: TurnHub): WebTurn | null {
  return hub.get(c.req.param('turn') ?? '', c.get('user').id);
}

function followTurn(c: Context<WebEnv>, hub: TurnHub, turn: WebTurn, after: number): Response {
  const owner = c.get('user').kind === 'owner';
  return streamSSE(c, async (stream) => {
    const queue: (TurnEventRecord | null)[] = [];
    let wake: (() => void) | null = null;
    const stop = hub.follow(turn, after, (r) => {
      queue.push(r);
      wake?.();
    });
    stream.onAbort(() => {
      stop();
      queue.push(null);
      wake?.();
    });
    try {
      for (;;) {
        const r = queue.shift();
        if (r === undefined) {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
          continue;
        }
        if (r === null) break;
        const data = owner ? r.data : memberData(r.event, r.data);
        await stream.writeSSE({ id: String(r.id), event: r.event, data: JSON.stringify(data) });
      }
      await stream.writeSSE({ event: 'end', data: JSON.stringify({ turnId: turn.id }) });
    } finally {
      stop();
    }
  });
}
