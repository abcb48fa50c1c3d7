/**
 * A place's conversations over HTTP (conversations.ts), and search across them:
 *
 *   GET    /api/projects/:project/conversations                 the conversations, the first one first, then the most recent
 *   POST   /api/projects/:project/conversations                 → a new, empty conversation (201)
 *   PATCH  /api/projects/:project/conversations/:id             { title } → renamed
 *   DELETE /api/projects/:project/conversations/:id             → gone from the app (the first one cannot be deleted)
 *   POST   /api/projects/:project/conversations/:id/choose      { source } → that alternative is the one shown
 *   GET    /api/projects/:project/conversations/search?q=words  messages of every conversation holding every word, newest first
 *
 * Deleting a conversation takes it out of the app: its list entry, its messages in the chat and in
 * search. The archive keeps what was said (it is Charlie's record of the place, shared with
 * Discord and the terminal), and facts already learnt from it stay until they are forgotten
 * (Memory › Forget); docs/web-app.md says so, and so does the app before deleting.
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { searchConversation } from './api-projects.js';
import { FIRST_CONVERSATION, type ConversationInfo } from './conversation-store.js';
import { conversationOf } from './conversation-tree.js';
import type { WebConversations, Where } from './conversations.js';
import { noSuchProject, requestPlace } from './places.js';
import type { WebDeps, WebEnv } from './web-deps.js';
import type { ConversationSearchHit } from './shared/conversation.js';

const title = z.object({ title: z.string().trim().min(1, 'give the conversation a title (1–120 characters)').max(120, 'a title has at most 120 characters') });
const choice = z.object({ source: z.string().min(1).max(300) });
const MAX_HITS = 40;

/** The request's place and the conversation its `:id` names (null: answer 404). */
export async function whereOf(c: Context<WebEnv>, deps: WebDeps): Promise<Where | null> {
  const at = await requestPlace(c, deps.assistant.projects);
  return at ? { userId: c.get('user').id, project: c.req.param('project') ?? '', at } : null;
}

const wire = (c: ConversationInfo & { messages?: number }) => ({ id: c.id, title: c.title, renamed: c.renamed, updated: c.updated, messages: c.messages ?? 0, first: c.id === FIRST_CONVERSATION });

export function conversationRoutes(app: Hono<WebEnv>, deps: WebDeps, conversations: WebConversations): void {
  const named = async (c: Context<WebEnv>): Promise<{ w: Where; id: string } | Response> => {
    const w = await whereOf(c, deps);
    if (!w) return noSuchProject(c);
    const id = c.req.param('id') ?? '';
    if (!conversations.read(w).list.some((x) => x.id === id)) return c.json({ error: 'no such conversation (it may have been deleted)' }, 404);
    return { w, id };
  };

  app.get('/api/projects/:project/conversations', async (c) => {
    const w = await whereOf(c, deps);
    if (!w) return noSuchProject(c);
    return c.json({ conversations: (await conversations.list(w)).map(wire) });
  });

  app.post('/api/projects/:project/conversations', async (c) => {
    const w = await whereOf(c, deps);
    if (!w) return noSuchProject(c);
    return c.json(wire(conversations.store.create(conversations.key(w), new Date())), 201);
  });

  app.patch('/api/projects/:project/conversations/:id', async (c) => {
    const got = await named(c);
    if (got instanceof Response) return got;
    const body = title.safeParse(await c.req.json().catch(() => null));
    if (!body.success) return c.json({ error: body.error.issues.map((i) => i.message).join('; ') }, 400);
    conversations.store.rename(conversations.key(got.w), got.id, body.data.title.replace(/\s+/g, ' '));
    return c.json({ id: got.id, title: body.data.title.replace(/\s+/g, ' ') });
  });

  app.delete('/api/projects/:project/conversations/:id', async (c) => {
    const got = await named(c);
    if (got instanceof Response) return got;
    if (got.id === FIRST_CONVERSATION) return c.json({ error: 'the first conversation is shared with Discord and the terminal: it can be renamed, not deleted' }, 400);
    const place = conversations.read(got.w);
    const messages = (await conversations.entries(got.w)).filter((e) => conversationOf(e.source, place) === got.id).length;
    conversations.store.delete(conversations.key(got.w), got.id, new Date());
    return c.json({ deleted: got.id, messages });
  });

  app.post('/api/projects/:project/conversations/:id/choose', async (c) => {
    const got = await named(c);
    if (got instanceof Response) return got;
    const body = choice.safeParse(await c.req.json().catch(() => null));
    if (!body.success) return c.json({ error: 'expected { source }' }, 400);
    const tree = await conversations.tree(got.w, got.id);
    if (!tree?.turns.has(body.data.source)) return c.json({ error: 'no such message in this conversation' }, 404);
    conversations.store.choose(conversations.key(got.w), body.data.source);
    return c.json({ ok: true });
  });

  app.get('/api/projects/:project/conversations/search', async (c) => {
    const w = await whereOf(c, deps);
    if (!w) return noSuchProject(c);
    const q = (c.req.query('q') ?? '').slice(0, 200);
    const place = conversations.read(w);
    const titles = new Map(place.list.map((x) => [x.id, x.title]));
    const entries = (await conversations.entries(w)).filter((e) => titles.has(conversationOf(e.source, place)));
    // a regenerated answer asks its question again: the same words in a conversation are one hit (the newest)
    const seen = new Set<string>();
    const hits: ConversationSearchHit[] = [];
    for (const hit of searchConversation(entries, q, MAX_HITS * 2)) {
      const id = conversationOf(hit.source, place);
      const key = `${id}\u0000${hit.role}\u0000${hit.snippet}`;
      if (seen.has(key) || hits.length >= MAX_HITS) continue;
      seen.add(key);
      hits.push({ ...hit, conversation: id, title: titles.get(id) ?? '' });
    }
    return c.json({ hits });
  });
}
