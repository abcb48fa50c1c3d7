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
