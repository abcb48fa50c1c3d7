/** `/private show`: in a DM, what Charlie holds about you privately (summary, decisions, quotes, message count). */
import { ephemeral, GROUPS, type Command } from '../src/discord/command.js';
import { splitMessage } from '../src/discord/split.js';

export const NOT_IN_DM = 'Your private memory is only shown, forgotten or wiped in a DM with me — send me a direct message and use `/private` there.';

export default {
  ...GROUPS.private,
  subcommand: { name: 'show', description: 'What I hold about you from our DMs' },
  async execute(interaction, ctx) {
    const view = await ctx.assistant.private.privateMemory(ctx.place);
    if (!view) {
      await interaction.reply(ephemeral(NOT_IN_DM));
      return;
    }
    const { layers, messages } = view;
    const lines = [
      `**What I hold about you privately** (only here, in SQLite on the owner's machine; never in a server channel or the shared search):`,
      `• Messages kept: ${messages.count}${messages.first ? ` (${messages.first.slice(0, 10)} – ${(messages.last ?? '').slice(0, 10)})` : ''}`,
      `• Forgotten items kept from coming back: ${view.forgotten}`,
      `**Summary**\n${layers.summary.trim() || '(none)'}`,
      `**Decisions**\n${layers.decisions.map((d, i) => `${i + 1}. ${d.date}: ${d.text}`).join('\n') || '(none)'}`,
      `**Quotes**\n${layers.quotes.map((q, i) => `${i + 1}. "${q.text}" — ${q.speaker}, ${q.date}`).join('\n') || '(none)'}`,
      'Use `/private forget` to forget an item or messages, `/private wipe` to delete everything.',
    ];
    const [first, ...rest] = splitMessage(lines.join('\n'));
    await interaction.reply(ephemeral(first ?? ''));
    for (const part of rest) await interaction.followUp(ephemeral(part));
  },
} satisfies Command;
