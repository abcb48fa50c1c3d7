/** `/calendar list`: the calendars followed here (host only: a secret address is a password). */
import { GROUPS, ephemeral, type Command } from '../src/discord/command.js';
import { commandAsker } from '../src/discord/time-commands.js';

export default {
  ...GROUPS.calendar,
  subcommand: { name: 'list', description: 'The calendars followed here' },
  async execute(interaction, ctx) {
    const subs = ctx.services.calendar?.subscriptions(commandAsker(interaction, ctx)) ?? [];
    await interaction.reply(
      ephemeral(
        subs.length
          ? subs
              .map(
                (s) =>
                  `📅 **${s.name}** · ${s.kind === 'caldav' ? 'CalDAV (read and write)' : '.ics (read-only)'} · ${s.address} · ${s.locality === 'local' ? 'on your network' : 'hosted: no sensitive event is written to it'}`,
              )
              .join('\n')
          : 'No calendar is followed here (/calendar subscribe).',
      ),
    );
  },
} satisfies Command;
