/**
 * Asks in the channel before an MCP tool with side effects runs: the server, the tool and the
 * exact arguments, with "Run it" and "Don't" buttons that only the person who asked can press.
 * No answer within the time (or the turn ending first) counts as no. The router leaves these
 * buttons alone (prefix `tool-confirm`): the waiting turn collects the press itself.
 */
import { randomUUID } from 'node:crypto';
import { ButtonStyle, ComponentType, type Message, type SendableChannels } from 'discord.js';
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
    const message: Message = await channel.send({ content: text, components: [row] as never, allowedMentions: { parse: [] } });
    const settle = (note: string) => message.edit({ content: `${text}\n${note}`, components: [] }).catch(() => undefined);
    try {
      const press = message.awaitMessageComponent({
        componentType: ComponentType.Button,
        filter: (i) => i.user.id === askerId && i.customId.startsWith(`${CONFIRM_PREFIX}:${id}:`),
        time: timeoutMs,
      });
      const ended = new Promise<null>((resolve) => signal?.addEventListener('abort', () => resolve(null), { once: true }));
      const click = await Promise.race([press, ended]);
      if (!click) {
        await settle('⌛ the answer ran out of time — not run');
        return false;
      }
      const yes = click.customId.endsWith(':yes');
      await click.update({ content: `${text}\n${yes ? '✅ allowed' : '✋ refused — not run'}`, components: [] }).catch(() => undefined);
      return yes;
    } catch {
      await settle('⌛ no answer — not run');
      return false;
    }
  };
}
