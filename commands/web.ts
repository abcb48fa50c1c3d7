/**
 * `/web` (in a DM): a personal login link for the web app. It opens the shared projects and *your*
 * private memory (the same as this DM), works once, and expires after 15 minutes.
 */
import { MessageFlags } from 'discord.js';
import type { Command } from '../src/discord/command.js';
import { isWebLinks } from '../src/web/server.js';

export default {
  name: 'web',
  description: 'Get a personal login link for Charlie’s web app (in a DM)',
  async execute(interaction, ctx) {
    const web = ctx.services.web;
    if (!isWebLinks(web)) {
      await interaction.reply({ content: 'The web app is not running on this Charlie (WEB_PORT=0, or its port was taken at start).', flags: MessageFlags.Ephemeral });
      return;
    }
    if (ctx.place.kind !== 'private') {
      await interaction.reply({ content: 'Ask me for `/web` in a DM: a login link is personal, and it opens your private memory.', flags: MessageFlags.Ephemeral });
      return;
    }
    const link = web.loginLinkFor(ctx.place.userId, ctx.place.userName);
    await interaction.reply({
      content: `Your personal link to ${web.url} — it works once and expires in 15 minutes; it signs this browser in as you (shared projects + your private memory):\n${link}`,
      flags: MessageFlags.Ephemeral,
    });
  },
} satisfies Command;
