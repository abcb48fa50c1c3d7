/**
 * A place's conversations as the client asks for them (src/web/api-conversations.ts), and their
 * addresses in the app: `#/chat/<project>/c/<id>` opens one, `…/c/<id>/<source>` at a message. A
 * message's own address (`#/chat/<project>/<source>`, the Memory view's "chat, 27 Nov" links)
 * opens the conversation its source names.
 */
import type { ConversationItem, ConversationSearchHit } from '../shared/conversation.js';
import { call } from './api.js';

const base = (project: string) => `/api/projects/${encodeURIComponent(project)}`;

export const conversationsApi = {
  list: (project: string) => call<{ conversations: ConversationItem[] }>('GET', `${base(project)}/conversations`),
  create: (project: string) => call<ConversationItem>('POST', `${base(project)}/conversations`),
  rename: (project: string, id: string, title: string) => call<{ title: string }>('PATCH', `${base(project)}/conversations/${encodeURIComponent(id)}`, { title }),
  remove: (project: string, id: string) => call<{ messages: number }>('DELETE', `${base(project)}/conversations/${encodeURIComponent(id)}`),
  choose: (project: string, id: string, source: string) => call<unknown>('POST', `${base(project)}/conversations/${encodeURIComponent(id)}/choose`, { source }),
  search: (project: string, q: string) => call<{ hits: ConversationSearchHit[] }>('GET', `${base(project)}/conversations/search?q=${encodeURIComponent(q)}`),
};

export const FIRST = 'main';

/** The address of a conversation (at a message, when `source` is given). */
export function conversationHref(project: string, id: string, source = ''): string {
  return `#/chat/${encodeURIComponent(project)}/c/${encodeURIComponent(id)}${source ? `/${encodeURIComponent(source)}` : ''}`;
}

/** What the rest of a chat address names: a conversation and the message to show in it ('' for none). */
export function chatTarget(rest: string): { conversation: string; focus: string } {
  const named = /^c\/([a-z0-9]{1,24})(?:\/(.+))?$/.exec(rest);
  if (named?.[1]) return { conversation: named[1], focus: named[2] ?? '' };
  // a message's source names its conversation: `web:<id>:<ms>` (the first conversation's are `web:<ms>`, Discord's links…)
  return { conversation: /^web:([a-z0-9]{1,24}):\d+$/.exec(rest)?.[1] ?? FIRST, focus: rest };
}
