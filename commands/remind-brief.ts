/**
 * `/remind brief [time]`: the morning brief, opt-in — every day at that time (your zone), here:
 * today's events, the reminders due today and the commitments due. `off` turns it off; without
 * a time it shows today's brief now.
 */
import { ApplicationCommandOptionType } from 'discord.js';
import { GROUPS, ephemeral, type Command } from '../src/discord/command.js';
import { commandAsker } from '../src/discord/time-commands.js';

export default {
  ...GROUPS.remind,
  subcommand: { name: 'brief', description: 'A morning brief every day at a time (e.g. 07:30), here; off turns it off' },
  options: [{ type: ApplicationCommandOptionType.String, name: 'time', description: 'HH:MM in your time zone, or off (left out: today’s brief now)', required: false, max_length: 10 }],
  async execute(interaction, ctx) {
    const brief = ctx.services.brief;
    if (!brief) {
      await interaction.reply(ephemeral('The morning brief is not running right now.'));
      return;
    }
    const asker = commandAsker(interaction, ctx);
    const time = interaction.options.getString('time');
    await interaction.reply(ephemeral((time ? brief.set(asker, time) : await brief.text(asker)).slice(0, 2000)));
  },
} satisfies Command;
