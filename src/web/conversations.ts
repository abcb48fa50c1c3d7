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
import { privatePlaceKey } from './private-wipe.js';

/** The most archive entries read for a place's conversations (older ones are not shown). */
const MAX_DEPTH = 20_000;
/** Each request reads only the archive's newest entries and adds what is new to the place's last whole read… */
const TAIL = 200;
/** …which is read whole again at most this often (an entry redacted by Forget leaves the chat by then). */
const FRESH_MS = 60_000;
/** Places whose last whole read is kept. */
const CACHED_PLACES = 16;

const same = (a: LogEntry, b: LogEntry) => a.time === b.time && a.source === b.source && a.role === b.role && a.text === b.text;

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

/** How the conversations read a place's archive: a project's log, a person's private messages (the assistant's slices). */
export interface ArchiveReader {
  recentLog(slug: string, limit: number): Promise<LogEntry[]>;
  recentMessages(userId: string, limit: number): LogEntry[];
}

export class WebConversations {
  readonly store: ConversationStore;
  private readonly cache = new Map<string, { entries: LogEntry[]; at: number }>();

  constructor(
    private readonly archive: ArchiveReader,
    private readonly traces: TraceStore,
    dir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new ConversationStore(dir);
  }

  /** The key of a place's conversations: a project's are everyone's in it, a private one its person's. */
  key(w: Where): string {
    return w.at.slug ?? privatePlaceKey(w.userId);
  }

  /**
   * The place's archive, oldest first (its newest MAX_DEPTH entries). A 10,000-message archive
   * takes a few hundred milliseconds to read whole, and paging asks for it once a page: so only
   * its newest entries are read, and joined to the last whole read where they meet it.
   */
  async entries(w: Where): Promise<LogEntry[]> {
    const read = (n: number) => (w.at.slug ? this.archive.recentLog(w.at.slug, n) : Promise.resolve(this.archive.recentMessages(w.userId, n)));
    const key = this.key(w);
    const kept = this.cache.get(key);
    if (kept && this.now() - kept.at < FRESH_MS) {
      const tail = await read(TAIL);
      const last = kept.entries.at(-1);
      // where the newest entries meet the kept ones (-1: the kept read was empty and the archive is all in the tail)
      const found = last ? tail.findLastIndex((e) => same(e, last)) : -1;
      const meet = last && found < 0 ? -2 : !last && tail.length >= TAIL ? -2 : found;
      if (meet >= -1) {
        const entries = [...kept.entries, ...tail.slice(meet + 1)].slice(-MAX_DEPTH);
        this.cache.set(key, { entries, at: kept.at });
        return entries;
      }
    }
    const entries = await read(MAX_DEPTH);
    this.cache.delete(key);
    this.cache.set(key, { entries, at: this.now() });
    if (this.cache.size > CACHED_PLACES) this.cache.delete(this.cache.keys().next().value ?? '');
    return entries;
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
