/**
 * A project as the web app manages it, and its conversation searched:
 *
 *   PATCH /api/projects/:project                        { name?, archived? } → rename / archive / unarchive
 *   GET   /api/projects/:project/conversation?q=words   the archive's messages holding every word, newest first
 *
 * A rename changes the display name in project.md's front matter and keeps the folder: the slug is
 * the project's address (links, the index, kept turns, bookmarks) and its keys map the Discord
 * channel, so nothing of its memory moves. Archiving only hides the project from the list.
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import type { LogEntry } from '../core/ports/index.js';
import type { WebDeps, WebEnv } from './web-deps.js';
import type { ConversationHit } from './shared/conversation.js';
import { noSuchProject, requestPlace } from './places.js';

/** How far back a conversation search reads (the archive's newest messages). */
const SEARCH_DEPTH = 5_000;
const MAX_HITS = 30;

const relabelBody = z.object({ name: z.string().max(400).optional(), archived: z.boolean().optional() }).refine((b) => b.name !== undefined || b.archived !== undefined, 'give a name or archived');

/** The messages holding every word of `query` (case-insensitive), newest first. */
export function searchConversation(entries: readonly LogEntry[], query: string, max = MAX_HITS): ConversationHit[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  const hits: ConversationHit[] = [];
  for (let i = entries.length - 1; i >= 0 && hits.length < max; i--) {
    const e = entries[i]!;
    const lower = e.text.toLowerCase();
    if (!words.every((w) => lower.includes(w))) continue;
    const at = lower.indexOf(words[0]!);
    const from = Math.max(0, at - 80);
    const snippet = `${from > 0 ? '…' : ''}${e.text.slice(from, from + 200).trim()}${from + 200 < e.text.length ? '…' : ''}`;
    hits.push({ time: e.time, speaker: e.speaker, role: e.role, source: e.source, snippet });
  }
  return hits;
}

export function projectRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.patch('/api/projects/:project', async (c) => {
    const at = await requestPlace(c, deps.assistant.projects);
    if (!at) return noSuchProject(c);
    if (!at.slug) return c.json({ error: 'the private conversation cannot be renamed or archived' }, 400);
    const body = relabelBody.safeParse(await c.req.json().catch(() => null));
    if (!body.success) return c.json({ error: 'expected { name } or { archived }' }, 400);
    try {
      const config = await deps.assistant.projects.relabelProject(at.slug, body.data);
      return c.json({ project: config.slug, name: config.name, archived: Boolean(config.archived) });
    } catch (err) {
      const words = err instanceof z.ZodError ? err.issues.map((i) => i.message).join('; ') : err instanceof Error ? err.message : String(err);
      return c.json({ error: words }, 400);
    }
  });

  app.get('/api/projects/:project/conversation', async (c) => {
    const at = await requestPlace(c, deps.assistant.projects);
    if (!at) return noSuchProject(c);
    const q = (c.req.query('q') ?? '').slice(0, 200);
    const entries = at.slug ? await deps.assistant.projects.recentLog(at.slug, SEARCH_DEPTH) : deps.assistant.private.recentMessages(c.get('user').id, SEARCH_DEPTH);
    return c.json({ hits: searchConversation(entries, q) });
  });
}
