/**
 * `/machines list` and `/machines remove`: the machines and SSH logins this channel's memory knows,
 * each with your credential badge (what your vault holds for it, never the secret). `remove` with
 * `revoke` deletes your vault entry and marks the page; `forget` tombstones the machine's page;
 * `forget-key` unpins a host key after a reinstall. Changing them needs an editor, like other shared memory.
 */
import { ApplicationCommandOptionType } from 'discord.js';
import { ephemeral, GROUPS, type Command } from '../src/discord/command.js';
import { commandAsker } from '../src/discord/time-commands.js';
import { machinesCommand } from '../src/core/machines/machine-book.js';

export default [
  {
    ...GROUPS.machines,
    subcommand: { name: 'list', description: 'Machines and logins known here' },
    async execute(interaction, ctx) {
      await interaction.reply(ephemeral((await machinesCommand('list', ctx.services.machines, ctx.place, commandAsker(interaction, ctx))).slice(0, 2000)));
    },
  },
  {
    ...GROUPS.machines,
    subcommand: { name: 'remove', description: 'Revoke a login or forget a machine' },
    options: [
      { type: ApplicationCommandOptionType.String, name: 'machine', description: 'The machine, as /machines list names it', required: true },
      {
        type: ApplicationCommandOptionType.String,
        name: 'what',
        description: 'revoke: delete your vault entry · forget: the whole machine · forget-key: its pinned host key',
        required: true,
        choices: [
          { name: 'revoke the login', value: 'revoke' },
          { name: 'forget the machine', value: 'forget' },
          { name: 'forget its host key', value: 'forget-key' },
        ],
      },
    ],
    action: 'edit-memory',
    async execute(interaction, ctx) {
      const args = `${interaction.options.getString('what', true)} ${interaction.options.getString('machine', true)}`;
      await interaction.reply(ephemeral((await machinesCommand(args, ctx.services.machines, ctx.place, commandAsker(interaction, ctx))).slice(0, 2000)));
    },
  },
] satisfies Command[];
