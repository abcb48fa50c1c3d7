/**
 * A message of a project's conversation that holds the searched words, as the server finds it
 * (`GET /api/projects/:p/conversation?q=`) and the browser lists it. A type only: shared by both.
 */
export interface ConversationHit {
  time: string;
  speaker: string;
  role: 'user' | 'assistant';
  source: string;
  /** The matching part of the message (at most ~200 characters). */
  snippet: string;
}

/** A hit of the search across a place's conversations (`GET /api/projects/:p/conversations/search?q=`): which conversation holds it. */
export interface ConversationSearchHit extends ConversationHit {
  conversation: string;
  /** The conversation's title. */
  title: string;
}

/** One of a place's conversations as the side menu lists it (`GET /api/projects/:p/conversations`). */
export interface ConversationItem {
  id: string;
  title: string;
  /** The title was given by a person. */
  renamed: boolean;
  /** The newest message's time (ISO), or '' for an empty first conversation. */
  updated: string;
  /** Messages kept of it (every alternative counted). */
  messages: number;
  /** The place's first conversation (shared with Discord and the terminal): it cannot be deleted. */
  first: boolean;
}

/** Where a message is among its alternatives (an edit or a regenerated answer), 1-based. */
export interface AlternativesWire {
  index: number;
  count: number;
  /** The sources of the alternatives before and after it. */
  prev?: string;
  next?: string;
}
