/**
 * `/memory restore page: [version:]`: writes a kept previous version of a page back, byte for
 * byte (the newest when no version is given); the page as it is now is kept first, so a restore
 * can be undone the same way. Versions are those reflection kept in the project's `.history/`;
 * `page` autocompletes from them.
 */
import { ApplicationCommandOptionType } from 'discord.js';
import { ephemeral, GROUPS, type Command } from '../src/discord/command.js';

export default {
  ...GROUPS.memory,
  subcommand: { name: 'restore', description: 'Put back a page as it was before reflection changed it' },
  options: [
    { type: ApplicationCommandOptionType.String, name: 'page', description: 'The page, e.g. People/Sarah-Chen', required: true, autocomplete: true },
    { type: ApplicationCommandOptionType.String, name: 'version', description: 'Which kept version (default: the newest)', required: false, autocomplete: true },
  ],
  action: 'edit-memory',
  async execute(interaction, ctx) {
    const page = interaction.options.getString('page', true);
    const version = interaction.options.getString('version') ?? undefined;
    const out = await ctx.assistant.memory.restorePage(ctx.place, page, version);
    const content = out.ok ? `Restored \`${out.page}\` to its version of ${out.version}. The version it replaced is kept too.` : `Not restored: ${out.reason}`;
    await interaction.reply(ephemeral(content.slice(0, 2000)));
  },
  async autocomplete(interaction, ctx) {
    const focused = interaction.options.getFocused(true);
    const typed = focused.value.toLowerCase();
    if (focused.name === 'version') {
      const page = interaction.options.getString('page') ?? '';
      const versions = (await ctx.assistant.memory.pageVersions(ctx.place, page)).reverse();
      await interaction.respond(
        versions
          .filter((v) => v.version.toLowerCase().includes(typed))
          .slice(0, 25)
          .map((v) => ({ name: v.version, value: v.version })),
      );
      return;
    }
    const pages = [...new Set((await ctx.assistant.memory.pageVersions(ctx.place)).map((v) => v.page.replace(/\.md$/, '')))];
    await interaction.respond(
      pages
        .filter((p) => p.toLowerCase().includes(typed))
        .slice(0, 25)
        .map((p) => ({ name: p.slice(0, 100), value: p.slice(0, 100) })),
    );
  },
} satisfies Command;
