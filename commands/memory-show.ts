/** `/memory show`: what Charlie remembers here (summary, decisions, quotes), ephemeral and paged. */
import { ButtonStyle, ComponentType } from 'discord.js';
import { ephemeral, GROUPS, type Command } from '../src/discord/command.js';
import { memoryPages, pagerRow } from '../src/discord/memory-pages.js';

const PREFIX = 'memory-show';

export default {
  ...GROUPS.memory,
  subcommand: { name: 'show', description: 'Show the summary, decisions and quotes Charlie keeps for this channel (or your DMs)' },
  componentPrefix: PREFIX,
  async execute(interaction, ctx) {
    const pages = memoryPages(await ctx.assistant.settings.showMemory(ctx.place), ctx.place.kind === 'private');
    const edit =
      ctx.place.kind === 'project'
        ? [{ type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: 'memory-edit:open', label: '✏️ Edit' }] }]
        : [];
    await interaction.reply({ ...ephemeral(pages[0] ?? ''), components: [...pagerRow(PREFIX, 0, pages.length), ...edit] });
  },
  async handleComponent(interaction, ctx) {
    if (!interaction.isButton()) return;
    const pages = memoryPages(await ctx.assistant.settings.showMemory(ctx.place), ctx.place.kind === 'private');
    const page = Math.min(Math.max(Number(interaction.customId.split(':')[1]) || 0, 0), pages.length - 1);
    await interaction.update({ content: pages[page]!, components: pagerRow(PREFIX, page, pages.length), allowedMentions: { parse: [] } });
  },
} satisfies Command;
