/** `/project respond always|mention`: whether Charlie answers every message here or only when addressed. */
import { ApplicationCommandOptionType } from 'discord.js';
import { ephemeral, GROUPS, type Command } from '../src/discord/command.js';

export default {
  ...GROUPS.project,
  subcommand: { name: 'respond', description: 'Answer every message in this channel, or only when mentioned or replied to' },
  action: 'project-settings',
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
      await interaction.reply(ephemeral('In a private conversation I always answer.'));
      return;
    }
    const when = interaction.options.getString('when') as 'always' | 'mention' | null;
    const current = (await ctx.assistant.settings.projectConfig(ctx.place))?.respond ?? 'always';
    if (!when) {
      await interaction.reply(ephemeral(`Here I answer ${describe(current)}.`));
      return;
    }
    await ctx.assistant.settings.setRespond(ctx.place, when);
    await interaction.reply(ephemeral(`From now on I answer ${describe(when)}.`));
  },
} satisfies Command;

function describe(mode: 'always' | 'mention'): string {
  return mode === 'always' ? 'every message' : 'only when mentioned or replied to';
}
