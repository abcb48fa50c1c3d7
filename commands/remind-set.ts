/**
 * `/remind set when what`: a reminder delivered here (this channel, or this DM) at its time,
 * with Snooze and Done buttons. "Friday at 6", "in 20 minutes", "every first Monday" are read in
 * your time zone (`/remind zone`). This file also answers the buttons on delivered reminders and
 * commitment follow-ups (`remind:<action>:<job id>`).
 */
import { ApplicationCommandOptionType, MessageFlags } from 'discord.js';
import type { TimeAction } from '../src/core/time/outbox.js';
import { GROUPS, ephemeral, type Command } from '../src/discord/command.js';
import { commandAsker } from '../src/discord/time-commands.js';

const ACTIONS: readonly TimeAction[] = ['snooze', 'done', 'not-yet', 'drop'];
const NO_SCHEDULER = 'Reminders are not running right now.';

export default {
  ...GROUPS.remind,
  subcommand: { name: 'set', description: 'Remind you (or this channel) of something at a time' },
  componentPrefix: 'remind',
  options: [
    { type: ApplicationCommandOptionType.String, name: 'when', description: '“Friday at 6”, “in 20 minutes”, “every first Monday”', required: true, max_length: 100 },
    { type: ApplicationCommandOptionType.String, name: 'what', description: 'What to remind of', required: true, max_length: 300 },
  ],
  async execute(interaction, ctx) {
    const desk = ctx.services.time;
    if (!desk) {
      await interaction.reply(ephemeral(NO_SCHEDULER));
      return;
    }
    const out = desk.set(commandAsker(interaction, ctx), interaction.options.getString('what', true), interaction.options.getString('when', true));
    const text = out.ok ? `⏰ ${out.line}` : `Not set: ${out.error}`;
    // in a channel the reminder is the channel's to see; a failure only its author sees
    await interaction.reply(out.ok && ctx.place.kind === 'project' ? { content: text, allowedMentions: { parse: [] } } : ephemeral(text));
  },
  async handleComponent(interaction, ctx) {
    if (!interaction.isButton()) return;
    const [, action = '', jobId = ''] = interaction.customId.split(':');
    const desk = ctx.services.time;
    const known = ACTIONS.find((a) => a === action);
    const line = desk && known ? await desk.act(commandAsker(interaction, ctx), jobId, known) : null;
    if (!line) {
      await interaction.reply({ content: 'Nothing to do for that (already answered, or not yours).', flags: MessageFlags.Ephemeral });
      return;
    }
    await interaction.update({ content: `${interaction.message.content}\n${line}`.slice(0, 2000), components: [], allowedMentions: { parse: [] } });
  },
} satisfies Command;
