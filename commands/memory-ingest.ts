/**
 * `/memory ingest file`: puts an attached file (.md .txt .ics .eml .csv) into this channel's
 * `inbox/` and reads it into the project's notes through the local memory lane. Needs
 * `ctx.services.ingest` (an IngestService, built in main.ts). Without a file: where the
 * project's big inbox files stand (rows and bytes done of the total, batches, rate, time left).
 */
import { ApplicationCommandOptionType, MessageFlags } from 'discord.js';
import { ephemeral, GROUPS, type Command } from '../src/discord/command.js';
import { ingestStatusText } from '../src/core/writing/ingest-status.js';

const MAX_BYTES = 5_000_000;

export default {
  ...GROUPS.memory,
  subcommand: { name: 'ingest', description: 'Read a file (.md .txt .ics .eml .csv) into this channel’s notes; without one, show progress' },
  options: [{ type: ApplicationCommandOptionType.Attachment, name: 'file', description: 'A calendar, e-mail, CSV export or text file (none: how far the inbox is)', required: false }],
  async execute(interaction, ctx) {
    const say = (content: string) => interaction.editReply({ content, allowedMentions: { parse: [] } });
    const ingest = ctx.services.ingest;
    const config = await ctx.assistant.settings.projectConfig(ctx.place);
    if (!ingest || !config) {
      await interaction.reply(ephemeral('Files can be read into the notes of a project channel only (private conversations keep no notes).'));
      return;
    }
    const file = interaction.options.getAttachment('file');
    if (!file) {
      await interaction.reply(ephemeral(ingest.status ? ingestStatusText(await ingest.status(config.slug)) : 'Progress is not available here.'));
      return;
    }
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    if (file.size > MAX_BYTES) {
      await say(`\`${file.name}\` is ${Math.round(file.size / 1000)} kB; I read files up to ${MAX_BYTES / 1_000_000} MB.`);
      return;
    }
    let bytes: Buffer;
    try {
      const got = await ctx.download(file.url, MAX_BYTES);
      if (got.truncated) {
        await say(`\`${file.name}\` is larger than ${MAX_BYTES / 1_000_000} MB; I read files up to that size.`);
        return;
      }
      bytes = got.bytes;
    } catch (error) {
      ctx.logger.warn({ err: error, file: file.name }, 'ingest download failed');
      await say(`I could not download \`${file.name}\` from Discord (${error instanceof Error ? error.message : 'download failed'}). Try again?`);
      return;
    }
    const result = await ingest.add(config.slug, file.name, bytes);
    const text =
      result.outcome === 'ingested'
        ? `Read \`${result.source}\`: ${result.items} new item(s), ${result.facts} fact(s) written or refreshed.`
        : result.outcome === 'unchanged'
          ? `\`${result.source}\` was read before and has not changed.`
          : `\`${result.source}\` was not read: ${result.message ?? result.outcome}.`;
    await say(text);
  },
} satisfies Command;
