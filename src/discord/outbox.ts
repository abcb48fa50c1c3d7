/**
 * Delivers the scheduler's posts in Discord: in the channel a reminder was set in, or in the DM
 * of the person it belongs to, with its buttons (`remind:<action>:<job id>`, handled by
 * commands/remind-set.ts). The occurrence's idempotency key becomes an enforced nonce, so a
 * redelivery after a crash does not post twice.
 */
import { createHash } from 'node:crypto';
import { ActionRowBuilder, ButtonBuilder, ButtonStyle, type Client } from 'discord.js';
import type { Place } from '../core/place.js';
import { ACTION_LABELS, type Outbox, type OutboxMessage } from '../core/time/outbox.js';

export const TIME_BUTTON_PREFIX = 'remind';

export class DiscordTimeOutbox implements Outbox {
  constructor(private readonly client: Client) {}

  async post(place: Place, message: OutboxMessage): Promise<void> {
    const channel = await this.channelOf(place);
    const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
      message.actions.map((a) =>
        new ButtonBuilder()
          .setCustomId(`${TIME_BUTTON_PREFIX}:${a}:${message.jobId}`)
          .setLabel(ACTION_LABELS[a])
          .setStyle(a === 'done' ? ButtonStyle.Success : ButtonStyle.Secondary),
      ),
    );
    const content = `${message.mention ? `<@${message.mention}> ` : ''}${message.text}`.slice(0, 2000);
    const nonce = createHash('sha256').update(message.key).digest('hex').slice(0, 25);
    await channel.send({
      content,
      components: message.actions.length ? [row] : [],
      nonce,
      enforceNonce: true,
      allowedMentions: message.mention ? { users: [message.mention] } : { parse: [] },
    });
  }

  private async channelOf(place: Place) {
    if (place.kind === 'private') return (await this.client.users.fetch(place.userId)).createDM();
    const id = place.origin.discord?.channelId;
    const channel = id ? await this.client.channels.fetch(id).catch(() => null) : null;
    if (!channel?.isSendable()) throw new Error(`channel ${id ?? place.origin.key} cannot be posted to`);
    return channel;
  }
}
