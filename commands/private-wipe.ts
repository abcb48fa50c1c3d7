/**
 * `/private wipe`: in a DM, delete everything Charlie holds about you privately, after a
 * confirmation button. The button carries your user id and is checked when pressed, so only
 * you can confirm a wipe of your memory; nobody (the owner included) can wipe someone else's.
 */
import { ButtonStyle, ComponentType } from 'discord.js';
import { ephemeral, GROUPS, type Command } from '../src/discord/command.js';
import { NOT_IN_DM } from './private-show.js';

const PREFIX = 'private-wipe';

export default {
  ...GROUPS.private,
  subcommand: { name: 'wipe', description: 'Delete everything I hold about you from our DMs (asks first)' },
  componentPrefix: PREFIX,
  async execute(interaction, ctx) {
    const view = await ctx.assistant.private.privateMemory(ctx.place);
    if (!view || ctx.place.kind !== 'private') {
      await interaction.reply(ephemeral(NOT_IN_DM));
      return;
    }
    await interaction.reply({
      ...ephemeral(`This deletes all ${view.messages.count} message(s) and everything distilled from our DMs, for good. Sure?`),
      components: [
        {
          type: ComponentType.ActionRow,
          components: [
            { type: ComponentType.Button, style: ButtonStyle.Danger, custom_id: `${PREFIX}:yes:${interaction.user.id}`, label: 'Wipe my private memory' },
            { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: `${PREFIX}:no:${interaction.user.id}`, label: 'Cancel' },
          ],
        },
      ],
    });
  },
  async handleComponent(interaction, ctx) {
    if (!interaction.isButton()) return;
    const [, answer, owner] = interaction.customId.split(':');
    // Checked at press time: only the person whose memory it is, in their own DM.
    if (ctx.place.kind !== 'private' || owner !== interaction.user.id || ctx.place.userId !== interaction.user.id) {
      {
        await interaction.reply(ephemeral('Only the person whose private memory this is can wipe it, from their own DM.'));
        return;
      }
    }
    if (answer !== 'yes') {
      await interaction.update({ content: 'Nothing was deleted.', components: [] });
      return;
    }
    await ctx.assistant.private.wipePrivate(ctx.place);
    await interaction.update({ content: 'Done: everything I held about you from our DMs is deleted.', components: [] });
  },
} satisfies Command;
