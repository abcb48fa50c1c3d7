/** `/memory search query`: what Charlie's recall finds here, with page, lines and why. */
import { ApplicationCommandOptionType, MessageFlags } from 'discord.js';
import { GROUPS, type Command } from '../src/discord/command.js';

export default {
  ...GROUPS.memory,
  subcommand: { name: 'search', description: 'Search what Charlie remembers here' },
  options: [{ type: ApplicationCommandOptionType.String, name: 'query', description: 'What to look for', required: true, max_length: 200 }],
  async execute(interaction, ctx) {
    const query = interaction.options.getString('query', true);
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const hits = await ctx.assistant.memory.searchMemory(ctx.place, query, 5);
    if (!hits.length) {
      await interaction.editReply({ content: `Nothing found for “${query}”.`, allowedMentions: { parse: [] } });
      return;
    }
    const lines = hits.map((h, i) => {
      const snippet = h.text.replace(/\s+/g, ' ').trim().slice(0, 220);
      return `**${i + 1}.** \`${h.page}\` lines ${h.lineStart}–${h.lineEnd}${h.heading ? ` · ${h.heading}` : ''}\n> ${snippet}\n-# score ${h.score.toFixed(2)}${h.confidence !== undefined ? ` · confidence ${h.confidence.toFixed(2)}` : ''} · ${h.why.join(', ') || 'match'} · updated ${h.updated.slice(0, 10)}`;
    });
    let content = `🔎 **${hits.length} result${hits.length === 1 ? '' : 's'} for “${query}”**\n\n${lines.join('\n')}`;
    if (content.length > 2000) content = `${content.slice(0, 1997)}…`;
    await interaction.editReply({ content, allowedMentions: { parse: [] } });
  },
} satisfies Command;
