/**
 * The conversation as the web app shows it, one page at a time: the log's messages with what the
 * web app showed of each turn (its trace, a cut reply put back, a retried or edited question shown
 * once), newest page first. A page's `before` is a cursor to the page older than it, or null at
 * the start of the conversation.
 *
 * The cursor names the oldest log entry of the page (its time, source and role), not a count:
 * the log is append-only, so an entry keeps its place while new messages arrive during paging.
 * A page is shaped with everything newer than it in view, so a retry or an edit that replaced an
 * older message hides it on the older page too.
 */
import { z } from 'zod';
import type { LogEntry } from '../core/ports/index.js';
import type { TurnTrace } from './trace-store.js';

export interface ChatMessage {
  time: string;
  speaker: string;
  role: 'user' | 'assistant';
  text: string;
  source: string;
  trace?: { calls: TurnTrace['calls']; related: string[]; reason: string; error?: string; failure?: TurnTrace['failure'] };
}

export interface HistoryPage {
  messages: ChatMessage[];
  /** The cursor of the next older page, or null: this page starts the conversation. */
  before: string | null;
}

type Entry = Omit<ChatMessage, 'trace'>;

/** The most log entries one page request reads (a cursor further back than this is not found). */
const MAX_DEPTH = 20_000;

const anchor = z.object({ t: z.string().max(40), s: z.string().max(300), r: z.enum(['user', 'assistant']) });
type Anchor = z.infer<typeof anchor>;

/** The query of `GET …/messages`: `limit` (1–500, default 50) and `before` (a cursor from an earlier page). */
export const pageQuery = z.object({
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
 * One page of the conversation. `read(n)` gives the last `n` log entries, oldest first. Without
 * `before` it is the newest page; with it, the page just older than the cursor's entry (an empty
 * page with `before: null` when that entry is no longer within reach).
 */
export async function historyPage(read: (n: number) => Promise<LogEntry[]> | LogEntry[], traces: ReadonlyMap<string, TurnTrace>, limit: number, before?: Anchor): Promise<HistoryPage> {
  for (let depth = before ? limit * 4 : limit; ; depth = Math.min(depth * 4, MAX_DEPTH)) {
    const entries: Entry[] = (await read(depth)).map((e) => ({ time: e.time, speaker: e.speaker, role: e.role, text: e.text, source: e.source }));
    const whole = entries.length < depth;
    const end = before ? findAnchor(entries, before) : entries.length;
    // read further back when the cursor's entry, or a whole page before it, is not in view yet
    if ((end < 0 || end < limit) && !whole && depth < MAX_DEPTH) continue;
    if (end < 0) return { messages: [], before: null };
    const start = Math.max(0, end - limit);
    const messages = withTraces(entries.slice(start), traces, end - start);
    const first = entries[start];
    return { messages, before: (start > 0 || !whole) && first ? cursorOf(first) : null };
  }
}

/**
 * The log's messages with what the web app showed of each turn: the trace on its reply, a reply
 * cut by an error or a stop (which the log does not keep) put back with its partial text, and a
 * retried question shown once, with only its newest answer. Only the messages that come from the
 * first `count` entries are returned; the later ones are read for the retries and edits they make.
 */
export function withTraces(entries: readonly Entry[], traces: ReadonlyMap<string, TurnTrace>, count = entries.length): ChatMessage[] {
  const out: (ChatMessage & { at: number })[] = [];
  const answered = new Set(entries.filter((e) => e.role === 'assistant').map((e) => e.source));
  const lastUser = () => {
    for (let i = out.length - 1; i >= 0; i--) if (out[i]?.role === 'user') return i;
    return -1;
  };
  entries.forEach((e, at) => {
    const t = traces.get(e.source);
    const shown = t ? { calls: t.calls, related: t.related, reason: t.reason, ...(t.error ? { error: t.error } : {}), ...(t.failure ? { failure: t.failure } : {}) } : undefined;
    if (e.role === 'user') {
      const prev = lastUser();
      const replaced = t?.replaces ? out.findIndex((m) => m.role === 'user' && m.source === t.replaces) : -1;
      if (replaced >= 0) out.splice(replaced, out.length - replaced, { ...e, at });
      else if (t?.retry && prev >= 0 && out[prev]?.text === e.text) out.splice(prev + 1);
      else out.push({ ...e, at });
      if (t && !answered.has(e.source) && (t.partial !== undefined || t.error)) {
        out.push({ time: e.time, speaker: '', role: 'assistant', text: t.partial ?? '', source: e.source, at, ...(shown ? { trace: shown } : {}) });
      }
    } else out.push({ ...e, at, ...(shown ? { trace: shown } : {}) });
  });
  return out.filter((m) => m.at < count).map(({ at: _at, ...m }) => m);
}
