/**
 * `/memory review`: the first pair of records that disagree, with buttons keep new / keep old /
 * keep both / hold; each press resolves it and shows the next pair. `/memory hold` is the
 * terminal's; here `hold` is a button (and `/memory review record: action:` does the same).
 */
import { ButtonStyle, ComponentType } from 'discord.js';
import type { ReviewChoice, ReviewPair } from '../src/core/ports/index.js';
import { ephemeral, GROUPS, type Command } from '../src/discord/command.js';

const PREFIX = 'memory-review';
const CHOICES: { choice: ReviewChoice; label: string; style: ButtonStyle.Primary | ButtonStyle.Secondary | ButtonStyle.Danger }[] = [
  { choice: 'keep-new', label: 'Keep new', style: ButtonStyle.Primary },
  { choice: 'keep-old', label: 'Keep old', style: ButtonStyle.Secondary },
  { choice: 'keep-both', label: 'Keep both', style: ButtonStyle.Secondary },
  { choice: 'hold', label: 'Hold', style: ButtonStyle.Danger },
];

function view(
  pairs: readonly ReviewPair[],
  note = '',
): { content: string; components: { type: ComponentType.ActionRow; components: { type: ComponentType.Button; style: ButtonStyle; label: string; custom_id: string }[] }[] } {
  const pair = pairs[0];
  if (!pair) return { content: `${note}Nothing is in review.`.trim(), components: [] };
  const content = `${note}⚖️ **${pair.title}** — these disagree (${pairs.length} in review):\n**old** (said ${pair.old.said || '?'}): ${pair.old.statement}\n**new** (said ${pair.new.said || '?'}): ${pair.new.statement}\n-# \`${pair.page}\` · ${pair.old.id} / ${pair.new.id}`;
  // hold applies to the new record; the old one stays in review until a choice is made
  const components = [
    {
      type: ComponentType.ActionRow as const,
      components: CHOICES.map((c) => ({ type: ComponentType.Button as const, style: c.style, label: c.label, custom_id: `${PREFIX}:${c.choice}:${pair.new.id}` })),
    },
  ];
  return { content: content.slice(0, 2000), components };
}

export default {
  ...GROUPS.memory,
  subcommand: { name: 'review', description: 'Records that disagree: keep new, keep old, keep both, or hold' },
  componentPrefix: PREFIX,
  // listing the pairs is reading; a button press keeps, drops or holds a shared record
  componentAction: 'edit-memory',
  async execute(interaction, ctx) {
    const pairs = await ctx.assistant.memory.reviewList(ctx.place);
    await interaction.reply({ ...ephemeral(''), ...view(pairs) });
  },
  async handleComponent(interaction, ctx) {
    if (!interaction.isButton()) return;
    const [, choice = '', id = ''] = interaction.customId.split(':');
    const known = CHOICES.find((c) => c.choice === choice);
    const done = known ? await ctx.assistant.memory.resolveReview(ctx.place, id, known.choice) : false;
    const note = done ? `✅ ${known?.label ?? ''}: done.\n\n` : `Nothing to do for ${id} (already resolved?).\n\n`;
    await interaction.update({ ...view(await ctx.assistant.memory.reviewList(ctx.place), note), allowedMentions: { parse: [] } });
  },
} satisfies Command;
