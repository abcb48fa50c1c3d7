/**
 * `/memory candidates [promote]`: what the promotion gate keeps waiting in this channel (score,
 * the message it came from, expiry); `promote` (autocompleted) promotes one now.
 */
import { ApplicationCommandOptionType } from 'discord.js';
import { ephemeral, GROUPS, type Command } from '../src/discord/command.js';

export default {
  ...GROUPS.memory,
  subcommand: { name: 'candidates', description: 'What waits before it becomes memory; promote one' },
  options: [{ type: ApplicationCommandOptionType.String, name: 'promote', description: 'A waiting candidate to promote now', required: false, autocomplete: true }],
  async execute(interaction, ctx) {
    const key = interaction.options.getString('promote')?.trim();
    if (key) {
      const allowed = ctx.allowed('edit-memory');
      if (!allowed.ok) {
        await interaction.reply(ephemeral(allowed.reason));
        return;
      }
      const done = await ctx.assistant.memory.promoteCandidate(ctx.place, key);
      await interaction.reply(ephemeral(done ? `📌 Promoted \`${key}\` into memory.` : `Nothing waits as \`${key}\`. Try \`/memory candidates\`.`));
      return;
    }
    const waiting = await ctx.assistant.memory.memoryCandidates(ctx.place);
    if (!waiting.length) {
      await interaction.reply(ephemeral('Nothing waits for promotion.'));
      return;
    }
    const lines = waiting
      .slice(0, 10)
      .map((c) => `\`${c.key}\` **${c.entity}**: ${c.fact.text}\n> ${c.message.replace(/\s+/g, ' ').slice(0, 160)}\n-# score ${c.score.toFixed(2)} · expires ${c.expires.slice(0, 10)}`);
    let content = `⏳ **${waiting.length} waiting** (promoted when said again; \`/memory candidates promote:\` promotes now)\n\n${lines.join('\n')}`;
    if (content.length > 2000) content = `${content.slice(0, 1997)}…`;
    await interaction.reply(ephemeral(content));
  },
  async autocomplete(interaction, ctx) {
    const typed = interaction.options.getFocused().toLowerCase();
    const waiting = await ctx.assistant.memory.memoryCandidates(ctx.place);
    const matches = waiting.filter((c) => c.key.includes(typed) || `${c.entity} ${c.fact.text}`.toLowerCase().includes(typed)).slice(0, 25);
    await interaction.respond(matches.map((c) => ({ name: `${c.entity}: ${c.fact.text}`.slice(0, 100), value: c.key })));
  },
} satisfies Command;
