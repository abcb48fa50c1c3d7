/**
 * A whole text posted to a channel outside a turn's renderer (voice replies and notices in the
 * project's text channel): bounded like a typed reply, pinging nobody.
 */
import { splitCapped } from './split.js';

/** Where a text can be posted: a discord.js sendable channel, or a test's recorder. */
export interface TextTarget {
  send(options: { content: string; allowedMentions: { parse: [] } }): Promise<unknown>;
}

/** Split for Discord, at most `maxMessages` messages (DISCORD_REPLY_MAX_MESSAGES), the last ending with "(reply cut: too long)" when cut. */
export async function postText(target: TextTarget, text: string, maxMessages: number): Promise<void> {
  for (const part of splitCapped(text, { maxMessages })) await target.send({ content: part, allowedMentions: { parse: [] } });
}
