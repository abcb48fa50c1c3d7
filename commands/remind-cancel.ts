/** `/remind cancel id`: cancels a reminder set here (ids from /remind list). */
import { ApplicationCommandOptionType } from 'discord.js';
import { GROUPS, ephemeral, type Command } from '../src/discord/command.js';
import { commandAsker, runningDesk } from '../src/discord/time-commands.js';

export default {
  ...GROUPS.remind,
  subcommand: { name: 'cancel', description: 'Cancel a reminder (its id from /remind list)' },
  options: [{ type: ApplicationCommandOptionType.String, name: 'id', description: 'The reminder’s id, e.g. rem-1a2b3c', required: true, max_length: 80, autocomplete: true }],
  async execute(interaction, ctx) {
    const desk = await runningDesk(interaction, ctx.services.time, 'Reminders are');
    if (!desk) return;
    const id = interaction.options.getString('id', true);
    const done = desk.cancel(commandAsker(interaction, ctx), id);
    await interaction.reply(ephemeral(done ? `Cancelled \`${id}\`.` : `No reminder \`${id}\` here.`));
  },
  async autocomplete(interaction, ctx) {
    const list = ctx.services.time?.list(commandAsker(interaction, ctx)) ?? [];
    await interaction.respond(list.slice(0, 25).map((r) => ({ name: `${r.text} — ${r.shown}`.slice(0, 100), value: r.id })));
  },
} satisfies Command;
