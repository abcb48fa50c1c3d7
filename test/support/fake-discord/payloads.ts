/**
 * Builders for the Discord API v10 payloads the fake server sends (raw JSON, snake_case),
 * just complete enough for discord.js 14 to build its structures from them.
 */

const DISCORD_EPOCH = 1_420_070_400_000n;

/** Makes increasing, well-formed snowflakes (timestamp << 22 | counter). One per server instance. */
export class SnowflakeSource {
  private counter = 0n;
  next(): string {
    this.counter = (this.counter + 1n) & 0xfffn;
    return (((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) | this.counter).toString();
  }
}

export interface FakeUser {
  id: string;
  username: string;
  bot?: boolean;
  /** Guild permissions bitfield sent with this user's interactions (default: the @everyone set, no Manage Server). */
  permissions?: string;
  /** Role ids the member has. */
  roles?: string[];
}

/** The @everyone permissions of the fake guilds; Manage Server (0x20) is not among them. */
export const DEFAULT_PERMISSIONS = '1071698660929';
export const MANAGE_GUILD = 0x20n;

export interface FakeChannel {
  id: string;
  name: string;
  /** 0 = guild text, 1 = DM. */
  type: 0 | 1;
  guildId?: string;
}

export interface FakeGuild {
  id: string;
  name: string;
  ownerId: string;
  channels: FakeChannel[];
  /** Roles besides @everyone (no permissions of their own). */
  roles?: { id: string; name: string }[];
}

export interface FakeAttachment {
  id?: string;
  filename: string;
  url: string;
  content_type?: string;
  size?: number;
}

export type Json = Record<string, unknown>;

export function userPayload(u: FakeUser): Json {
  return { id: u.id, username: u.username, global_name: u.username, discriminator: '0', avatar: null, bot: u.bot ?? false, flags: 0 };
}

export function channelPayload(c: FakeChannel, recipient?: FakeUser): Json {
  if (c.type === 1) return { id: c.id, type: 1, last_message_id: null, recipients: recipient ? [userPayload(recipient)] : [] };
  return { id: c.id, type: 0, name: c.name, guild_id: c.guildId, position: 0, permission_overwrites: [], nsfw: false, topic: null, parent_id: null, rate_limit_per_user: 0 };
}

export function memberPayload(u: FakeUser): Json {
  return { user: userPayload(u), roles: u.roles ?? [], joined_at: new Date(0).toISOString(), deaf: false, mute: false, flags: 0, nick: null };
}

export function guildPayload(g: FakeGuild, members: FakeUser[]): Json {
  return {
    id: g.id,
    name: g.name,
    icon: null,
    owner_id: g.ownerId,
    unavailable: false,
    member_count: members.length,
    large: false,
    features: [],
    roles: [
      { id: g.id, name: '@everyone', permissions: '1071698660929', position: 0, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 },
      ...(g.roles ?? []).map((r, i) => ({ id: r.id, name: r.name, permissions: '0', position: i + 1, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 })),
    ],
    emojis: [],
    stickers: [],
    channels: g.channels.map((c) => channelPayload(c)),
    threads: [],
    members: members.map(memberPayload),
    voice_states: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    joined_at: new Date(0).toISOString(),
    premium_tier: 0,
    system_channel_flags: 0,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    mfa_level: 0,
    nsfw_level: 0,
    preferred_locale: 'en-US',
  };
}

export interface MessageInit {
  id: string;
  channel: FakeChannel;
  author: FakeUser;
  content: string;
  /** Users mentioned (their `<@id>` should also appear in `content`). */
  mentions?: FakeUser[];
  mentionEveryone?: boolean;
  /** The message this one replies to (full payload). */
  replyTo?: Json;
  attachments?: FakeAttachment[];
  components?: unknown[];
  flags?: number;
}

export function messagePayload(m: MessageInit): Json {
  const p: Json = {
    id: m.id,
    type: m.replyTo ? 19 : 0,
    channel_id: m.channel.id,
    channel_type: m.channel.type,
    author: userPayload(m.author),
    content: m.content,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: m.mentionEveryone ?? false,
    mentions: (m.mentions ?? []).map(userPayload),
    mention_roles: [],
    attachments: (m.attachments ?? []).map((a, i) => ({
      id: a.id ?? `${m.id}${i}`,
      filename: a.filename,
      url: a.url,
      proxy_url: a.url,
      size: a.size ?? 0,
      content_type: a.content_type,
    })),
    embeds: [],
    components: m.components ?? [],
    pinned: false,
    flags: m.flags ?? 0,
  };
  if (m.channel.guildId) {
    p.guild_id = m.channel.guildId;
    if (!m.author.bot) p.member = { roles: m.author.roles ?? [], joined_at: new Date(0).toISOString(), deaf: false, mute: false, flags: 0 };
  }
  if (m.replyTo) {
    p.message_reference = { type: 0, message_id: m.replyTo.id, channel_id: m.channel.id, guild_id: m.channel.guildId };
    p.referenced_message = m.replyTo;
  }
  return p;
}

export type CommandOptionJson = { type: number; name: string; value?: string | number | boolean; options?: CommandOptionJson[] };

export interface InteractionInit {
  id: string;
  token: string;
  applicationId: string;
  channel: FakeChannel;
  user: FakeUser;
  type: 2 | 3 | 5;
  data: Json;
  message?: Json;
}

export function interactionPayload(i: InteractionInit): Json {
  const p: Json = {
    id: i.id,
    application_id: i.applicationId,
    type: i.type,
    data: i.data,
    channel_id: i.channel.id,
    channel: channelPayload(i.channel, i.user),
    token: i.token,
    version: 1,
    app_permissions: '1071698660929',
    locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: {},
    context: i.channel.guildId ? 0 : 1,
    attachment_size_limit: 10_000_000,
  };
  if (i.channel.guildId) {
    p.guild_id = i.channel.guildId;
    p.guild_locale = 'en-US';
    p.member = { ...memberPayload(i.user), permissions: i.user.permissions ?? DEFAULT_PERMISSIONS };
  } else {
    p.user = userPayload(i.user);
  }
  if (i.message) p.message = i.message;
  return p;
}
