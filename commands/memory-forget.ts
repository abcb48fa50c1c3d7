/**
 * `/memory forget`: forgets a note, one dated entry of a note, a typed record (a fact on an
 * entity page), a decision or a quote of this channel (autocompleted), and leaves a tombstone
 * in forgotten.md so it is not learnt again.
 * Optionally also removes the messages that said it from the archive and the search index.
 * Changing shared memory needs an editor (the owner, Manage Server, or the editor role).
 */
import { ApplicationCommandOptionType } from 'discord.js';
import { ephemeral, GROUPS, type Command } from '../src/discord/command.js';
import { parseTargetToken, targetToken } from '../src/core/inspector/tombstones.js';

export default {
  ...GROUPS.memory,
  subcommand: { name: 'forget', description: 'Forget a note, an entry, a fact, a decision or a quote, for good' },
  options: [
    { type: ApplicationCommandOptionType.String, name: 'item', description: 'What to forget (start typing: a note, a fact, a decision, a quote…)', required: true, autocomplete: true },
    { type: ApplicationCommandOptionType.Boolean, name: 'remove_messages', description: 'Also remove the messages that said it from the archive and search', required: false },
  ],
  action: 'edit-memory',
  async execute(interaction, ctx) {
    const token = interaction.options.getString('item', true).trim();
    if (ctx.place.kind === 'private') {
      await interaction.reply(ephemeral('In a private conversation use `/private forget` (or `/private wipe`).'));
      return;
    }
    const target = parseTargetToken(token);
    if (!target) {
      await interaction.reply(ephemeral(`I don't know what \`${token.slice(0, 80)}\` is — pick one of the suggestions.`));
      return;
    }
    const by = interaction.user.username || interaction.user.id;
    const out = await ctx.assistant.memory.forget(ctx.place, target, by, { removeMessages: interaction.options.getBoolean('remove_messages') ?? false });
    const content = out.forgotten
      ? `Forgot ${out.description}. A tombstone in \`forgotten.md\` keeps me from learning it again (delete its line there to allow it).${out.redacted ? ` Removed ${out.redacted} message(s) that said it.` : ''}`
      : `Nothing to forget at \`${token.slice(0, 80)}\` — it may be gone already. Try \`/memory show\` or \`/memory search\`.`;
    await interaction.reply(ephemeral(content));
  },
  async autocomplete(interaction, ctx) {
    const typed = interaction.options.getFocused().toLowerCase();
    const items = await ctx.assistant.memory.forgettable(ctx.place);
    const matches = items.filter((i) => i.label.toLowerCase().includes(typed)).slice(0, 25);
    await interaction.respond(matches.map((i) => ({ name: i.label.replace(/\s+/g, ' ').slice(0, 100), value: targetToken(i.target).slice(0, 100) })));
  },
} satisfies Command;
