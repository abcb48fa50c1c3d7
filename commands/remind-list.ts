/** `/remind list`: the reminders set in this channel (in a DM: all of yours), with their ids. */
import { GROUPS, ephemeral, type Command } from '../src/discord/command.js';
import { commandAsker, runningDesk } from '../src/discord/time-commands.js';

export default {
  ...GROUPS.remind,
  subcommand: { name: 'list', description: 'The reminders set here (in a DM: all of yours)' },
  async execute(interaction, ctx) {
    const desk = await runningDesk(interaction, ctx.services.time, 'Reminders are');
    if (!desk) return;
    const list = desk.list(commandAsker(interaction, ctx));
    const lines = list.map((r) => `\`${r.id}\` ${r.text} — ${r.repeats ? `${r.repeats}, next ` : ''}${r.shown}${r.where === 'here' ? '' : ` (in ${r.where})`}`);
    await interaction.reply(ephemeral(list.length ? `⏰ **Reminders**\n${lines.join('\n')}`.slice(0, 2000) : 'No reminders are set here.'));
  },
} satisfies Command;
