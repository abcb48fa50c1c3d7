/** `/calendar agenda [when]`: what is on today, tomorrow, this week or on a day, from the calendars followed here. */
import { ApplicationCommandOptionType } from 'discord.js';
import { GROUPS, ephemeral, type Command } from '../src/discord/command.js';
import { commandAsker } from '../src/discord/time-commands.js';

export default {
  ...GROUPS.calendar,
  subcommand: { name: 'agenda', description: 'What is on: today, tomorrow, this week, or a day' },
  options: [{ type: ApplicationCommandOptionType.String, name: 'when', description: 'today (default), tomorrow, this week, Friday, 5 December', required: false, max_length: 60 }],
  async execute(interaction, ctx) {
    const calendar = ctx.services.calendar;
    const text = calendar ? calendar.agenda(commandAsker(interaction, ctx), interaction.options.getString('when') ?? 'today') : 'Calendars are not running right now.';
    await interaction.reply(ephemeral(`📅 ${text}`.slice(0, 2000)));
  },
} satisfies Command;
