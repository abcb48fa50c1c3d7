/**
 * The Discord front door: `startDiscord(...)` logs in, learns the owner, and serves messages
 * and interactions until `stop()`. Every bit of state (queues, dedupe, buttons) lives in the
 * returned instance; nothing is module-global.
 */
import { describeLane } from '../core/lanes.js';
import { DiscordjsErrorCodes, Events, type Client } from 'discord.js';
import type { Config } from '../config.js';
import type { AssistantApi } from '../core/assistant-api.js';
import { ConfigError } from '../core/errors.js';
import type { Logger } from '../core/ports/index.js';
import { AccessPolicy, ownerIdsOf } from './access.js';
import { createDiscordClient } from './client.js';
import type { Command, DiscordServices } from './command.js';
import { InteractionRouter } from './interaction-router.js';
import { KeyedQueue } from '../core/keyed-queue.js';
import { MessageHandler, type MessageHandlerDeps } from './message-handler.js';
import { NoteBoard } from './note-board.js';
import { SeenIds } from './seen-ids.js';
import { errorMessage } from '../util/error-text.js';

export type DiscordConfig = Pick<
  Config,
  | 'DISCORD_TOKEN'
  | 'DISCORD_API_URL'
  | 'DISCORD_ALLOWED_GUILDS'
  | 'DISCORD_ALLOWED_USERS'
  | 'DISCORD_EDIT_INTERVAL_MS'
  | 'DISCORD_ATTACHMENT_MAX_BYTES'
  | 'DISCORD_IMAGE_MAX_BYTES'
  | 'DISCORD_ATTACHMENT_TIMEOUT_MS'
  | 'DISCORD_REPLY_MAX_MESSAGES'
> &
  Partial<Pick<Config, 'DISCORD_MEMORY_EDITOR_ROLE'>>;

export interface StartDiscordOptions {
  config: DiscordConfig;
  assistant: AssistantApi;
  logger: Logger;
  /** Whether the chat model accepts image parts (images are otherwise skipped with a warning). */
  acceptsImages: boolean;
  /** Overrides DISCORD_API_URL (tests). */
  apiUrl?: string;
  /** Handed to commands as `ctx.services`; a function gets the client first (e.g. for voice adapters). */
  services?: DiscordServices | ((client: Client) => DiscordServices);
  /** Transcribes voice messages in project channels (see src/speech/voice-message.ts). */
  transcribeAudio?: MessageHandlerDeps['transcribeAudio'];
  /** The slash commands (the composition root loads them from `commands/`; tests pass theirs). */
  commands: readonly Command[];
  /** For attachment downloads (tests). */
  fetch?: typeof fetch;
}

export interface DiscordBot {
  client: Client;
  access: AccessPolicy;
  /** Resolves when every queued message has been handled (tests, shutdown). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export async function startDiscord(options: StartDiscordOptions): Promise<DiscordBot> {
  const { config, assistant } = options;
  if (!config.DISCORD_TOKEN) throw new ConfigError('DISCORD_TOKEN is not set — copy the bot token from the Bot tab of your application (docs/discord.md)');
  const logger = options.logger.child({ component: 'discord' });
  const commands = options.commands;
  const client = createDiscordClient({ apiUrl: options.apiUrl ?? config.DISCORD_API_URL });
  const access = new AccessPolicy({ allowedUsers: config.DISCORD_ALLOWED_USERS, allowedGuilds: config.DISCORD_ALLOWED_GUILDS });
  const notes = new NoteBoard(assistant);
  const queue = new KeyedQueue();
  const inFlight = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  const messages = new MessageHandler({
    assistant,
    access,
    queue,
    seen: new SeenIds(5000),
    notes,
    logger,
    acceptsImages: options.acceptsImages,
    editIntervalMs: config.DISCORD_EDIT_INTERVAL_MS,
    attachmentMaxBytes: config.DISCORD_ATTACHMENT_MAX_BYTES,
    imageMaxBytes: config.DISCORD_IMAGE_MAX_BYTES,
    attachmentTimeoutMs: config.DISCORD_ATTACHMENT_TIMEOUT_MS,
    replyMaxMessages: config.DISCORD_REPLY_MAX_MESSAGES,
    fetch: options.fetch,
    transcribeAudio: options.transcribeAudio,
    ...(config.DISCORD_MEMORY_EDITOR_ROLE ? { editorRole: config.DISCORD_MEMORY_EDITOR_ROLE } : {}),
  });
  const services = typeof options.services === 'function' ? options.services(client) : (options.services ?? {});
  const router = new InteractionRouter({
    assistant,
    access,
    commands,
    notes,
    logger,
    services,
    replyMaxMessages: config.DISCORD_REPLY_MAX_MESSAGES,
    attachmentTimeoutMs: config.DISCORD_ATTACHMENT_TIMEOUT_MS,
    fetch: options.fetch ?? fetch,
    ...(config.DISCORD_MEMORY_EDITOR_ROLE ? { editorRole: config.DISCORD_MEMORY_EDITOR_ROLE } : {}),
  });
  let stopping = false;
  // nothing is served before the owner is known (with empty allow-lists only the owner is)
  let ownersKnown: () => void = () => {};
  const ownersReady = new Promise<void>((resolve) => (ownersKnown = resolve));
  const serve = (what: string, run: () => Promise<void>) => {
    if (stopping) return;
    track(ownersReady.then(run).catch((e: unknown) => logger.error({ err: e }, `${what} handler crashed`)));
  };

  client.on(Events.MessageCreate, (message) => serve('message', () => messages.onMessage(message)));
  client.on(Events.InteractionCreate, (interaction) => serve('interaction', () => router.onInteraction(interaction)));
  client.on(Events.Error, (e) => logger.error({ err: e }, 'discord client error'));
  client.on(Events.ShardReconnecting, (shardId) => logger.warn({ shardId }, 'gateway connection lost; reconnecting'));
  client.on(Events.ShardDisconnect, (event, shardId) => logger.error({ shardId, code: event.code }, 'gateway closed for good; restart Charlie'));
  client.on(Events.ShardResume, (shardId, replayed) => logger.info({ shardId, replayed }, 'gateway session resumed'));

  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  try {
    await client.login(config.DISCORD_TOKEN);
    await ready;
  } catch (error) {
    await client.destroy();
    throw loginError(error);
  }
  try {
    const app = await client.application!.fetch();
    access.setOwners(ownerIdsOf(app.owner));
  } catch (error) {
    logger.warn({ err: error }, 'could not look up the application owner; only allow-listed users will be served');
  }
  ownersKnown();
  logger.info({ bot: client.user?.tag, guilds: client.guilds.cache.size, owners: access.ownerIds.length, commands: commands.length }, 'Discord connected');
  for (const lane of options.assistant.lanes()) logger.info({ job: lane.job, model: lane.model, local: lane.local }, describeLane(lane));

  const idle = async () => {
    while (inFlight.size) await Promise.allSettled([...inFlight]);
    await queue.idle();
  };
  return {
    client,
    access,
    idle,
    async stop() {
      stopping = true;
      await Promise.race([idle(), new Promise((r) => setTimeout(r, 10_000).unref())]);
      await client.destroy();
    },
  };
}

/** Turns discord.js login failures into messages that say what to do. */
function loginError(error: unknown): Error {
  const code = error && typeof error === 'object' && 'code' in error ? error.code : undefined;
  if (code === DiscordjsErrorCodes.TokenInvalid) {
    return new ConfigError('Discord rejected DISCORD_TOKEN — reset the token on the Bot tab and put the new one in .env', { cause: error });
  }
  const text = errorMessage(error);
  // @discordjs/ws reports gateway close 4014 as a plain Error("Used disallowed intents") without a
  // code (DiscordjsErrorCodes.DisallowedIntents is never thrown by login), so its text is all there is.
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- still what older discord.js paths throw; the text match covers the new one
  if (code === DiscordjsErrorCodes.DisallowedIntents || /disallowed intents/i.test(text)) {
    return new ConfigError('Discord refused the Message Content intent — enable "Message Content Intent" on the Bot tab of your application (docs/discord.md)', { cause: error });
  }
  return error instanceof Error ? error : new Error(text);
}
