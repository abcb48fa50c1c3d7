/** `/project distill`: distils the conversation into summary / decisions / quotes now. */
import { MessageFlags } from 'discord.js';
import { GROUPS, type Command } from '../src/discord/command.js';

export default {
  ...GROUPS.project,
  subcommand: { name: 'distill', description: 'Update the summary, decisions and quotes from the conversation now' },
  action: 'project-settings',
  async execute(interaction, ctx) {
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const outcome = await ctx.assistant.memory.distillNow(ctx.place);
    const content = outcome.error
      ? `Distillation failed: ${outcome.error.slice(0, 300)}`
      : outcome.ran
        ? `Distilled ${outcome.messages} message${outcome.messages === 1 ? '' : 's'} ✓ — see \`/memory show\`.`
        : 'Nothing new to distil.';
    await interaction.editReply({ content, allowedMentions: { parse: [] } });
  },
} satisfies Command;
