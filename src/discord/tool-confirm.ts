/**
 * Asks in the channel before an MCP tool with side effects runs: the server, the tool and the
 * exact arguments, with "Run it" and "Don't" buttons that only the person who asked can press.
 * No answer within the time (or the turn ending first) counts as no. The router leaves these
 * buttons alone (prefix `tool-confirm`): the waiting turn collects the press itself.
 */
import { randomUUID } from 'node:crypto';
import { ButtonStyle, ComponentType, MessageFlags, type ButtonInteraction, type Message, type SendableChannels } from 'discord.js';
import type { ConfirmRequest, ToolConfirm } from '../core/tools/tool.js';

export const CONFIRM_PREFIX = 'tool-confirm';
const ARGS_MAX = 1500;

/** The question, with the arguments as a code block (cut if very long, and then said so). */
export function confirmText(request: ConfirmRequest): string {
  const json = JSON.stringify(request.args, null, 2);
  const shown = json.length > ARGS_MAX ? `${json.slice(0, ARGS_MAX)}\n… (${json.length - ARGS_MAX} more characters)` : json;
  return `🛠️ May I run **${request.tool}** on **${request.server}**? (${request.reason})\n\`\`\`json\n${shown.replace(/```/g, '`\u200b``')}\n\`\`\``;
}

export function discordConfirm(channel: SendableChannels, askerId: string, timeoutMs = 120_000): ToolConfirm {
  return async (request, signal) => {
    const id = randomUUID().slice(0, 8);
    const text = confirmText(request);
    const row = {
      type: ComponentType.ActionRow,
      components: [
        { type: ComponentType.Button, style: ButtonStyle.Danger, label: 'Run it', custom_id: `${CONFIRM_PREFIX}:${id}:yes` },
        { type: ComponentType.Button, style: ButtonStyle.Secondary, label: "Don't", custom_id: `${CONFIRM_PREFIX}:${id}:no` },
      ],
    };
    // Listen before the question is sent: a press that arrives before `send` resolves (a fast
    // hand, a slow reply from Discord) would otherwise find no collector and be lost.
    if (signal?.aborted) return false; // the turn is over: nobody is left to act on the answer
    const collector = channel.createMessageComponentCollector({
      componentType: ComponentType.Button,
      filter: (i) => i.customId.startsWith(`${CONFIRM_PREFIX}:${id}:`),
      time: timeoutMs,
    });
    const press = new Promise<ButtonInteraction | null>((resolve) => {
      collector.on('collect', (i: ButtonInteraction) => {
        if (i.user.id !== askerId) {
          void i.reply({ content: 'Only the person who asked can answer this.', flags: MessageFlags.Ephemeral }).catch(() => undefined);
          return;
        }
        resolve(i);
        collector.stop('answered');
      });
      const onAbort = () => collector.stop('turn ended');
      collector.on('end', () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(null);
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    let message: Message;
    try {
      message = await channel.send({ content: text, components: [row] as never, allowedMentions: { parse: [] } });
    } catch (error) {
      collector.stop('not sent');
      throw error;
    }
    const click = await press;
    if (!click) {
      await message.edit({ content: `${text}\n⌛ no answer in time — not run`, components: [] }).catch(() => undefined);
      return false;
    }
    const yes = click.customId.endsWith(':yes');
    await click.update({ content: `${text}\n${yes ? '✅ allowed' : '✋ refused — not run'}`, components: [] }).catch(() => undefined);
    return yes;
  };
}
