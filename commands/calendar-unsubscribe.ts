/** `/calendar unsubscribe name`: stop following a calendar here (its records stay, as any record does). */
import { ApplicationCommandOptionType } from 'discord.js';
import { GROUPS, ephemeral, type Command } from '../src/discord/command.js';
import { commandAsker } from '../src/discord/time-commands.js';

export default {
  ...GROUPS.calendar,
  subcommand: { name: 'unsubscribe', description: 'Stop following a calendar here' },
  action: 'project-settings',
  options: [{ type: ApplicationCommandOptionType.String, name: 'name', description: 'Its name from /calendar list', required: true, max_length: 60 }],
  async execute(interaction, ctx) {
    const name = interaction.options.getString('name', true).trim();
    const done = ctx.services.calendar?.unsubscribe(commandAsker(interaction, ctx), name) ?? false;
    await interaction.reply(ephemeral(done ? `No longer following ${name}.` : `No calendar named ${name} here.`));
  },
} satisfies Command;
