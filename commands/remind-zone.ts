/** `/remind zone tz`: your time zone (IANA, e.g. Europe/Berlin); reminders and briefs are read in it. */
import { ApplicationCommandOptionType } from 'discord.js';
import { GROUPS, ephemeral, type Command } from '../src/discord/command.js';
import { runningDesk } from '../src/discord/time-commands.js';

export default {
  ...GROUPS.remind,
  subcommand: { name: 'zone', description: 'Your time zone, e.g. Europe/Berlin (shown when left out)' },
  options: [{ type: ApplicationCommandOptionType.String, name: 'tz', description: 'An IANA time zone such as Europe/Berlin or America/New_York', required: false, max_length: 60 }],
  async execute(interaction, ctx) {
    const desk = await runningDesk(interaction, ctx.services.time, 'Reminders are');
    if (!desk) return;
    const tz = interaction.options.getString('tz');
    if (!tz) {
      await interaction.reply(ephemeral(`Your time zone is ${desk.zoneOf(interaction.user.id)}.`));
      return;
    }
    await interaction.reply(ephemeral(desk.setZone(interaction.user.id, tz.trim()).line));
  },
} satisfies Command;
