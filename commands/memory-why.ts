/**
 * `/memory why fact:` — "why does Charlie think that?": the records that answer it, each with its
 * provenance chain (the message that said it, the gate's score, restatements, hand edits,
 * merges, review decisions, with dates) and its confidence now. Also answers the "why?" button
 * under a reply that used memory (src/discord/why-button.ts). Always ephemeral.
 */
import { ApplicationCommandOptionType, MessageFlags } from 'discord.js';
import { whyText } from '../src/core/inspector/why.js';
import { ephemeral, GROUPS, type Command } from '../src/discord/command.js';
import { splitMessage } from '../src/discord/split.js';
import { recordsOfWhyId, WHY_PREFIX } from '../src/discord/why-button.js';

/** Links without embeds: a chain can hold several message links. */
const noEmbed = (source: string) => source.replace(/(https?:\/\/\S+)/g, '<$1>');
const first = (text: string) => splitMessage(text)[0] ?? text.slice(0, 2000);

export default {
  ...GROUPS.memory,
  subcommand: { name: 'why', description: 'Why does Charlie think that? The records behind a fact, and where each came from' },
  options: [{ type: ApplicationCommandOptionType.String, name: 'fact', description: 'A fact or a question (or a record id such as r-3f9a1c)', required: true, max_length: 300 }],
  componentPrefix: WHY_PREFIX,
  async execute(interaction, ctx) {
    const fact = interaction.options.getString('fact', true);
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const answer = await ctx.assistant.memory.why(ctx.place, { query: fact });
    await interaction.editReply({ content: first(whyText(answer, noEmbed)), allowedMentions: { parse: [] } });
  },
  async handleComponent(interaction, ctx) {
    if (!interaction.isButton()) return;
    const ids = recordsOfWhyId(interaction.customId);
    if (!ids) {
      await interaction.reply(ephemeral('That why? button is not one I can read (it may be from an older version). Ask with `/memory why`.'));
      return;
    }
    const answer = await ctx.assistant.memory.why(ctx.place, { ids });
    const content =
      answer.chains.length === 0
        ? 'The records this reply used are no longer in memory here (forgotten, or changed by hand without their ids). Ask with `/memory why`.'
        : first(`Why I said that — the records the reply used:\n\n${whyText(answer, noEmbed)}`);
    await interaction.reply(ephemeral(content));
  },
} satisfies Command;
