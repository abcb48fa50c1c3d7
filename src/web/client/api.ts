/** The JSON API the server documents (README: Web app → API), typed for the client. */
import type { RecallHit, ReviewChoice, ReviewPair } from '../../core/ports/index.js';
import type { AlternativesWire, ConversationHit } from '../shared/conversation.js';
import type { RecordWire } from '../shared/records.js';
import type { WhyAnswer } from '../../core/inspector/why.js';
import type { IngestProgress } from '../../core/writing/ingest-status.js';
import type { ConsentAnswerWire, ConsentLedgerWire } from '../shared/consent.js';

export type { ReviewChoice, ReviewPair };

export interface Me {
  kind: 'owner' | 'member';
  /** The role table's role (src/core/roles.ts): an editor may change shared memory. */
  role: 'owner' | 'editor' | 'member';
  name: string;
  assistant: string;
  /** Charlie's version (package.json). */
  version: string;
  acceptsImages: boolean;
  /** `sttReason`: why push-to-talk cannot work here (the server checked: a speech model not installed …). */
  speech: { stt: boolean; sttReason?: string; tts: boolean };
  /** The owner sees one line per MCP tool server (state, tool count or error). */
  toolServers?: string[];
}

export interface ProjectItem {
  project: string;
  name: string;
  discord: boolean;
  /** Hidden from the list (it can be unarchived). */
  archived?: boolean;
}

export interface ProjectList {
  private: { project: string; name: string };
  projects: ProjectItem[];
}

export interface TraceCall {
  name: string;
  args?: unknown;
  ok?: boolean;
  summary?: string;
  pages?: string[];
}

/** Why a turn failed (core/turn/events.ts TurnFailure): a model error's kind with its own message, `memory` or `internal`. */
export interface FailureWire {
  kind: string;
  modelMessage?: string;
}

export interface ChatEntry {
  time: string;
  speaker: string;
  role: 'user' | 'assistant';
  text: string;
  source?: string;
  /** How many images the person sent with it (`imageUrl` draws each). */
  images?: number;
  /** What the web app showed of the turn: tool calls, suggested notes, how it ended. */
  trace?: { calls: TraceCall[]; related: string[]; reason: string; error?: string; failure?: FailureWire; cut?: string };
  /** Where the turn is among its alternatives (an edited message, a regenerated answer). */
  alts?: AlternativesWire;
}

/** A page of the conversation: its messages, oldest first, and the cursor of the page before it (null: none). */
export interface HistoryPage {
  messages: ChatEntry[];
  before: string | null;
}

/** A search hit as the server sends it: the core's RecallHit (a type only; nothing of the core is bundled). */
export type Hit = RecallHit;

/** A waiting candidate of the promotion gate, as `GET …/candidates` sends it. */
export interface Waiting {
  key: string;
  entity: string;
  text: string;
  type?: string;
  source: string;
  message: string;
  score: number;
  parts: Record<string, number>;
  firstSeen: string;
  expires: string;
}

export interface Problem {
  path: string;
  line?: number;
  message: string;
}

/** A kept earlier version of a note page (reflection's `.history/`). */
export interface PageVersion {
  /** Relative to notes/, with `.md`. */
  page: string;
  /** Its time, e.g. `2026-11-30T14-00-00.000Z`. */
  version: string;
}

export interface PageRef {
  page: string;
  title: string;
  aliases: string[];
}

export interface Graph {
  nodes: { id: string; title: string; category: string; links: number; missing?: boolean }[];
  edges: { source: string; target: string; label?: string }[];
}

/** The owner's Settings page (GET /api/settings; src/web/settings.ts). */
export interface SettingsView {
  items: { job: string; what: string; where: string; local: boolean; why?: string }[];
  doctor: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const data = (await res.json().catch(() => ({}))) as { error?: string };
  if (!res.ok) throw new ApiError(res.status, data.error ?? `${res.status} ${res.statusText}`);
  return data as T;
}

const p = (project: string) => `/api/projects/${encodeURIComponent(project)}`;

export const api = {
  me: () => call<Me>('GET', '/api/me'),
  logout: () => call<{ ok: boolean }>('POST', '/api/logout'),
  projects: () => call<ProjectList>('GET', '/api/projects'),
  createProject: (name: string) => call<{ project: string; name: string }>('POST', '/api/projects', { name }),
  /** A page of the conversation, newest first; `before` (from the page after it) asks for the one before. */
  messages: (project: string, limit = 60, before?: string, conversation = 'main') =>
    call<HistoryPage>('GET', `${p(project)}/messages?conversation=${encodeURIComponent(conversation)}&limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ''}`),
  relabelProject: (project: string, change: { name?: string; archived?: boolean }) => call<{ project: string; name: string; archived: boolean }>('PATCH', p(project), change),
  searchConversation: (project: string, q: string) => call<{ hits: ConversationHit[] }>('GET', `${p(project)}/conversation?q=${encodeURIComponent(q)}`),
  currentTurn: (project: string) => call<{ turn: { id: string; done: boolean; conversation?: string } | null }>('GET', `${p(project)}/turn`),
  records: (project: string) => call<{ records: RecordWire[]; problems: Problem[]; style: string }>('GET', `${p(project)}/records`),
  editRecord: (project: string, id: string, text: string) => call<unknown>('PATCH', `${p(project)}/records/${encodeURIComponent(id)}`, { text }),
  forgetRecord: (project: string, id: string) => call<unknown>('DELETE', `${p(project)}/records/${encodeURIComponent(id)}`),
  holdRecord: (project: string, id: string) => call<unknown>('POST', `${p(project)}/records/${encodeURIComponent(id)}/hold`),
  releaseRecord: (project: string, id: string) => call<unknown>('POST', `${p(project)}/records/${encodeURIComponent(id)}/release`),
  review: (project: string) => call<{ pairs: ReviewPair[] }>('GET', `${p(project)}/review`),
  resolveReview: (project: string, id: string, choice: ReviewChoice) => call<unknown>('POST', `${p(project)}/review/${encodeURIComponent(id)}`, { choice }),
  why: (project: string, id: string) => call<WhyAnswer>('GET', `${p(project)}/why?id=${encodeURIComponent(id)}`),
  candidates: (project: string) => call<{ candidates: Waiting[] }>('GET', `${p(project)}/candidates`),
  ingest: (project: string) => call<{ files: IngestProgress[] }>('GET', `${p(project)}/ingest`),
  promote: (project: string, key: string) => call<unknown>('POST', `${p(project)}/candidates/${encodeURIComponent(key)}/promote`),
  pages: (project: string) => call<{ pages: PageRef[] }>('GET', `${p(project)}/pages`),
  page: (project: string, path: string) => call<{ path: string; markdown: string }>('GET', `${p(project)}/page?path=${encodeURIComponent(path)}`),
  versions: (project: string, page: string) => call<{ versions: PageVersion[] }>('GET', `${p(project)}/versions?page=${encodeURIComponent(page)}`),
  restore: (project: string, page: string, version: string) => call<{ ok: true; page: string; version: string }>('POST', `${p(project)}/restore`, { page, version }),
  search: (project: string, q: string) => call<{ hits: Hit[]; ms: number }>('GET', `${p(project)}/search?q=${encodeURIComponent(q)}&limit=10`),
  graph: (project: string) => call<Graph>('GET', `${p(project)}/graph`),
  settings: () => call<SettingsView>('GET', '/api/settings'),
  cancel: (turn: string) => call<unknown>('POST', `/api/turns/${encodeURIComponent(turn)}/cancel`),
  confirmTool: (turn: string, id: string, allow: boolean) => call<unknown>('POST', `/api/turns/${encodeURIComponent(turn)}/confirm`, { id, allow }),
  answerConsent: (turn: string, id: string, answer: ConsentAnswerWire) => call<unknown>('POST', `/api/turns/${encodeURIComponent(turn)}/consent`, { id, answer }),
  consents: () => call<ConsentLedgerWire>('GET', '/api/privacy/consents'),
  revokeConsent: (id: string) => call<{ revoked: string }>('POST', `/api/privacy/consents/${encodeURIComponent(id)}/revoke`),
};

export interface StreamEvent {
  id: number;
  event: string;
  data: unknown;
}

/** Reads a `text/event-stream` response body, calling `on` per event. */
export async function readEvents(res: Response, on: (e: StreamEvent) => void): Promise<void> {
  if (!res.ok || !res.body) {
    const data = (await res.json().catch(() => ({}))) as { error?: string };
    throw new ApiError(res.status, data.error ?? `${res.status}`);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = 'message';
      let id = 0;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('id:')) id = Number(line.slice(3).trim());
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (!data.length) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(data.join('\n'));
      } catch {
        parsed = data.join('\n');
      }
      on({ id, event, data: parsed });
    }
  }
}

export function sendMessage(
  project: string,
  body: { text: string; images?: string[]; mode?: 'text' | 'voice'; conversation?: string; retry?: boolean; replaces?: string; regenerates?: string },
): Promise<Response> {
  return fetch(`${p(project)}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' });
}

export function resumeTurn(turnId: string, after: number): Promise<Response> {
  return fetch(`/api/turns/${encodeURIComponent(turnId)}/events`, { headers: { 'last-event-id': String(after) }, credentials: 'same-origin' });
}
