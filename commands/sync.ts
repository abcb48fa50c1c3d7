/**
 * `/sync status` and `/sync now`: this device's sync across the household's devices
 * (docs/sync.md) — the same text as the terminal's `/sync` and the web app's Settings › Sync
 * across devices. Both are Charlie's owner's, as on the web app: the status names the remote and
 * the devices, and a sync writes every project's memory.
 */
import { MessageFlags } from 'discord.js';
import { ephemeral, GROUPS, type Command } from '../src/discord/command.js';
import { syncCommand } from '../src/core/sync/sync-command.js';

export default [
  {
    ...GROUPS.sync,
    subcommand: { name: 'status', description: 'Devices, the last sync, what is waiting, review pairs from merges' },
    action: 'settings',
    async execute(interaction, ctx) {
      await interaction.reply(ephemeral((await syncCommand('status', ctx.services.sync)).slice(0, 2000)));
    },
  },
  {
    ...GROUPS.sync,
    subcommand: { name: 'now', description: 'Sync this device with the others now' },
    action: 'settings',
    async execute(interaction, ctx) {
      // a sync is a few git processes: longer than Discord's three seconds to answer
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      await interaction.editReply({ content: (await syncCommand('now', ctx.services.sync)).slice(0, 2000), allowedMentions: { parse: [] } });
    },
  },
] satisfies Command[];
