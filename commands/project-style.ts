/** `/project style [text]`: shows or sets how Charlie answers in this channel (or your DMs). */
import { ApplicationCommandOptionType } from 'discord.js';
import { ephemeral, GROUPS, type Command } from '../src/discord/command.js';

export default {
  ...GROUPS.project,
  subcommand: { name: 'style', description: 'Show or set the response style Charlie uses here' },
  action: 'project-settings',
  options: [{ type: ApplicationCommandOptionType.String, name: 'text', description: 'e.g. "short answers, British spelling"; empty shows the current style', required: false, max_length: 1000 }],
  async execute(interaction, ctx) {
    const text = interaction.options.getString('text');
    if (text === null) {
      const view = await ctx.assistant.settings.showMemory(ctx.place);
      await interaction.reply(ephemeral(`Current style: ${view.style.trim() ? `“${view.style.trim()}”` : 'default'}`));
      return;
    }
    await ctx.assistant.settings.setStyle(ctx.place, text.trim());
    await interaction.reply(ephemeral(text.trim() ? `Style set: “${text.trim()}”` : 'Style reset to the default.'));
  },
} satisfies Command;
