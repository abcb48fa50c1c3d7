/**
 * What the composition root (main.ts `buildApp`) hands the front doors it starts: the core, the
 * stores they read, the ingest service, the time desks and the MCP tool source. A named interface
 * rather than the type of buildApp's return, so src/app imports nothing of main.ts.
 */
import type { Assistant } from '../core/assistant.js';
import type { ChatModel, SyncEngine, Vault } from '../core/ports/index.js';
import type { MachineBook } from '../core/machines/machine-book.js';
import type { ReflectionReport } from '../core/reflection/reflection.js';
import type { MorningBrief } from '../core/time/brief.js';
import type { CalendarDesk } from '../core/time/calendar.js';
import type { ReminderDesk } from '../core/time/reminder-desk.js';
import type { McpToolSource } from '../mcp/client/source.js';
import type { IngestService } from '../memory/ingest/ingest-service.js';
import type { FileProjectStore } from '../memory/store/project-store.js';
import type { SqlitePrivateStore } from '../storage/private-store.js';
import type { OutboxRouter } from '../time/outbox-router.js';
import type { LiveSettings } from './live-settings.js';

/** The time desks, their outbox and the scheduler's controls. */
export interface AppTime {
  reminders: ReminderDesk;
  calendar: CalendarDesk;
  brief: MorningBrief;
  outbox: OutboxRouter;
  /** Starts the ticker (SCHEDULER_ENABLED). */
  start(): void;
  /** Runs the due jobs once; how many ran. */
  tick(): Promise<number>;
  /** Delivers at once what waited for a front door (one just opened). */
  wake(): Promise<number>;
  /** Which one-time notices a front door already showed (by key). */
  shown: { was(key: string): boolean; mark(key: string): void };
}

export interface App {
  assistant: Assistant;
  model: ChatModel;
  /** The chat lane and the voice behind their ports, changed from the web app's Settings without a restart. */
  settings: LiveSettings;
  store: FileProjectStore;
  privateStore: SqlitePrivateStore;
  ingest: IngestService;
  /** Lines for the start-up screen (a hosted model without a memory model, a damaged private.db …). */
  notices: string[];
  /** Between turns, every minute: reflects on the projects that are due; `deliver` shows each report. */
  startReflecting(deliver: (report: ReflectionReport) => Promise<void>): void;
  time: AppTime;
  close(): Promise<void>;
  mcp: McpToolSource;
  /** `/machines`: the machines and logins memory knows (absent with SSH_ENABLED=false). */
  machines: MachineBook | undefined;
  /** Secrets given in messages, per person. */
  vault: Vault;
  /** Sync across the household's devices (null when SYNC_REMOTE is unset). */
  sync: SyncEngine | null;
}
