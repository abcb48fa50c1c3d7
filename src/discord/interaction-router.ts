/**
 * Routes interactions: slash commands to their Command file, `note:`/`tag:` buttons to the note
 * board, other buttons and modals to the command that owns their custom-id prefix. Refuses
 * people who are not allow-listed with a short ephemeral message.
 */
import { MessageFlags, type BaseInteraction, type Interaction, type RepliableInteraction } from 'discord.js';
import type { AssistantApi } from '../core/assistant-api.js';
import type { Logger } from '../core/ports/index.js';
import type { AccessPolicy } from './access.js';
import { download } from './attachments.js';
import { commandKey, type Command, type CommandContext, type DiscordServices } from './command.js';
import { mayDo, memberRole, roleAcrossServers } from './memory-editors.js';
import type { NoteBoard } from './note-board.js';
import { placeFor, type ChannelRef } from './place.js';
import { CONFIRM_PREFIX } from './tool-confirm.js';
import { CONSENT_PREFIX } from './consent-ask.js';

export const REFUSAL = "Sorry, I only work for the people I've been set up for.";
const FAILURE = 'Sorry — that did not work. Please try again in a moment.';

export interface InteractionRouterDeps {
  assistant: AssistantApi;
  access: AccessPolicy;
  commands: readonly Command[];
  notes: NoteBoard;
  logger: Logger;
  services: DiscordServices;
  /** DISCORD_REPLY_MAX_MESSAGES, for what commands post outside a reply (voice turns). */
  replyMaxMessages: number;
  /** DISCORD_ATTACHMENT_TIMEOUT_MS, for files a command downloads (/memory ingest). */
  attachmentTimeoutMs: number;
  fetch: typeof fetch;
  /** DISCORD_MEMORY_EDITOR_ROLE: a role (name or id) whose members may change shared memory. */
  editorRole?: string;
}

export class InteractionRouter {
  private readonly byKey = new Map<string, Command>();
  private readonly byPrefix = new Map<string, Command>();

  constructor(private readonly deps: InteractionRouterDeps) {
    for (const c of deps.commands) {
      this.byKey.set(commandKey(c.name, c.subcommand?.name), c);
      if (c.componentPrefix) this.byPrefix.set(c.componentPrefix, c);
    }
  }

  async onInteraction(interaction: Interaction): Promise<void> {
    const log = this.deps.logger.child({ interactionId: interaction.id, userId: interaction.user.id });
    if (!this.deps.access.allows({ userId: interaction.user.id, guildId: interaction.guildId })) {
      log.debug({ guildId: interaction.guildId }, 'interaction from someone not allow-listed refused');
      if (interaction.isAutocomplete()) await interaction.respond([]).catch(() => {});
      else if (interaction.isRepliable()) await interaction.reply({ content: REFUSAL, flags: MessageFlags.Ephemeral }).catch(() => {});
      return;
    }
    const ctx = await this.context(interaction);
    try {
      if (interaction.isChatInputCommand()) {
        const command = this.byKey.get(commandKey(interaction.commandName, interaction.options.getSubcommand(false)));
        if (!command) {
          await interaction.reply({ content: 'I do not know that command (yet). Try `/help`.', flags: MessageFlags.Ephemeral }).then(() => {});
          return;
        }
        if (!(await this.mayRun(command, interaction, log, command.action))) return;
        await command.execute(interaction, ctx);
      } else if (interaction.isAutocomplete()) {
        const command = this.byKey.get(commandKey(interaction.commandName, interaction.options.getSubcommand(false)));
        await command?.autocomplete?.(interaction, ctx);
      } else if (interaction.isButton() && interaction.customId.startsWith(`${CONFIRM_PREFIX}:`)) {
        return; // a tool confirmation: the waiting turn collects the press (tool-confirm.ts)
      } else if (interaction.isButton() && interaction.customId.startsWith(`${CONSENT_PREFIX}:`)) {
        return; // a consent question: the waiting turn collects the press (consent-ask.ts)
      } else if (interaction.isButton() && (await this.deps.notes.handle(interaction, ctx.place))) {
        return;
      } else if (interaction.isMessageComponent() || interaction.isModalSubmit()) {
        const command = this.byPrefix.get(interaction.customId.split(':')[0]!);
        if (!command?.handleComponent) {
          await interaction.reply({ content: 'That button has expired.', flags: MessageFlags.Ephemeral }).then(() => {});
          return;
        }
        // checked again at submit time: whoever presses the button or sends the modal must be an editor
        if (!(await this.mayRun(command, interaction, log, command.componentAction ?? command.action))) return;
        await command.handleComponent(interaction, ctx);
      }
    } catch (error) {
      log.error({ err: error }, 'interaction failed');
      if (interaction.isRepliable()) await apologise(interaction);
    }
  }

  /** A command that changes something needs a role the table allows; the refusal is ephemeral and says why. */
  private async mayRun(command: Command, interaction: Interaction, log: Logger, action: Command['action']): Promise<boolean> {
    if (!action) return true;
    const verdict = mayDo(interaction, this.deps.access, this.deps.editorRole, action);
    if (verdict.ok) return true;
    log.info({ command: command.name, subcommand: command.subcommand?.name, action }, 'refused by the role table');
    if (interaction.isRepliable()) await interaction.reply({ content: verdict.reason, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
    return false;
  }

  private async context(interaction: BaseInteraction): Promise<CommandContext> {
    const channel = await channelOf(interaction);
    const user = { id: interaction.user.id, name: interaction.user.globalName ?? interaction.user.username };
    return {
      assistant: this.deps.assistant,
      place: placeFor(channel, user),
      allowed: (action) => mayDo(interaction, this.deps.access, this.deps.editorRole, action),
      roleAnywhere: () => roleAcrossServers(interaction.client, interaction.user.id, this.deps.access, this.deps.editorRole),
      roleOf: (userId, member) => memberRole(userId, member, this.deps.access, this.deps.editorRole),
      logger: this.deps.logger,
      commands: this.deps.commands,
      notes: this.deps.notes,
      services: this.deps.services,
      replyMaxMessages: this.deps.replyMaxMessages,
      download: (url, maxBytes) => download(url, maxBytes, { downloadTimeoutMs: this.deps.attachmentTimeoutMs, fetch: this.deps.fetch }),
    };
  }
}

async function channelOf(interaction: BaseInteraction): Promise<ChannelRef> {
  const id = interaction.channelId ?? '';
  let channel = interaction.channel ?? null;
  if (!channel && interaction.guildId && id) channel = (await interaction.client.channels.fetch(id).catch(() => null)) as typeof channel;
  const name = channel && 'name' in channel && typeof channel.name === 'string' ? channel.name : null;
  return { channelId: id, guildId: interaction.guildId, channelName: name };
}

async function apologise(interaction: RepliableInteraction): Promise<void> {
  const body = { content: FAILURE, flags: MessageFlags.Ephemeral } as const;
  try {
    if (interaction.deferred && !interaction.replied) await interaction.editReply({ content: FAILURE });
    else if (interaction.replied) await interaction.followUp(body);
    else await interaction.reply(body);
  } catch {
    // the interaction token may have expired; nothing more to do
  }
}
