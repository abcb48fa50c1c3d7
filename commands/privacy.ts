/**
 * `/privacy consents` · `/privacy revoke id`: which way asking in the moment goes, and your own
 * answers (what you let go to a hosted service, once or always), with a way to end an "always".
 * The text is the terminal's (core/privacy/consent-commands.ts); each person sees and revokes
 * only their own answers, wherever they ask, and only they see the reply.
 */
import { ApplicationCommandOptionType } from 'discord.js';
import { privacyCommand } from '../src/core/privacy/consent-commands.js';
import { ephemeral, GROUPS, type Command } from '../src/discord/command.js';
import { splitMessage } from '../src/discord/split.js';

async function answer(interaction: Parameters<Command['execute']>[0], text: string): Promise<void> {
  const [first, ...rest] = splitMessage(text);
  await interaction.reply(ephemeral(first ?? ''));
  for (const part of rest) await interaction.followUp(ephemeral(part));
}

const consents: Command = {
  ...GROUPS.privacy,
  subcommand: { name: 'consents', description: 'What you let go to hosted services, and which "always" still stand' },
  async execute(interaction, ctx) {
    await answer(interaction, await privacyCommand('consents', ctx.assistant.privacy, interaction.user.id));
  },
};

const revoke: Command = {
  ...GROUPS.privacy,
  subcommand: { name: 'revoke', description: 'End one of your "always" answers (its id from /privacy consents)' },
  options: [{ type: ApplicationCommandOptionType.String, name: 'id', description: 'The id /privacy consents shows, e.g. c-1a2b3c4d', required: true, max_length: 64 }],
  async execute(interaction, ctx) {
    const id = interaction.options.getString('id', true).trim().split(/\s+/)[0] ?? '';
    await answer(interaction, await privacyCommand(`revoke ${id}`, ctx.assistant.privacy, interaction.user.id));
  },
};

export default [consents, revoke];
