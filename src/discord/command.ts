/**
 * The shape of a slash command file in `commands/` and what it gets when it runs.
 *
 * A file default-exports one `Command` (or an array of them) written as
 * `export default { … } satisfies Command`. Files that share a `name` become subcommands of
 * one slash command (`/memory show`, `/memory edit` …); a Command without `subcommand` is a
 * plain command (`/help`). Buttons and modals a command creates use custom ids that start
 * with `${componentPrefix}:`; the router hands them to that command's `handleComponent`.
 */
import {
  MessageFlags,
  type APIApplicationCommandBasicOption,
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  type GuildMember,
  type MessageComponentInteraction,
  type MessageMentionOptions,
  type ModalSubmitInteraction,
} from 'discord.js';
import type { AssistantApi } from '../core/assistant-api.js';
import type { Place } from '../core/place.js';
import type { IngestStatus } from '../core/writing/ingest-status.js';
import type { Logger, SyncEngine } from '../core/ports/index.js';
import type { ReminderDesk } from '../core/time/reminder-desk.js';
import type { CalendarDesk } from '../core/time/calendar.js';
import type { MorningBrief } from '../core/time/brief.js';
import type { NoteBoard } from './note-board.js';
import type { Action, Role } from '../core/roles.js';
import type { MachineBook } from '../core/machines/machine-book.js';

/** `/web`: personal login links to the web app (the web server, while it runs). */
export interface WebLinks {
  readonly url: string;
  /** A single-use login link; `role` is the person's role in the role table, carried into their web session. */
  loginLinkFor(userId: string, userName: string, role: Role): string;
}

/** `/memory ingest`: reads a file into a project's notes through the memory lane (the ingest service). */
export interface FileIngest {
  add(project: string, name: string, bytes: Buffer): Promise<{ source: string; outcome: 'unchanged' | 'ingested' | 'unparseable' | 'failed'; items: number; facts: number; message?: string }>;
  /** `/memory ingest` without a file: where the project's big inbox files stand. */
  status?: IngestStatus['status'];
}

/**
 * The services the composition root hands to commands, as ports: commands reach the web app
 * and the ingest service through these, never by importing them. `voice` is the one exception:
 * `/voice` is where Discord drives the voice front door (commands/voice.ts narrows it).
 */
export interface DiscordServices {
  voice?: unknown;
  web?: WebLinks | null;
  ingest?: FileIngest;
  /** REFLECT_REPORT: `channel` makes /memory reflect's report visible to the channel. */
  reflectReport?: 'log' | 'channel';
  /** One line per MCP tool server (state, tool count or error), for /help. */
  toolServers?: () => string[];
  /** Reminders and the buttons on delivered ones (/remind), while the scheduler runs. */
  time?: ReminderDesk;
  /** Subscribed calendars (/calendar). */
  calendar?: CalendarDesk;
  /** The opt-in morning brief (/remind brief). */
  brief?: MorningBrief;
  /** The machines and logins memory knows, and revoking them (/machines). */
  machines?: MachineBook;
  /** Sync across the household's devices (/sync); null when SYNC_REMOTE is unset. */
  sync?: SyncEngine | null;
}

export interface CommandContext {
  assistant: AssistantApi;
  /** Where the interaction happened: the channel's project, or the user's private place in a DM. */
  place: Place;
  /** Whether the sender may do `action` here (src/core/roles.ts), with the refusal to show when not. */
  allowed(action: Action): { ok: true } | { ok: false; reason: string };
  /** The sender's role across Charlie's servers (for a `/web` link, asked for in a DM). */
  roleAnywhere(): Promise<Role>;
  /** Someone's role in this server, from their member (a voice speaker's, when they are asked in the moment). */
  roleOf(userId: string, member: GuildMember | null): Role;
  logger: Logger;
  /** Every loaded command (for /help). */
  commands: readonly Command[];
  /** Renders notes with tag buttons and records the usage signals. */
  notes: NoteBoard;
  services: DiscordServices;
  /** A reply or a post never takes more Discord messages than this (DISCORD_REPLY_MAX_MESSAGES). */
  replyMaxMessages: number;
  /**
   * Downloads an attachment as message attachments are: at most `maxBytes` (more → `truncated`)
   * and within DISCORD_ATTACHMENT_TIMEOUT_MS, so a stalled download never holds a command.
   */
  download(url: string, maxBytes: number): Promise<{ bytes: Buffer; truncated: boolean }>;
}

export type ComponentInteraction = MessageComponentInteraction | ModalSubmitInteraction;

export interface Command {
  /** Top-level slash command name, lower case (`memory`). */
  name: string;
  /** Description of the top-level command (for a group, the first file's wins). */
  description: string;
  /** Set when this file is one subcommand of `name`. */
  subcommand?: { name: string; description: string };
  /** Options of the command or subcommand (raw API JSON). */
  options?: APIApplicationCommandBasicOption[];
  /** Custom-id prefix of this command's buttons and modals (no colon). */
  componentPrefix?: string;
  /**
   * What it does in the role table (src/core/roles.ts), when it changes something: the router
   * lets only the roles the table names run it and submit its buttons and modals
   * (src/discord/memory-editors.ts).
   */
  action?: Action;
  /** What its buttons and modals do, when only they change something (the command itself only shows). */
  componentAction?: Action;
  execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void>;
  handleComponent?(interaction: ComponentInteraction, ctx: CommandContext): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction, ctx: CommandContext): Promise<void>;
}

/** `memory show` / `help`: how a command is addressed. */
export function commandKey(name: string, subcommand?: string | null): string {
  return subcommand ? `${name} ${subcommand}` : name;
}

/**
 * The slash commands whose subcommands live in several files, each with the one description
 * Discord shows for it (written once: with a copy per file, the copies drift apart).
 */
export const GROUPS = {
  memory: { name: 'memory', description: 'See, edit, search or forget what Charlie remembers' },
  private: { name: 'private', description: 'Your private memory (DMs): see it, forget parts of it, or wipe it' },
  project: { name: 'project', description: 'Settings of this channel’s project' },
  voice: { name: 'voice', description: 'Talk with Charlie in a voice channel' },
  calendar: { name: 'calendar', description: 'Calendars this channel (or you, in a DM) follows: subscribe, list, agenda' },
  remind: { name: 'remind', description: 'Reminders: set one, list them, cancel one, set your time zone' },
  privacy: { name: 'privacy', description: 'What you let go to hosted services when asked in the moment: list, revoke' },
  machines: { name: 'machines', description: 'Machines Charlie connects to over SSH: list them, revoke a login, forget one' },
  sync: { name: 'sync', description: 'Sync across your devices: where it stands, or sync now (Charlie’s owner)' },
} as const;

/**
 * Reply options for an answer only the person who asked sees. It pings nobody: replies quote
 * what people wrote (memory, candidates, search hits), and a quoted @mention must stay text.
 */
export function ephemeral(content: string): { content: string; flags: MessageFlags.Ephemeral; allowedMentions: MessageMentionOptions } {
  return { content, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } };
}
