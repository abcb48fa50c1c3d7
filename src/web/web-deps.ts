/**
 * The web front door's ports and environment: what the composition root hands createWebApp
 * (WebDeps) and the Hono environment every route sees (WebEnv), with the ports they name. In a
 * file of their own so the API slices (api-*.ts) import them without importing app.ts, which
 * imports the slices.
 */
import type { AssistantApi } from '../core/assistant-api.js';
import type { Place } from '../core/place.js';
import type { IngestStatus } from '../core/writing/ingest-status.js';
import type { Logger, SyncEngine } from '../core/ports/index.js';
import type { ReminderDesk } from '../core/time/reminder-desk.js';
import type { MachineBook } from '../core/machines/machine-book.js';
import type { WebAuth } from './auth.js';
import type { MemberBook } from './members.js';
import type { SettingsView } from './settings.js';
import type { WebTimeOutbox } from './outbox.js';
import type { ListeningStatus, LiveSettingsPort } from './api-live-settings.js';

export type { WebEnv } from './web-env.js';

export interface WebDeps {
  assistant: Pick<AssistantApi, 'conversation' | 'memory' | 'settings' | 'privacy' | 'projects' | 'private'>;
  auth: WebAuth;
  logger: Logger;
  assistantName: string;
  /** Charlie's version, shown in the app's footer. */
  version: string;
  acceptsImages: boolean;
  speech?: SpeechServices;
  /** Folder of the built client (index.html, app.js, …). */
  clientDir: string;
  /** What the owner's Settings page shows (read-only); absent, the page says it is not available. */
  settings?: () => SettingsView;
  /** Runs the doctor's checks here, for the Settings page's "Run checks" (api-settings.ts). */
  runChecks?: () => Promise<CheckLine[]>;
  /** The clock of the checks' rate limit (default Date.now). */
  now?: () => number;
  /** Where the web app keeps each turn's trace (default: `turns/` next to clientDir, under DATA_DIR/web). */
  turnsDir?: string;
  /** Mark the session cookie Secure (the public URL is https). */
  secureCookie?: boolean;
  /** One line per MCP tool server, shown to the owner. */
  toolServers?: () => string[];
  /** Charlie's memory as an MCP server at /api/mcp (Streamable HTTP, owner token). */
  mcpServer?: McpEndpoint;
  /** Proxy addresses (WEB_TRUSTED_PROXY) whose X-Forwarded-For names the real client. */
  trustedProxies?: readonly string[];
  /** Where each project's big inbox files stand (GET /api/projects/:project/ingest). */
  ingest?: IngestStatus;
  /** Reminders (the Reminders view, and due ones pushed to the open page). */
  time?: WebTime;
  /** `/machines` in the web app (Settings › Machines); absent with SSH_ENABLED=false. */
  machines?: MachineBook;
  /** Files dropped on the chat, read into memory as the inbox reads them (api-files.ts). */
  files?: FileIntake;
  /** The chat model and voice in use, changed by the owner without a restart (api-live-settings.ts). */
  liveSettings?: LiveSettingsPort;
  /** Sync across devices (Settings, the owner's); null or absent: SYNC_REMOTE is unset here. */
  sync?: SyncEngine | null;
  /** The household members the owner invited, with their passkeys; invite links start with `publicUrl` when set. */
  members?: { book: MemberBook; publicUrl?: string };
}

/** Charlie's memory as an MCP server (Streamable HTTP), answered at /api/mcp. */
export interface McpEndpoint {
  handle(request: Request): Promise<Response>;
}

export interface WebTime {
  desk: ReminderDesk;
  outbox: WebTimeOutbox;
}

export interface SpeechServices {
  /** Audio bytes + their MIME type → text ('' for silence). */
  transcribe?(audio: Uint8Array, mime: string, signal?: AbortSignal): Promise<string>;
  /** Whether transcribe can work now (a model not on disk cannot), and why not; absent: it can. */
  listening?(): ListeningStatus;
  /** `place`: where the text was said (its stored label decides the voice); null: not known, so an online voice gets only a stored ordinary text. */
  speak?(text: string, signal?: AbortSignal, place?: Place | null): Promise<{ mime: string; data: Uint8Array; spokenBy?: 'local' | 'hosted' }>;
}

/** One doctor check as the page shows it (the doctor's CheckResult). */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckLine {
  part: string;
  name: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
  ms: number;
}

/** The ingest service as the web app uses it for files dropped on the chat (api-files.ts; src/memory/ingest/ingest-service.ts). */
export interface FileIntake {
  add(project: string, name: string, bytes: Buffer): Promise<{ source: string; outcome: 'unchanged' | 'ingested' | 'unparseable' | 'failed'; items: number; facts: number; message?: string }>;
}
