/**
 * Chaos (issue 13, item 10): 60 messages across 10 channels through the fake Discord, with the
 * real Discord front door, the real assistant and the real Markdown store, and a model that
 * answers after random delays. Each message gets exactly one reply, and each channel's replies
 * come in the order its messages were sent; each project's archive holds its own messages only.
 */
import { loadCommands } from '../../commands/index.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatChunk, ChatModel, ChatRequest } from '../../src/core/ports/index.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { configSchema } from '../../src/config.js';
import { startDiscord, type DiscordBot } from '../../src/discord/bot.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { makeAssistant } from '../support/assistant-fixture.js';
import { startFakeDiscord, type FakeDiscord, type Json } from '../support/fake-discord/server.js';

const CHANNELS = 10;
const PER_CHANNEL = 6;
const SEED = 7;

/** Answers "re: <last user text>" after a pseudo-random delay (seeded), streaming in pieces. */
class JitteryModel implements ChatModel<'local'> {
  readonly id = 'jittery';
  readonly locality = 'local' as const;
  readonly acceptsImages = false;
  private state = SEED;
  private next(): number {
    this.state = (this.state * 1103515245 + 12345) % 2147483648;
    return this.state / 2147483648;
  }
  async *stream(request: ChatRequest): AsyncIterable<ChatChunk> {
    const last = [...request.messages].reverse().find((m) => m.role === 'user');
    const text = typeof last?.content === 'string' ? last.content : '';
    const asked = /m\d+ in c\d+/.exec(text)?.[0] ?? '?';
    await new Promise((r) => setTimeout(r, Math.floor(this.next() * 60)));
    yield { type: 'text', text: 're: ' };
    await new Promise((r) => setTimeout(r, Math.floor(this.next() * 30)));
    yield { type: 'text', text: asked };
    yield { type: 'done', finishReason: 'stop' };
  }
}

let fake: FakeDiscord | undefined;
let bot: DiscordBot | undefined;
let root: string | undefined;
afterEach(async () => {
  await bot?.stop();
  await fake?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('60 messages across 10 channels', () => {
  it('one reply each, in order per channel, each archived in its own project', async () => {
    root = await mkdtemp(join(tmpdir(), 'charlie-chaos-discord-'));
    fake = await startFakeDiscord();
    const names = Array.from({ length: CHANNELS }, (_, c) => `c${c}`);
    const guild = fake.addGuild('home', names);
    const alice = fake.addUser('alice');
    const store = new FileProjectStore({ projectsDir: root, clock: { now: () => new Date() } });
    const { assistant } = makeAssistant({ model: new JitteryModel(), memoryModel: null, store });
    bot = await startDiscord({
      commands: await loadCommands(),
      config: {
        ...configSchema.parse({}),
        DISCORD_TOKEN: fake.token,
        DISCORD_API_URL: fake.apiUrl,
        DISCORD_ALLOWED_GUILDS: [guild.id],
        DISCORD_ALLOWED_USERS: [alice.id],
        DISCORD_EDIT_INTERVAL_MS: 50,
        DISCORD_ATTACHMENT_MAX_BYTES: 1000,
      },
      assistant,
      logger: silentLogger,
      acceptsImages: false,
    });
    const mention = `<@${fake.bot.id}>`;
    // Interleaved: m0 in every channel, then m1 in every channel, …
    for (let m = 0; m < PER_CHANNEL; m++) {
      for (const channel of guild.channels) fake.postMessage(channel, alice, `${mention} m${m} in ${channel.name}`, { mentions: [fake.bot] });
    }
    const f = fake;
    const done = (channelId: string) => f.botMessagesIn(channelId).filter((r) => /^re: m\d+ in c\d+$/.test(String(r.content)));
    await f.waitFor(() => guild.channels.every((c) => done(c.id).length >= PER_CHANNEL), 45_000, 'a reply to every message');
    for (const channel of guild.channels) {
      const replies: Json[] = f.botMessagesIn(channel.id);
      expect(replies.map((r) => String(r.content))).toEqual(Array.from({ length: PER_CHANNEL }, (_, m) => `re: m${m} in ${channel.name}`));
      // Each reply answers its own message.
      const asked = f
        .messagesIn(channel.id)
        .filter((m) => (m.author as Json).id === alice.id)
        .map((m) => String(m.id));
      expect(replies.map((r) => String((r.message_reference as Json | undefined)?.message_id))).toEqual(asked);
    }
    // Each channel is its own project, whose archive holds its messages and replies in order.
    for (const name of names) {
      const log = await store.recentLog(name, 100);
      expect(log.filter((e) => e.role === 'user').map((e) => /m\d+ in c\d+/.exec(e.text)?.[0])).toEqual(Array.from({ length: PER_CHANNEL }, (_, m) => `m${m} in ${name}`));
      expect(log.filter((e) => e.role === 'assistant')).toHaveLength(PER_CHANNEL);
    }
  }, 60_000);
});
