/** Startup of the Discord front door: owner lookup and helpful errors for common setup mistakes. */
import { loadCommands } from '../../commands/index.js';
import { configSchema } from '../../src/config.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { startDiscord, type DiscordConfig } from '../../src/discord/bot.js';
import { startFakeDiscord, type FakeDiscord } from '../support/fake-discord/server.js';
import { FakeAssistant } from '../support/fake-assistant.js';

let fake: FakeDiscord | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const config = (f: FakeDiscord, token = f.token): DiscordConfig => ({
  ...configSchema.parse({}),
  DISCORD_TOKEN: token,
  DISCORD_API_URL: f.apiUrl,
  DISCORD_ALLOWED_GUILDS: [],
  DISCORD_ALLOWED_USERS: [],
  DISCORD_EDIT_INTERVAL_MS: 250,
  DISCORD_IMAGE_MAX_BYTES: 100_000,
  DISCORD_REPLY_MAX_MESSAGES: 5,
  DISCORD_ATTACHMENT_MAX_BYTES: 1000,
});

describe('startDiscord', () => {
  it('learns the application owner, who is then the only one served with empty allow-lists', async () => {
    fake = await startFakeDiscord();
    const bot = await startDiscord({ commands: await loadCommands(), config: config(fake), assistant: new FakeAssistant(), logger: silentLogger, acceptsImages: false });
    try {
      expect(bot.access.ownerIds).toEqual([fake.owner.id]);
      expect(bot.access.allows({ userId: fake.owner.id, guildId: '1' })).toBe(true);
      expect(bot.access.allows({ userId: fake.addUser('x').id })).toBe(false);
    } finally {
      await bot.stop();
    }
  });

  it('says what to do when the token is wrong', async () => {
    fake = await startFakeDiscord();
    const start = startDiscord({
      commands: await loadCommands(),
      config: config(fake, 'wrong-token-0123456789abcdefghij'),
      assistant: new FakeAssistant(),
      logger: silentLogger,
      acceptsImages: false,
    });
    await expect(start).rejects.toThrow(ConfigError);
    await expect(start).rejects.toThrow(/DISCORD_TOKEN/);
  });

  it('says what to do when the Message Content intent is not enabled', async () => {
    fake = await startFakeDiscord({ rejectPrivilegedIntents: true });
    const start = startDiscord({ commands: await loadCommands(), config: config(fake), assistant: new FakeAssistant(), logger: silentLogger, acceptsImages: false });
    await expect(start).rejects.toThrow(/Message Content Intent/);
  });

  it('refuses to start without a token', async () => {
    fake = await startFakeDiscord();
    await expect(
      startDiscord({ commands: await loadCommands(), config: { ...config(fake), DISCORD_TOKEN: undefined }, assistant: new FakeAssistant(), logger: silentLogger, acceptsImages: false }),
    ).rejects.toThrow(/DISCORD_TOKEN is not set/);
  });
});
