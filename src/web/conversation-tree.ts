/**
 * A place's archive seen as the web app's conversations: each message belongs to one conversation
 * (conversation-store.ts), and each turn — a person's message with Charlie's reply — follows an
 * earlier turn. Edit a message or regenerate an answer, and the new turn follows the same turn as
 * the old one: the two are alternatives (‹ 1/2 ›), and what follows each is its own branch. The
 * conversation shown is one path from its first turn: at each fork the alternative last chosen
 * (or made), else the newest.
 *
 * Turns the web app never linked (Discord, the terminal, older web turns) follow the turn before
 * them in the archive; an older web turn kept as a Retry or an edit (its trace says so) becomes an
 * alternative of the turn it replaced, so nothing of the single conversation of before is lost.
 */
import type { LogEntry } from '../core/ports/index.js';
import { FIRST_CONVERSATION, type PlaceConversations } from './conversation-store.js';
import type { ChatMessage } from './history-page.js';
import type { TurnTrace } from './trace-store.js';

export interface Turn {
  source: string;
  conversation: string;
  after: string | null;
  user?: LogEntry;
  replies: LogEntry[];
}

/** Where a shown turn is among its alternatives (1-based), with the sources of its neighbours. */
export interface Alternatives {
  index: number;
  count: number;
  prev?: string;
  next?: string;
}

export type ShownMessage = ChatMessage & { alts?: Alternatives };

const PREFIXED = /^web:([a-z0-9]{1,24}):\d+$/;

/** The conversation a message of the archive belongs to. */
export function conversationOf(source: string, place: PlaceConversations): string {
  const linked = place.of.get(source);
  if (linked) return linked;
  const prefixed = PREFIXED.exec(source)?.[1];
  return prefixed && (place.list.some((c) => c.id === prefixed) || place.deleted.has(prefixed)) ? prefixed : FIRST_CONVERSATION;
}

export class ConversationTree {
  readonly turns = new Map<string, Turn>();
  private readonly children = new Map<string, Turn[]>();
  private readonly choice = new Map<string, string>();

  /** The turns of `conversation` in `entries` (the archive, oldest first). */
  constructor(
    entries: readonly LogEntry[],
    place: PlaceConversations,
    readonly conversation: string,
    private readonly traces: ReadonlyMap<string, TurnTrace>,
  ) {
    let previous: Turn | null = null;
    for (const e of entries) {
      if (conversationOf(e.source, place) !== conversation) continue;
      let turn = this.turns.get(e.source);
      if (!turn) {
        turn = { source: e.source, conversation, after: this.parentOf(e, place, previous), replies: [] };
        this.turns.set(e.source, turn);
        const key = turn.after ?? '';
        this.children.set(key, [...(this.children.get(key) ?? []), turn]);
        previous = turn;
      }
      if (e.role === 'user' && !turn.user) turn.user = e;
      else if (e.role === 'assistant') turn.replies.push(e);
    }
    for (const s of place.chosen) {
      const t = this.turns.get(s);
      if (t) this.choice.set(t.after ?? '', s);
    }
  }

  private parentOf(e: LogEntry, place: PlaceConversations, previous: Turn | null): string | null {
    const linked = place.after.get(e.source);
    if (linked !== undefined && (linked === null || this.turns.has(linked))) return linked;
    const trace = this.traces.get(e.source);
    const replaced = trace?.replaces ? this.turns.get(trace.replaces) : undefined;
    if (replaced) return replaced.after;
    if (trace?.retry && previous?.user?.text === e.text) return previous.after;
    return previous?.source ?? null;
  }

  /** The alternatives at `turn`'s place, oldest first. */
  siblings(turn: Turn): Turn[] {
    return this.children.get(turn.after ?? '') ?? [turn];
  }

  /** The shown path: from the first turn, the chosen (else newest) alternative at each fork. */
  path(): Turn[] {
    const out: Turn[] = [];
    for (let key = ''; ;) {
      const kids = this.children.get(key);
      if (!kids?.length) return out;
      const chosen = this.choice.get(key);
      const next = kids.find((t) => t.source === chosen) ?? kids[kids.length - 1]!;
      out.push(next);
      key = next.source;
    }
  }

  /** The shown conversation as the web app draws it: each message with its trace and alternatives. */
  messages(): ShownMessage[] {
    const out: ShownMessage[] = [];
    for (const turn of this.path()) {
      const kids = this.siblings(turn);
      const i = kids.indexOf(turn);
      const alts: Alternatives | undefined =
        kids.length > 1 ? { index: i + 1, count: kids.length, ...(i > 0 ? { prev: kids[i - 1]!.source } : {}), ...(i < kids.length - 1 ? { next: kids[i + 1]!.source } : {}) } : undefined;
      const t = this.traces.get(turn.source);
      const trace = t
        ? { calls: t.calls, related: t.related, reason: t.reason, ...(t.error ? { error: t.error } : {}), ...(t.failure ? { failure: t.failure } : {}), ...(t.cut ? { cut: t.cut } : {}) }
        : undefined;
      const withAlts = <M extends ChatMessage>(m: M): M & { alts?: Alternatives } => (alts ? { ...m, alts } : m);
      if (turn.user) out.push(withAlts(plain(turn.user)));
      turn.replies.forEach((r, n) => out.push({ ...plain(r), ...(trace ? { trace } : {}), ...(alts && n === turn.replies.length - 1 ? { alts } : {}) }));
      if (!turn.replies.length && turn.user && t && (t.partial !== undefined || t.error)) {
        out.push(withAlts({ time: turn.user.time, speaker: '', role: 'assistant', text: t.partial ?? '', source: turn.source, ...(trace ? { trace } : {}) }));
      }
    }
    return out;
  }

  /** What the model reads before a new turn after `after` (null: the start): that branch's messages, newest last. */
  historyBefore(after: string | null, limit: number): LogEntry[] {
    const chain: Turn[] = [];
    for (let t = after ? this.turns.get(after) : undefined; t; t = t.after ? this.turns.get(t.after) : undefined) chain.unshift(t);
    return chain.flatMap((t) => [...(t.user ? [t.user] : []), ...t.replies]).slice(-limit);
  }

  /** The last turn of the shown path (a new message follows it). */
  tail(): string | null {
    return this.path().at(-1)?.source ?? null;
  }
}

function plain(e: LogEntry): ChatMessage {
  return { time: e.time, speaker: e.speaker, role: e.role, text: e.text, source: e.source };
}
