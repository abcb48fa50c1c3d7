/** `/calendar list`: the calendars followed here (host only: a secret address is a password). */
import { askerFor } from '../src/core/time/reminder-desk.js';
import { GROUPS, ephemeral, type Command } from '../src/discord/command.js';

export default {
  ...GROUPS.calendar,
  subcommand: { name: 'list', description: 'The calendars followed here' },
  async execute(interaction, ctx) {
    const user = interaction.user;
    const subs = ctx.services.calendar?.subscriptions(askerFor(ctx.place, user.globalName ?? user.username, user.id)) ?? [];
    await interaction.reply(
      ephemeral(
        subs.length
          ? subs.map((s) => `📅 **${s.name}** · ${s.kind === 'caldav' ? 'CalDAV (read and write)' : '.ics (read-only)'} · ${s.address}`).join('\n')
          : 'No calendar is followed here (/calendar subscribe).',
      ),
    );
  },
} satisfies Command;
