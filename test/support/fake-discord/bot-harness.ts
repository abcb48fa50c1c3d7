/** Starts the real Discord front door (discord.js client) against the fake Discord server. */
import { loadCommands } from '../../../commands/index.js';
import { afterEach } from 'vitest';
import { configSchema } from '../../../src/config.js';
import type { AssistantApi } from '../../../src/core/assistant-api.js';
import { silentLogger, type Logger } from '../../../src/core/ports/index.js';
import { startDiscord, type DiscordBot, type DiscordConfig } from '../../../src/discord/bot.js';
import type { DiscordServices } from '../../../src/discord/command.js';
import { DEFAULT_PERMISSIONS, MANAGE_GUILD } from './payloads.js';
import { startFakeDiscord, type FakeChannel, type FakeDiscord, type FakeGuild, type FakeUser, type InteractionRecord, type Json } from './server.js';

export interface BotHarness {
  fake: FakeDiscord;
  bot: DiscordBot;
  guild: FakeGuild;
  /** `general` and `kitchen` in the allowed guild. */
  general: FakeChannel;
  kitchen: FakeChannel;
  /** A guild that is not allow-listed, with a channel `lobby`. */
  otherGuild: FakeGuild;
  /** Allow-listed, with Manage Server: may change shared memory. */
  alice: FakeUser;
  /** Allow-listed, without Manage Server or the editor role: may read, not change, shared memory. */
  bob: FakeUser;
  stranger: FakeUser;
  close(): Promise<void>;
}

export interface HarnessOptions {
  assistant: AssistantApi;
  acceptsImages?: boolean;
  editIntervalMs?: number;
  heartbeatIntervalMs?: number;
  logger?: Logger;
  services?: DiscordServices;
  config?: Partial<DiscordConfig>;
  /** Extra roles of the allowed guild. */
  guildRoles?: { id: string; name: string }[];
  transcribeAudio?: import('../../../src/discord/message-handler.js').MessageHandlerDeps['transcribeAudio'];
}

export async function startBotHarness(options: HarnessOptions): Promise<BotHarness> {
  const fake = await startFakeDiscord({ heartbeatIntervalMs: options.heartbeatIntervalMs });
  const guild = fake.addGuild('home', ['general', 'kitchen']);
  if (options.guildRoles) guild.roles = options.guildRoles;
  const otherGuild = fake.addGuild('elsewhere', ['lobby']);
  const alice = fake.addUser('alice');
  alice.permissions = String(BigInt(DEFAULT_PERMISSIONS) | MANAGE_GUILD);
  const bob = fake.addUser('bob');
  const stranger = fake.addUser('stranger');
  const config: DiscordConfig = {
    ...configSchema.parse({}),
    DISCORD_TOKEN: fake.token,
    DISCORD_API_URL: fake.apiUrl,
    DISCORD_ALLOWED_GUILDS: [guild.id],
    DISCORD_ALLOWED_USERS: [alice.id, bob.id],
    DISCORD_EDIT_INTERVAL_MS: options.editIntervalMs ?? 250,
    DISCORD_ATTACHMENT_MAX_BYTES: 1000,
    DISCORD_IMAGE_MAX_BYTES: 100_000,
    DISCORD_REPLY_MAX_MESSAGES: 5,
    ...options.config,
  };
  let bot: DiscordBot;
  try {
    bot = await startDiscord({
      commands: await loadCommands(),
      config,
      assistant: options.assistant,
      logger: options.logger ?? silentLogger,
      acceptsImages: options.acceptsImages ?? false,
      services: options.services,
      transcribeAudio: options.transcribeAudio,
    });
  } catch (error) {
    await fake.close();
    throw error;
  }
  return {
    fake,
    bot,
    guild,
    general: guild.channels[0]!,
    kitchen: guild.channels[1]!,
    otherGuild,
    alice,
    bob,
    stranger,
    async close() {
      await bot.stop();
      await fake.close();
    },
  };
}

/** Bot harnesses for one test file: each one started is closed after its test. */
export function botHarnesses(): (options: HarnessOptions) => Promise<BotHarness> {
  const open: BotHarness[] = [];
  afterEach(async () => {
    for (const h of open.splice(0)) await h.close();
  });
  return async (options) => {
    const h = await startBotHarness(options);
    open.push(h);
    return h;
  };
}

/** A subcommand with its options, as Discord sends it: `runCommand(channel, user, 'memory', subcommand('show'))`. */
export const subcommand = (name: string, options: Json[] = []) => [{ type: 1, name, options }] as never;

/** Discord's flag on a message only its recipient sees. */
export const EPHEMERAL = 64;

/** The first answer to an interaction, once the bot has finished handling it. */
export async function firstCallback(h: BotHarness, record: InteractionRecord): Promise<Json> {
  const cb = await h.fake.waitFor(() => record.callbacks[0], 5000, 'interaction callback');
  await h.bot.idle();
  return cb;
}
