/**
 * `/memory reflect`: reflects on this channel's pages now, on the local memory lane — merges
 * duplicate records, distils rules, expires past commitments, settles old episodes, proposes
 * contradictions for review — and answers with the report. With REFLECT_REPORT=channel the
 * report is posted for the channel to see; otherwise only the person who asked sees it (and
 * the log has it). Changes shared memory, so it needs an editor.
 */
import { MessageFlags } from 'discord.js';
import { reportText } from '../src/core/reflection/reflection.js';
import { GROUPS, type Command } from '../src/discord/command.js';

export default {
  ...GROUPS.memory,
  subcommand: { name: 'reflect', description: 'Curate this channel’s memory now: merge duplicates, distil rules, expire commitments' },
  action: 'edit-memory',
  async execute(interaction, ctx) {
    const inChannel = ctx.services.reflectReport === 'channel' && ctx.place.kind === 'project';
    await interaction.deferReply(inChannel ? {} : { flags: MessageFlags.Ephemeral });
    const report = await ctx.assistant.memory.reflect(ctx.place);
    await interaction.editReply({ content: `🪞 ${reportText(report)}`.slice(0, 2000), allowedMentions: { parse: [] } });
  },
} satisfies Command;
