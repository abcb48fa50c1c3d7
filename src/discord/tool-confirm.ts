/**
 * Asks in the channel before an MCP tool with side effects runs: the server, the tool and the
 * exact arguments, with "Run it" and "Don't" buttons that only the person who asked can press.
 * No answer within the time (or the turn ending first) counts as no. The router leaves these
 * buttons alone (prefix `tool-confirm`): the waiting turn collects the press itself.
 */
import { ButtonStyle, type SendableChannels } from 'discord.js';
import { askWithButtons } from './button-question.js';
import type { ConfirmRequest, ToolConfirm } from '../core/tools/tool.js';

export const CONFIRM_PREFIX = 'tool-confirm';
const ARGS_MAX = 1500;

/** The question, with the arguments as a code block (cut if very long, and then said so). */
export function confirmText(request: ConfirmRequest): string {
  const json = JSON.stringify(request.args, null, 2);
  const shown = json.length > ARGS_MAX ? `${json.slice(0, ARGS_MAX)}\n… (${json.length - ARGS_MAX} more characters)` : json;
  return `🛠️ May I run **${request.tool}** on **${request.server}**? (${request.reason})\n\`\`\`json\n${shown.replace(/```/g, '`\u200b``')}\n\`\`\``;
}

const CHOICES = [
  { answer: 'yes', label: 'Run it', style: ButtonStyle.Danger },
  { answer: 'no', label: "Don't", style: ButtonStyle.Secondary },
] as const;

export function discordConfirm(channel: SendableChannels, askerId: string, timeoutMs = 120_000): ToolConfirm {
  return async (request, signal) => {
    const text = confirmText(request);
    // the turn is over when the signal has fired: nobody is left to act on the answer
    const asked = await askWithButtons({ channel, askerId, text, choices: CHOICES, prefix: CONFIRM_PREFIX, timeoutMs, signal, refusal: 'Only the person who asked can answer this.' });
    if (!asked) return false;
    if (!asked.click) {
      await asked.message.edit({ content: `${text}\n⌛ no answer in time — not run`, components: [] }).catch(() => undefined);
      return false;
    }
    const yes = asked.answer === 'yes';
    await asked.click.update({ content: `${text}\n${yes ? '✅ allowed' : '✋ refused — not run'}`, components: [] }).catch(() => undefined);
    return yes;
  };
}
