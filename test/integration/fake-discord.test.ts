import { Client, Events, GatewayIntentBits, Partials, type Message } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../support/fake-discord/server.js';

describe('fake Discord server with a real discord.js client', () => {
  let fake: FakeDiscord | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.destroy();
    await fake?.close();
    client = undefined;
    fake = undefined;
  });

  async function connect(heartbeatIntervalMs = 41_250) {
    fake = await startFakeDiscord({ heartbeatIntervalMs });
    const guild = fake.addGuild('home', ['general']);
    client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent, GatewayIntentBits.DirectMessages],
      partials: [Partials.Channel],
      rest: { api: fake.apiUrl },
    });
    const ready = new Promise<void>((resolve) => client!.once(Events.ClientReady, () => resolve()));
    await client.login(fake.token);
    await ready;
    return { fake, client, guild, channel: guild.channels[0]! };
  }

  it('logs in, sees the guild and channel, and round-trips a message', async () => {
    const { fake, client, guild, channel } = await connect();
    expect(client.user?.id).toBe(fake.bot.id);
    expect(client.guilds.cache.get(guild.id)?.channels.cache.get(channel.id)?.name).toBe('general');
    client.on(Events.MessageCreate, (m: Message) => {
      if (!m.author.bot) void m.reply(`echo: ${m.content}`);
    });
    const user = fake.addUser('alice');
    fake.postMessage(channel, user, 'hello');
    const replies = await fake.waitFor(() => {
      const r = fake.botMessagesIn(channel.id);
      return r.length ? r : null;
    });
    expect(replies[0]!.content).toBe('echo: hello');
  });

  it('answers heartbeats and resumes after a dropped connection, replaying missed events', async () => {
    const { fake, client, channel } = await connect(200);
    const seen: string[] = [];
    client.on(Events.MessageCreate, (m) => {
      if (!m.author.bot) seen.push(m.content);
    });
    await fake.waitFor(() => fake.gateway.received.filter((r) => r.op === 1).length >= 2, 3000, 'heartbeats');
    fake.gateway.disconnect();
    const user = fake.addUser('bob');
    fake.postMessage(channel, user, 'while away');
    await fake.waitFor(() => fake.gateway.resumes === 1, 8000, 'resume');
    await fake.waitFor(() => seen.includes('while away'), 3000, 'replayed message');
    expect(fake.gateway.identifies).toBe(1);
  });

  it('identifies again when the session cannot be resumed', async () => {
    const { fake, client, channel } = await connect();
    const seen: string[] = [];
    client.on(Events.MessageCreate, (m) => {
      if (!m.author.bot) seen.push(m.content);
    });
    fake.gateway.invalidateSession();
    fake.gateway.disconnect();
    await fake.waitFor(() => fake.gateway.identifies === 2 && fake.gateway.connected === 1, 15_000, 'a new session');
    fake.postMessage(channel, fake.addUser('dan'), 'new session');
    await fake.waitFor(() => seen.includes('new session'), 3000, 'message on the new session');
  });

  it('delivers DMs with a partial channel', async () => {
    const { fake, client } = await connect();
    const got: string[] = [];
    client.on(Events.MessageCreate, (m) => {
      if (!m.author.bot) got.push(`${m.channel.isDMBased()}:${m.content}`);
    });
    const user = fake.addUser('carol');
    fake.postMessage(fake.dmChannel(user), user, 'psst');
    await fake.waitFor(() => got.length > 0);
    expect(got).toEqual(['true:psst']);
  });
});
