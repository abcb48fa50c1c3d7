/**
 * Maps Discord to the core's places: a guild text channel is a project (keyed by guild and
 * channel id, so renames keep it and guilds never collide), a DM is the author's private place.
 * Also decides whether a message addresses Charlie.
 */
import type { Place } from '../core/place.js';

export interface ChannelRef {
  channelId: string;
  guildId: string | null;
  channelName: string | null;
}

export interface UserRef {
  id: string;
  name: string;
}

export function placeFor(channel: ChannelRef, user: UserRef): Place {
  if (!channel.guildId) return { kind: 'private', userId: user.id, userName: user.name };
  return {
    kind: 'project',
    origin: {
      name: channel.channelName || `channel-${channel.channelId}`,
      key: `discord:${channel.guildId}:${channel.channelId}`,
      discord: { guildId: channel.guildId, channelId: channel.channelId },
    },
  };
}

export interface AddressingFacts {
  botId: string;
  /** Ids of users mentioned explicitly (not via @everyone / @here / roles). */
  mentionedUserIds: readonly string[];
  /** Author id of the message this one replies to, when it is a reply. */
  repliedToAuthorId: string | null;
  isDM: boolean;
}

/** A DM, a direct mention of the bot user, or a reply to one of its messages; @everyone/@here never count. */
export function isAddressed(f: AddressingFacts): boolean {
  return f.isDM || f.mentionedUserIds.includes(f.botId) || f.repliedToAuthorId === f.botId;
}

/** Removes the bot's own mention from the text the model sees. */
export function stripBotMention(text: string, botId: string): string {
  return text
    .replace(new RegExp(`<@!?${botId}>`, 'g'), '')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

export function messageUrl(guildId: string | null, channelId: string, messageId: string): string {
  return `https://discord.com/channels/${guildId ?? '@me'}/${channelId}/${messageId}`;
}
