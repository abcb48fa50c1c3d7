/**
 * `/private forget`: in a DM, forget one item of your private memory (a decision, a quote, the
 * summary) or a range of your messages (the last N, or since an hour / a day / a week ago).
 * Forgotten decisions and quotes leave a tombstone so distillation does not learn them again;
 * what was distilled from forgotten messages goes with them.
 */
import { ApplicationCommandOptionType } from 'discord.js';
import { ephemeral, GROUPS, type Command } from '../src/discord/command.js';
import type { PrivateForgetTarget } from '../src/core/assistant-api.js';
import { NOT_IN_DM } from './private-show.js';

const RANGES: { value: string; name: string }[] = [
  { value: 'messages:last:1', name: 'my last message' },
  { value: 'messages:last:10', name: 'my last 10 messages' },
  { value: 'messages:hours:1', name: 'messages of the last hour' },
  { value: 'messages:hours:24', name: 'messages of the last day' },
  { value: 'messages:hours:168', name: 'messages of the last week' },
  { value: 'summary', name: 'the summary' },
];

export function parsePrivateTarget(token: string, now: Date): PrivateForgetTarget | null {
  const item = /^(decision|quote):(\d+)$/.exec(token);
  if (item) return { kind: item[1] as 'decision' | 'quote', index: Number(item[2]) };
  if (token === 'summary') return { kind: 'summary' };
  const last = /^messages:last:(\d+)$/.exec(token);
  if (last) return { kind: 'messages', lastN: Number(last[1]) };
  const hours = /^messages:hours:(\d+)$/.exec(token);
  if (hours) return { kind: 'messages', sinceTime: new Date(now.getTime() - Number(hours[1]) * 3_600_000).toISOString() };
  return null;
}

export default {
  ...GROUPS.private,
  subcommand: { name: 'forget', description: 'Forget an item or a range of your messages' },
  options: [{ type: ApplicationCommandOptionType.String, name: 'what', description: 'A decision, a quote, the summary, or your recent messages', required: true, autocomplete: true }],
  async execute(interaction, ctx) {
    if (ctx.place.kind !== 'private') {
      await interaction.reply(ephemeral(NOT_IN_DM));
      return;
    }
    const target = parsePrivateTarget(interaction.options.getString('what', true).trim(), new Date());
    if (!target) {
      await interaction.reply(ephemeral('Pick one of the suggestions (start typing).'));
      return;
    }
    const out = await ctx.assistant.private.forgetPrivate(ctx.place, target);
    await interaction.reply(ephemeral(out.forgotten ? `Forgot ${out.description}. I won't learn it again from what is left.` : `Nothing to forget: ${out.description}.`));
  },
  async autocomplete(interaction, ctx) {
    const typed = interaction.options.getFocused().toLowerCase();
    const view = await ctx.assistant.private.privateMemory(ctx.place);
    if (!view) {
      await interaction.respond([]);
      return;
    }
    const items = [
      ...view.layers.decisions.map((d, i) => ({ value: `decision:${i + 1}`, name: `decision ${d.date}: ${d.text}` })),
      ...view.layers.quotes.map((q, i) => ({ value: `quote:${i + 1}`, name: `quote: ${q.text}` })),
      ...RANGES,
    ];
    await interaction.respond(
      items
        .filter((i) => i.name.toLowerCase().includes(typed))
        .slice(0, 25)
        .map((i) => ({ name: i.name.replace(/\s+/g, ' ').slice(0, 100), value: i.value })),
    );
  },
} satisfies Command;
