/**
 * The web app's conversations of a place, read together: the place's archive (a project's `log/`,
 * or the person's private history), the conversations file (conversation-store.ts) and the
 * person's kept turns (trace-store.ts), shaped into one conversation's tree (conversation-tree.ts).
 */
import { join } from 'node:path';
import type { LogEntry } from '../core/ports/index.js';
import { ConversationStore, FIRST_CONVERSATION, type ConversationInfo, type PlaceConversations } from './conversation-store.js';
import { ConversationTree, conversationOf } from './conversation-tree.js';
import type { WebPlace } from './places.js';
import type { TraceStore } from './trace-store.js';
import { TurnHub } from './turns.js';
import type { WebDeps } from './web-deps.js';

/** The most archive entries read for a place's conversations (older ones are not shown). */
const MAX_DEPTH = 20_000;

/** One place as a request names it: who asks, the URL's `:project`, and the place it is. */
export interface Where {
  userId: string;
  project: string;
  at: WebPlace;
}

export interface ConversationListItem extends ConversationInfo {
  /** How many messages of the archive belong to it (every alternative counted). */
  messages: number;
}

export class WebConversations {
  readonly store: ConversationStore;

  constructor(
    private readonly deps: Pick<WebDeps, 'projects' | 'privateHistory'>,
    private readonly traces: TraceStore,
    dir: string,
  ) {
    this.store = new ConversationStore(dir);
  }

  /** The key of a place's conversations: a project's are everyone's in it, a private one its person's. */
  key(w: Where): string {
    return w.at.slug ?? `@me\u0000${w.userId}`;
  }

  async entries(w: Where): Promise<LogEntry[]> {
    return w.at.slug ? this.deps.projects.recentLog(w.at.slug, MAX_DEPTH) : this.deps.privateHistory(w.userId, MAX_DEPTH);
  }

  read(w: Where): PlaceConversations {
    return this.store.read(this.key(w));
  }

  /** The conversation's tree, or null when there is no such conversation (or it was deleted). */
  async tree(w: Where, conversation: string): Promise<ConversationTree | null> {
    const place = this.read(w);
    if (!place.list.some((c) => c.id === conversation)) return null;
    return new ConversationTree(await this.entries(w), place, conversation, this.traces.read(TurnHub.owner(w.userId, w.project)));
  }

  /** The place's conversations, the most recently used first, each with its number of messages. */
  async list(w: Where): Promise<ConversationListItem[]> {
    const place = this.read(w);
    const count = new Map<string, number>();
    let lastOfFirst = '';
    for (const e of await this.entries(w)) {
      const c = conversationOf(e.source, place);
      count.set(c, (count.get(c) ?? 0) + 1);
      if (c === FIRST_CONVERSATION) lastOfFirst = e.time;
    }
    return place.list
      .map((c) => ({ ...c, ...(c.id === FIRST_CONVERSATION ? { created: lastOfFirst, updated: lastOfFirst } : {}), messages: count.get(c.id) ?? 0 }))
      .sort((a, b) => (a.id === FIRST_CONVERSATION ? -1 : b.id === FIRST_CONVERSATION ? 1 : b.updated.localeCompare(a.updated)));
  }
}

/** Where the conversations files are kept: next to the kept turns, under DATA_DIR/web/. */
export function conversationsDir(turnsDir: string): string {
  return join(turnsDir, '..', 'conversations');
}
