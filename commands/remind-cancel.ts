/** `/remind cancel id`: cancels a reminder set here (ids from /remind list). */
import { ApplicationCommandOptionType } from 'discord.js';
import { askerFor } from '../src/core/time/reminder-desk.js';
import { GROUPS, ephemeral, type Command } from '../src/discord/command.js';

export default {
  ...GROUPS.remind,
  subcommand: { name: 'cancel', description: 'Cancel a reminder (its id from /remind list)' },
  options: [{ type: ApplicationCommandOptionType.String, name: 'id', description: 'The reminder’s id, e.g. rem-1a2b3c', required: true, max_length: 80, autocomplete: true }],
  async execute(interaction, ctx) {
    const desk = ctx.services.time;
    if (!desk) {
      await interaction.reply(ephemeral('Reminders are not running right now.'));
      return;
    }
    const user = interaction.user;
    const id = interaction.options.getString('id', true);
    const done = desk.cancel(askerFor(ctx.place, user.globalName ?? user.username, user.id), id);
    await interaction.reply(ephemeral(done ? `Cancelled \`${id}\`.` : `No reminder \`${id}\` here.`));
  },
  async autocomplete(interaction, ctx) {
    const user = interaction.user;
    const list = ctx.services.time?.list(askerFor(ctx.place, user.globalName ?? user.username, user.id)) ?? [];
    await interaction.respond(list.slice(0, 25).map((r) => ({ name: `${r.text} — ${r.shown}`.slice(0, 100), value: r.id })));
  },
} satisfies Command;
