/** `/remind list`: the reminders set in this channel (in a DM: all of yours), with their ids. */
import { askerFor } from '../src/core/time/reminder-desk.js';
import { GROUPS, ephemeral, type Command } from '../src/discord/command.js';

export default {
  ...GROUPS.remind,
  subcommand: { name: 'list', description: 'The reminders set here (in a DM: all of yours)' },
  async execute(interaction, ctx) {
    const desk = ctx.services.time;
    if (!desk) {
      await interaction.reply(ephemeral('Reminders are not running right now.'));
      return;
    }
    const user = interaction.user;
    const list = desk.list(askerFor(ctx.place, user.globalName ?? user.username, user.id));
    const lines = list.map((r) => `\`${r.id}\` ${r.text} — ${r.repeats ? `${r.repeats}, next ` : ''}${r.shown}${r.where === 'here' ? '' : ` (in ${r.where})`}`);
    await interaction.reply(ephemeral(list.length ? `⏰ **Reminders**\n${lines.join('\n')}`.slice(0, 2000) : 'No reminders are set here.'));
  },
} satisfies Command;
