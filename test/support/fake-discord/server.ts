/**
 * A local fake Discord (REST + gateway on one loopback port) that a real discord.js Client
 * talks to: `new Client({ rest: { api: fake.apiUrl } })`. discord.js reads the gateway URL
 * from GET /gateway/bot. Tests inject MESSAGE_CREATE / INTERACTION_CREATE and inspect the
 * REST calls the bot made and the messages as they look after edits.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeGateway } from './gateway.js';
import {
  SnowflakeSource,
  guildPayload,
  interactionPayload,
  messagePayload,
  userPayload,
  type CommandOptionJson,
  type FakeAttachment,
  type FakeChannel,
  type FakeGuild,
  type FakeUser,
  type Json,
} from './payloads.js';
import { routeRest, type RestCall } from './rest.js';

export type { FakeChannel, FakeGuild, FakeUser, Json, RestCall, FakeAttachment };

export interface FakeDiscordOptions {
  token?: string;
  heartbeatIntervalMs?: number;
  botName?: string;
  /** Refuse IDENTIFY with the Message Content intent (as Discord does when it is not enabled); the application's flags then lack it too. */
  rejectPrivilegedIntents?: boolean;
}

export interface InteractionRecord {
  id: string;
  token: string;
  /** Callback bodies in order: { type, data }. type 4 reply, 5 defer, 6/7 update, 9 modal. */
  callbacks: Json[];
  /** The original response message (after edits), when there is one. */
  original: Json | null;
  followups: Json[];
  /** The message whose component was used (a type 7 callback updates it, as Discord does). */
  messageId?: string;
}

export class FakeDiscord {
  readonly token: string;
  readonly ids = new SnowflakeSource();
  readonly bot: FakeUser;
  readonly owner: FakeUser;
  readonly users = new Map<string, FakeUser>();
  readonly guilds = new Map<string, FakeGuild>();
  readonly channels = new Map<string, FakeChannel>();
  /** Every message by id, as it is now (bot messages after their edits). */
  readonly messages = new Map<string, Json>();
  /** Every REST call the client made, in order. */
  readonly calls: RestCall[] = [];
  readonly interactions = new Map<string, InteractionRecord>();
  readonly registeredCommands = new Map<string, Json[]>();
  /** Interaction token → channel id (where its responses appear). */
  readonly interactionChannels = new Map<string, string>();
  /** Users whose DMs are closed: the bot's messages to them are refused (403, code 50007), as Discord does. */
  readonly closedDms = new Set<string>();
  /** Files served at /attachments/<name> (the CDN stand-in). */
  readonly files = new Map<string, { body: Buffer; type: string }>();
  readonly gateway: FakeGateway;
  /** Application flags as GET /applications/@me reports them: GATEWAY_MESSAGE_CONTENT_LIMITED (1 << 19) unless the intent is off. */
  readonly applicationFlags: number;
  private server: Server | null = null;
  private port = 0;

  constructor(options: FakeDiscordOptions = {}) {
    this.token = options.token ?? 'fake-token-0123456789abcdefghijklmnopqrstuvwxyz';
    this.bot = { id: this.ids.next(), username: options.botName ?? 'Charlie', bot: true };
    this.owner = this.addUser('owner');
    this.applicationFlags = options.rejectPrivilegedIntents ? 0 : 1 << 19;
    this.users.set(this.bot.id, this.bot);
    this.gateway = new FakeGateway(
      {
        token: this.token,
        heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
        rejectPrivilegedIntents: options.rejectPrivilegedIntents,
        ready: () => ({
          v: 10,
          user: { ...userPayload(this.bot), verified: true, mfa_enabled: false },
          guilds: [...this.guilds.values()].map((g) => ({ id: g.id, unavailable: true })),
          shard: [0, 1],
          application: { id: this.bot.id, flags: 0 },
          private_channels: [],
          relationships: [],
        }),
        afterReady: () => [...this.guilds.values()].map((g) => ({ t: 'GUILD_CREATE', d: guildPayload(g, [this.bot, ...this.users.values()]) })),
      },
      () => this.gatewayUrl,
    );
  }

  get apiUrl(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }
  get gatewayUrl(): string {
    return `ws://127.0.0.1:${this.port}/gateway`;
  }
  get applicationId(): string {
    return this.bot.id;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => void this.onRequest(req, res));
    server.on('upgrade', (req, socket, head) => this.gateway.handleUpgrade(req, socket, head));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    await this.gateway.close();
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  addUser(username: string): FakeUser {
    const user = { id: this.ids.next(), username };
    this.users.set(user.id, user);
    return user;
  }

  /** Adds a guild with text channels; call before the client logs in (it arrives as GUILD_CREATE). */
  addGuild(name: string, channelNames: string[]): FakeGuild {
    const id = this.ids.next();
    const guild: FakeGuild = { id, name, ownerId: this.owner.id, channels: [] };
    for (const c of channelNames) {
      const channel: FakeChannel = { id: this.ids.next(), name: c, type: 0, guildId: id };
      guild.channels.push(channel);
      this.channels.set(channel.id, channel);
    }
    this.guilds.set(id, guild);
    return guild;
  }

  dmChannel(user: FakeUser): FakeChannel {
    const existing = [...this.channels.values()].find((c) => c.type === 1 && c.name === `dm-${user.id}`);
    if (existing) return existing;
    const channel: FakeChannel = { id: this.ids.next(), name: `dm-${user.id}`, type: 1 };
    this.channels.set(channel.id, channel);
    return channel;
  }

  /** Serves a file like Discord's CDN; returns the attachment to pass to `postMessage`. */
  addAttachment(filename: string, body: string | Buffer, contentType: string): FakeAttachment {
    const buf = typeof body === 'string' ? Buffer.from(body) : body;
    this.files.set(filename, { body: buf, type: contentType });
    return { filename, url: `http://127.0.0.1:${this.port}/attachments/${encodeURIComponent(filename)}`, content_type: contentType, size: buf.length };
  }

  /** A user posts a message; it is dispatched as MESSAGE_CREATE. Returns the payload. */
  postMessage(channel: FakeChannel, author: FakeUser, content: string, extra: { mentions?: FakeUser[]; mentionEveryone?: boolean; replyTo?: string; attachments?: FakeAttachment[] } = {}): Json {
    const replyTo = extra.replyTo ? this.messages.get(extra.replyTo) : undefined;
    const payload = messagePayload({ id: this.ids.next(), channel, author, content, ...extra, replyTo });
    this.messages.set(String(payload.id), payload);
    this.gateway.dispatch('MESSAGE_CREATE', payload);
    return payload;
  }

  /** Re-sends an earlier MESSAGE_CREATE as it was (a duplicate delivery). */
  redeliver(payload: Json): void {
    this.gateway.dispatch('MESSAGE_CREATE', payload);
  }

  /**
   * A user runs a slash command, e.g. ('memory', [{ type: 1, name: 'show' }]). An attachment
   * option's value is the id of an attachment in `attachments` (Discord's `resolved` data).
   */
  runCommand(channel: FakeChannel, user: FakeUser, name: string, options: CommandOptionJson[] = [], attachments: Record<string, FakeAttachment> = {}): InteractionRecord {
    const resolved = Object.keys(attachments).length ? { resolved: { attachments: Object.fromEntries(Object.entries(attachments).map(([id, a]) => [id, { id, ...a }])) } } : {};
    return this.interact(channel, user, 2, { id: this.ids.next(), name, type: 1, options, ...resolved });
  }

  /** A user presses a button on a message. */
  pressButton(channel: FakeChannel, user: FakeUser, message: Json, customId: string): InteractionRecord {
    return this.interact(channel, user, 3, { custom_id: customId, component_type: 2 }, message);
  }

  /** A user submits a modal with text inputs. */
  submitModal(channel: FakeChannel, user: FakeUser, customId: string, fields: Record<string, string>): InteractionRecord {
    const components = Object.entries(fields).map(([id, value]) => ({ type: 1, components: [{ type: 4, custom_id: id, value }] }));
    return this.interact(channel, user, 5, { custom_id: customId, components });
  }

  /** Messages in a channel, oldest first (current content after edits). */
  messagesIn(channelId: string): Json[] {
    return [...this.messages.values()].filter((m) => m.channel_id === channelId);
  }

  /** Messages the bot posted in a channel (not interaction responses). */
  botMessagesIn(channelId: string): Json[] {
    return this.messagesIn(channelId).filter((m) => (m.author as Json).id === this.bot.id && !m.interaction_token);
  }

  callsTo(method: string, pattern: RegExp): RestCall[] {
    return this.calls.filter((c) => c.method === method && pattern.test(c.path));
  }

  /** Polls until `check` returns a truthy value (or throws after `timeoutMs`). */
  async waitFor<T>(check: () => T | undefined | null | false, timeoutMs = 5000, what = 'condition'): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value) return value;
      if (Date.now() > end) throw new Error(`fake discord: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 15));
    }
  }

  private interact(channel: FakeChannel, user: FakeUser, type: 2 | 3 | 5, data: Json, message?: Json): InteractionRecord {
    const id = this.ids.next();
    const record: InteractionRecord = { id, token: `itoken-${id}`, callbacks: [], original: null, followups: [], ...(message ? { messageId: String(message.id) } : {}) };
    this.interactions.set(record.token, record);
    this.interactionChannels.set(record.token, channel.id);
    const payload = interactionPayload({ id, token: record.token, applicationId: this.applicationId, channel, user, type, data, message });
    this.gateway.dispatch('INTERACTION_CREATE', payload);
    return record;
  }

  private readonly holds: { method: string; pattern: RegExp; released: Promise<void> }[] = [];

  /**
   * Holds the answers to matching REST calls (the call itself is handled at once, so its message
   * exists) until the returned function is called: a slow Discord, as the bot sees it.
   */
  holdReplies(method: string, pattern: RegExp): () => void {
    let release = () => {};
    const hold = { method, pattern, released: new Promise<void>((resolve) => (release = resolve)) };
    this.holds.push(hold);
    return () => {
      this.holds.splice(this.holds.indexOf(hold), 1);
      release();
    };
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/attachments/')) {
      const file = this.files.get(decodeURIComponent(url.pathname.slice('/attachments/'.length)));
      if (!file) {
        reply(res, 404, { message: 'not found' });
        return;
      }
      res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length }).end(file.body);
      return;
    }
    const path = url.pathname.replace(/^\/api(\/v\d+)?/, '');
    let body: unknown = null;
    if (raw && String(req.headers['content-type']).includes('application/json')) body = JSON.parse(raw);
    const call: RestCall = { method: req.method ?? 'GET', path, query: url.searchParams, body: body as Json | null };
    this.calls.push(call);
    if (req.headers.authorization !== `Bot ${this.token}` && !path.startsWith('/interactions/') && !path.startsWith('/webhooks/')) {
      reply(res, 401, { message: '401: Unauthorized', code: 0 });
      return;
    }
    const out = routeRest(this, call);
    const hold = this.holds.find((h) => h.method === call.method && h.pattern.test(call.path));
    if (hold) await hold.released;
    reply(res, out.status, out.body);
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  if (status === 204 || body === undefined) {
    res.writeHead(204).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  return new FakeDiscord(options).start();
}
