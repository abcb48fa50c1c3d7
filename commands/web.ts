/**
 * `/web` (in a DM): a personal login link for the web app. It opens the shared projects and *your*
 * private memory (the same as this DM), works once, and expires after 15 minutes.
 */
import { ephemeral, type Command } from '../src/discord/command.js';

export default {
  name: 'web',
  description: 'Get a personal login link for Charlie’s web app (in a DM)',
  async execute(interaction, ctx) {
    const web = ctx.services.web;
    if (!web) {
      await interaction.reply(ephemeral('The web app is not running on this Charlie (WEB_PORT=0, or its port was taken at start).'));
      return;
    }
    if (ctx.place.kind !== 'private') {
      await interaction.reply(ephemeral('Ask me for `/web` in a DM: a login link is personal, and it opens your private memory.'));
      return;
    }
    // the web session carries the person's role from Charlie's servers, so the web allows what Discord does
    const link = web.loginLinkFor(ctx.place.userId, ctx.place.userName, await ctx.roleAnywhere());
    await interaction.reply(ephemeral(`Your personal link to ${web.url} — it works once and expires in 15 minutes; it signs this browser in as you (shared projects + your private memory):\n${link}`));
  },
} satisfies Command;
