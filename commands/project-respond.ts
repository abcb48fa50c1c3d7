/** `/project respond always|mention`: whether Charlie answers every message here or only when addressed. */
import { ApplicationCommandOptionType, MessageFlags } from 'discord.js';
import type { Command } from '../src/discord/command.js';

export default {
  name: 'project',
  description: 'Settings of this channel’s project',
  subcommand: { name: 'respond', description: 'Answer every message in this channel, or only when mentioned or replied to' },
  editsSharedMemory: true,
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'when',
      description: 'always = every message; mention = only when mentioned or replied to',
      required: false,
      choices: [
        { name: 'always', value: 'always' },
        { name: 'only when mentioned', value: 'mention' },
      ],
    },
  ],
  async execute(interaction, ctx) {
    if (ctx.place.kind === 'private') {
      await interaction.reply({ content: 'In a private conversation I always answer.', flags: MessageFlags.Ephemeral });
      return;
    }
    const when = interaction.options.getString('when') as 'always' | 'mention' | null;
    const current = (await ctx.assistant.projectConfig(ctx.place))?.respond ?? 'always';
    if (!when) {
      await interaction.reply({ content: `Here I answer ${describe(current)}.`, flags: MessageFlags.Ephemeral });
      return;
    }
    await ctx.assistant.setRespond(ctx.place, when);
    await interaction.reply({ content: `From now on I answer ${describe(when)}.`, flags: MessageFlags.Ephemeral });
  },
} satisfies Command;

function describe(mode: 'always' | 'mention'): string {
  return mode === 'always' ? 'every message' : 'only when mentioned or replied to';
}
