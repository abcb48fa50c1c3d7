/**
 * The conversation as the web app shows it, one page at a time (the shown branch of a
 * conversation, conversation-tree.ts), newest page first. A page's `before` is a cursor to the
 * page older than it, or null at the start of the conversation.
 *
 * The cursor names the oldest message of the page (its time, source and role), not a count: the
 * log is append-only, so a message keeps its place while new messages arrive during paging.
 */
import { z } from 'zod';
import type { TurnTrace } from './trace-store.js';
import { conversationId, FIRST_CONVERSATION } from './conversation-store.js';

export interface ChatMessage {
  time: string;
  speaker: string;
  role: 'user' | 'assistant';
  text: string;
  source: string;
  /** How many images the person sent with it (served by `GET /api/projects/:p/images`). */
  images?: number;
  trace?: { calls: TurnTrace['calls']; related: string[]; reason: string; error?: string; failure?: TurnTrace['failure']; cut?: string };
}

type Entry = Omit<ChatMessage, 'trace'>;

const anchor = z.object({ t: z.string().max(40), s: z.string().max(300), r: z.enum(['user', 'assistant']) });
type Anchor = z.infer<typeof anchor>;

/** The query of `GET …/messages`: `conversation` (default the first), `limit` (1–500, default 50) and `before` (a cursor from an earlier page). */
export const pageQuery = z.object({
  conversation: conversationId.default(FIRST_CONVERSATION),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: z
    .string()
    .max(600)
    .regex(/^[A-Za-z0-9_-]+$/, 'before must be a cursor from an earlier page')
    .transform((s, ctx) => {
      try {
        return anchor.parse(JSON.parse(Buffer.from(s, 'base64url').toString('utf8')));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'before must be a cursor from an earlier page' });
        return z.NEVER;
      }
    })
    .optional(),
});

function cursorOf(e: Entry): string {
  return Buffer.from(JSON.stringify({ t: e.time, s: e.source, r: e.role } satisfies Anchor), 'utf8').toString('base64url');
}

function findAnchor(entries: readonly Entry[], a: Anchor): number {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e?.time === a.t && e.source === a.s && e.role === a.r) return i;
  }
  return -1;
}

/**
 * One page of a shown conversation (`shown`, oldest first): without `before` its newest page; with
 * it, the page just older than the cursor's message (an empty page with `before: null` when that
 * message is no longer shown, e.g. another alternative was chosen meanwhile).
 */
export function pageOf<M extends Entry>(shown: readonly M[], limit: number, before?: Anchor): { messages: M[]; before: string | null } {
  const end = before ? findAnchor(shown, before) : shown.length;
  if (end < 0) return { messages: [], before: null };
  const start = Math.max(0, end - limit);
  const first = shown[start];
  return { messages: shown.slice(start, end), before: start > 0 && first ? cursorOf(first) : null };
}
