/** `/calendar unsubscribe name`: stop following a calendar here (its records stay, as any record does). */
import { ApplicationCommandOptionType } from 'discord.js';
import { askerFor } from '../src/core/time/reminder-desk.js';
import { GROUPS, ephemeral, type Command } from '../src/discord/command.js';

export default {
  ...GROUPS.calendar,
  subcommand: { name: 'unsubscribe', description: 'Stop following a calendar here' },
  editsSharedMemory: true,
  options: [{ type: ApplicationCommandOptionType.String, name: 'name', description: 'Its name from /calendar list', required: true, max_length: 60 }],
  async execute(interaction, ctx) {
    const user = interaction.user;
    const name = interaction.options.getString('name', true).trim();
    const done = ctx.services.calendar?.unsubscribe(askerFor(ctx.place, user.globalName ?? user.username, user.id), name) ?? false;
    await interaction.reply(ephemeral(done ? `No longer following ${name}.` : `No calendar named ${name} here.`));
  },
} satisfies Command;
