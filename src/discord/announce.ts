/** Posts a line Charlie wants a project channel to see (the reflection report), outside any turn. */
import type { Client } from 'discord.js';

/** True when posted; false when the channel is unknown or not one Charlie can write to. */
export async function postToChannel(client: Client, channelId: string, text: string): Promise<boolean> {
  const channel = await client.channels.fetch(channelId).catch(() => null);
  if (!channel?.isSendable()) return false;
  await channel.send({ content: text.slice(0, 2000), allowedMentions: { parse: [] } });
  return true;
}
