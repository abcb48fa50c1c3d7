/** `/help`: what Charlie does and the commands it knows. */
import { ephemeral, type Command } from '../src/discord/command.js';
import { describeLane } from '../src/core/lanes.js';
import { consentModeLine } from '../src/core/privacy/consent-commands.js';

export default {
  name: 'help',
  description: 'What Charlie does and how to use it',
  async execute(interaction, ctx) {
    const lines = ctx.commands.map((c) => `• \`/${c.name}${c.subcommand ? ` ${c.subcommand.name}` : ''}\` — ${c.subcommand?.description ?? c.description}`);
    const where =
      ctx.place.kind === 'private'
        ? 'This is a private conversation: what we say here stays in a private store on the owner’s machine and is never shown in a server channel.'
        : 'Each channel is a project with its own memory (plain Markdown on the owner’s machine). Mention me or reply to me to talk to me; in some channels I answer everything.';
    const models = [...ctx.assistant.lanes().map((l) => `• ${describeLane(l)}`), `• ${consentModeLine(ctx.assistant.privacy.consentMode())}`];
    const servers = ctx.services.toolServers?.() ?? [];
    const tools = servers.length ? `\n\n**Tool servers**\n${servers.map((l) => `• ${l}`).join('\n')}` : '';
    const head = `**Charlie** — a private assistant that remembers.\n${where}\nUnder a reply, 📝 buttons open related notes.\n\n**Models**\n${models.join('\n')}${tools}\n\n`;
    let content = `${head}${lines.join('\n')}`;
    // one message holds 2000 characters: past that, every command by name (none cut off) instead of one per line
    if (content.length > 2000) content = `${head}${ctx.commands.map((c) => `\`/${c.name}${c.subcommand ? ` ${c.subcommand.name}` : ''}\``).join(' · ')}`;
    await interaction.reply(ephemeral(content.slice(0, 2000)));
  },
} satisfies Command;
