/**
 * `/memory edit`: a modal with the summary, decisions, quotes and style. Saving replaces them;
 * changed or new items get the source `manual`. A field longer than a modal allows (4000
 * characters) is left out rather than cut, so saving never loses text.
 */
import { ComponentType, TextInputStyle, type ButtonInteraction, type ChatInputCommandInteraction } from 'discord.js';
import { ephemeral, GROUPS, type Command, type CommandContext } from '../src/discord/command.js';
import { decisionsToText, quotesToText } from '../src/core/inspector/memory-edit.js';

const PREFIX = 'memory-edit';
const MAX = 4000;
const FIELDS = [
  { id: 'summary', label: 'Summary' },
  { id: 'decisions', label: 'Decisions (one per line: YYYY-MM-DD: text)' },
  { id: 'quotes', label: 'Quotes (YYYY-MM-DD speaker: "text")' },
  { id: 'style', label: 'Response style' },
] as const;

export default {
  ...GROUPS.memory,
  subcommand: { name: 'edit', description: 'Edit the summary, decisions, quotes and response style' },
  action: 'edit-memory',
  componentPrefix: PREFIX,
  async execute(interaction, ctx) {
    await openEditor(interaction, ctx);
  },
  async handleComponent(interaction, ctx) {
    // The ✏️ Edit button under /memory show opens the same modal (the router has checked the presser may edit).
    if (interaction.isButton() && interaction.customId === `${PREFIX}:open`) return openEditor(interaction, ctx);
    if (!interaction.isModalSubmit()) return;
    const edit: { summary?: string; decisions?: string; quotes?: string; style?: string } = {};
    for (const f of FIELDS) {
      const field = interaction.fields.fields.get(f.id);
      if (field && 'value' in field && typeof field.value === 'string') edit[f.id] = field.value.trim();
    }
    const view = await ctx.assistant.settings.editMemory(ctx.place, edit);
    const counts = `${view.layers.decisions.length} decisions, ${view.layers.quotes.length} quotes`;
    await interaction.reply(ephemeral(`Saved ✓ — summary, ${counts}${edit.style !== undefined ? ', style' : ''}. Edited items are marked as manual.`));
  },
} satisfies Command;

async function openEditor(interaction: ChatInputCommandInteraction | ButtonInteraction, ctx: CommandContext): Promise<void> {
  const view = await ctx.assistant.settings.showMemory(ctx.place);
  const values: Record<string, string> = {
    summary: view.layers.summary,
    decisions: decisionsToText(view.layers.decisions),
    quotes: quotesToText(view.layers.quotes),
    style: view.style,
  };
  const editable = FIELDS.filter((f) => (values[f.id] ?? '').length <= MAX);
  const skipped = FIELDS.filter((f) => !editable.includes(f));
  await interaction.showModal({
    custom_id: `${PREFIX}:save`,
    title: skipped.length ? 'Edit memory (some parts too long here)' : 'Edit memory',
    components: editable.map((f) => ({
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.TextInput,
          custom_id: f.id,
          label: f.label.slice(0, 45),
          style: f.id === 'style' ? TextInputStyle.Short : TextInputStyle.Paragraph,
          value: values[f.id] || undefined,
          required: false,
          max_length: f.id === 'style' ? 1000 : MAX,
        },
      ],
    })),
  });
}
