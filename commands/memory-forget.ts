/** `/memory forget note`: deletes a note of this project (autocompletes note names). */
import { ApplicationCommandOptionType, MessageFlags } from 'discord.js';
import type { Command } from '../src/discord/command.js';

export default {
  name: 'memory',
  description: 'See, edit, search or forget what Charlie remembers',
  subcommand: { name: 'forget', description: 'Forget (delete) one note of this channel' },
  options: [{ type: ApplicationCommandOptionType.String, name: 'note', description: 'The note, e.g. People/Sarah-Chen.md', required: true, autocomplete: true }],
  async execute(interaction, ctx) {
    const path = interaction.options.getString('note', true).trim();
    if (ctx.place.kind === 'private') {
      await interaction.reply({ content: 'Private conversations keep no notes — use `/memory edit` to change what I remember here.', flags: MessageFlags.Ephemeral });
      return;
    }
    const forgotten = await ctx.assistant.forgetNote(ctx.place, path);
    await interaction.reply({
      content: forgotten ? `Forgot \`${path}\`.` : `There is no note \`${path}\` here. Try \`/memory search\`.`,
      flags: MessageFlags.Ephemeral,
      allowedMentions: { parse: [] },
    });
  },
  async autocomplete(interaction, ctx) {
    const typed = interaction.options.getFocused().toLowerCase();
    const notes = await ctx.assistant.listNotes(ctx.place);
    const matches = notes.filter((n) => n.path.toLowerCase().includes(typed) || n.title.toLowerCase().includes(typed)).slice(0, 25);
    await interaction.respond(matches.map((n) => ({ name: `${n.title} (${n.path})`.slice(0, 100), value: n.path.slice(0, 100) })));
  },
} satisfies Command;
