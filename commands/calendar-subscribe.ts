/**
 * `/calendar subscribe name address [handle]`: this channel (or you, in a DM) follows a
 * calendar. An `.ics` address (Google's "secret address", Fastmail, iCloud) is read-only; any
 * other https address is taken as a CalDAV collection (read and write). `handle` names the
 * credentials in CALENDAR_SECRETS; the password is never typed here. The reply shows only the
 * host, and only to you: a secret address is a password.
 */
import { ApplicationCommandOptionType } from 'discord.js';
import { GROUPS, ephemeral, type Command } from '../src/discord/command.js';
import { commandAsker, runningDesk } from '../src/discord/time-commands.js';

export default {
  ...GROUPS.calendar,
  subcommand: { name: 'subscribe', description: 'Follow a calendar here (.ics address, or a CalDAV collection)' },
  action: 'project-settings',
  options: [
    { type: ApplicationCommandOptionType.String, name: 'name', description: 'A short name, e.g. Family', required: true, max_length: 60 },
    { type: ApplicationCommandOptionType.String, name: 'address', description: 'The .ics address, or the CalDAV collection URL', required: true, max_length: 500 },
    { type: ApplicationCommandOptionType.String, name: 'handle', description: 'Credentials by name from CALENDAR_SECRETS (CalDAV, or a protected .ics)', required: false, max_length: 60 },
  ],
  async execute(interaction, ctx) {
    const calendar = await runningDesk(interaction, ctx.services.calendar, 'Calendars are');
    if (!calendar) return;
    const url = interaction.options.getString('address', true).trim();
    const handle = interaction.options.getString('handle') ?? undefined;
    const kind = /\.ics(\?|$)/i.test(url) || /^webcal:/i.test(url) ? 'ics' : 'caldav';
    const out = calendar.subscribe(commandAsker(interaction, ctx), {
      name: interaction.options.getString('name', true).trim(),
      kind,
      url,
      ...(handle ? { handle } : {}),
    });
    await interaction.reply(ephemeral(out.line));
  },
} satisfies Command;
