/**
 * Handles one incoming Discord message: filters (bots, repeats, access), maps the channel to
 * its place, decides whether Charlie answers (DM, mention or reply, or a project set to answer
 * everything), reads attachments, runs the turn with a typing indicator and a streaming reply,
 * and apologises instead of going silent when the turn fails. One channel at a time, in order.
 * The turn's one deadline is the core's: it ends the turn and bounds posting the reply.
 */
import { MessageType, type Message, type SendableChannels } from 'discord.js';
import { type AssistantApi } from '../core/assistant-api.js';
import { placeKey, type IncomingMessage, type Place } from '../core/place.js';
import type { Logger } from '../core/ports/index.js';
import type { AccessPolicy } from './access.js';
import { readAttachments, type AttachmentRef } from './attachments.js';
import { isAudioAttachment } from '../speech/voice-message.js';
import type { KeyedQueue } from '../core/keyed-queue.js';
import type { NoteBoard } from './note-board.js';
import { isAddressed, messageUrl, placeFor, stripBotMention, type ChannelRef } from './place.js';
import { ReplyRenderer, type ReplySink } from './reply-renderer.js';
import type { SeenIds } from './seen-ids.js';
import { whyButtonRow } from './why-button.js';
import { discordConfirm } from './tool-confirm.js';
import { discordConsentAsk } from './consent-ask.js';
import { memberRole } from './memory-editors.js';
import type { ConsentAccess } from '../core/privacy/consent.js';
import type { TurnEventListener } from '../core/turn/events.js';
import { heartbeat } from '../time/ticker.js';

export const APOLOGY_TEXT = "Sorry — something went wrong on my side and I couldn't answer that. Please try again in a moment.";

export interface MessageHandlerDeps {
  assistant: Pick<AssistantApi, 'conversation' | 'settings'>;
  access: AccessPolicy;
  queue: KeyedQueue;
  seen: SeenIds;
  notes: NoteBoard;
  logger: Logger;
  acceptsImages: boolean;
  editIntervalMs: number;
  attachmentMaxBytes: number;
  imageMaxBytes: number;
  /** DISCORD_ATTACHMENT_TIMEOUT_MS: each attachment download gives up after this long. */
  attachmentTimeoutMs: number;
  /** A reply takes at most this many Discord messages. */
  replyMaxMessages: number;
  typingIntervalMs?: number;
  fetch?: typeof fetch;
  /** DISCORD_MEMORY_EDITOR_ROLE: whose answer counts for shared items when asking in the moment. */
  editorRole?: string;
  /** Transcribes voice messages (audio attachments); without it they are skipped with a warning. */
  transcribeAudio?: (list: AttachmentRef[]) => Promise<{ texts: string[]; warnings: string[] }>;
}

export class MessageHandler {
  constructor(private readonly deps: MessageHandlerDeps) {}

  /** Entry for `messageCreate`. Resolves when this message has been fully handled. */
  async onMessage(message: Message): Promise<void> {
    if (message.author.bot || message.webhookId || message.system) return;
    if (message.type !== MessageType.Default && message.type !== MessageType.Reply) return;
    if (!this.deps.seen.firstTime(message.id)) {
      this.deps.logger.debug({ messageId: message.id }, 'repeated message ignored');
      return;
    }
    if (!this.deps.access.allows({ userId: message.author.id, guildId: message.guildId })) {
      this.deps.logger.debug({ userId: message.author.id, guildId: message.guildId }, 'message from someone not allow-listed ignored');
      return;
    }
    const channel = channelRef(message);
    const place = placeFor(channel, { id: message.author.id, name: displayName(message) });
    await this.deps.queue.run(placeKey(place), () => this.process(message, channel, place));
  }

  private async process(message: Message, channel: ChannelRef, place: Place): Promise<void> {
    const log = this.deps.logger.child({ channelId: channel.channelId, messageId: message.id });
    const botId = message.client.user.id;
    const addressed = isAddressed({
      botId,
      isDM: !channel.guildId,
      mentionedUserIds: [...message.mentions.users.keys()],
      repliedToAuthorId: message.mentions.repliedUser?.id ?? null,
    });
    try {
      const reply = addressed || (await this.respondsToAll(place));
      const incoming = await this.toIncoming(message, place, botId, reply);
      if (!reply) {
        const outcome = await this.deps.assistant.conversation.handle(incoming.message);
        // e.g. "I removed a secret from your message": told once, even when not addressed.
        if (outcome.notices.length)
          await message.reply({
            content: outcome.notices
              .map((n) => `-# ⚠ ${n}`)
              .join('\n')
              .slice(0, 2000),
            allowedMentions: { parse: [], repliedUser: false },
            failIfNotExists: false,
          });
        return;
      }
      await this.answer(message, incoming.message, incoming.warnings, place, log);
    } catch (error) {
      log.error({ err: error }, 'message handling failed');
      if (addressed) await message.reply({ content: APOLOGY_TEXT, allowedMentions: { parse: [], repliedUser: false }, failIfNotExists: false }).catch(() => {});
    }
  }

  /** A private conversation has no project config and always answers. */
  private async respondsToAll(place: Place): Promise<boolean> {
    const config = await this.deps.assistant.settings.projectConfig(place);
    return (config?.respond ?? 'always') === 'always';
  }

  private async toIncoming(message: Message, place: Place, botId: string, reply: boolean): Promise<{ message: IncomingMessage; warnings: string[] }> {
    const refs: AttachmentRef[] = [...message.attachments.values()].map((a) => ({ name: a.name, url: a.url, contentType: a.contentType, size: a.size }));
    const audio = this.deps.transcribeAudio ? refs.filter((a) => isAudioAttachment(a.contentType, a.name)) : [];
    const files = await readAttachments(
      refs.filter((a) => !audio.includes(a)),
      {
        acceptsImages: this.deps.acceptsImages,
        maxTextBytes: this.deps.attachmentMaxBytes,
        maxImageBytes: this.deps.imageMaxBytes,
        downloadTimeoutMs: this.deps.attachmentTimeoutMs,
        fetch: this.deps.fetch ?? fetch,
      },
    );
    if (audio.length) {
      const voice = await this.deps.transcribeAudio!(audio);
      files.texts.unshift(...voice.texts);
      files.warnings.push(...voice.warnings);
    }
    const text = [stripBotMention(message.content, botId), ...files.texts].filter(Boolean).join('\n\n');
    return {
      message: {
        place,
        speaker: displayName(message),
        speakerId: message.author.id,
        text,
        source: messageUrl(message.guildId, message.channelId, message.id),
        time: message.createdAt,
        images: files.images.length ? files.images : undefined,
        mode: 'text',
        reply,
      },
      warnings: files.warnings,
    };
  }

  private async answer(message: Message, incoming: IncomingMessage, warnings: string[], place: Place, log: Logger): Promise<void> {
    const channel = message.channel as SendableChannels;
    const sink = messageSink(message, channel);
    const renderer = new ReplyRenderer(sink, {
      intervalMs: this.deps.editIntervalMs,
      maxMessages: this.deps.replyMaxMessages,
      onError: (e) => log.warn({ err: e }, 'updating the reply failed'),
    });
    const stopTyping = keepTyping(channel, this.deps.typingIntervalMs ?? 8000, log);
    try {
      const tools = { user: { owner: this.deps.access.isOwner(message.author.id), id: message.author.id }, confirm: discordConfirm(channel, message.author.id) };
      const consent = this.consent(message, channel);
      const onEvent: TurnEventListener = (e) => renderer.onEvent(e);
      const outcome = await this.deps.assistant.conversation.handle(incoming, { onEvent, tools, consent });
      const failed = outcome.reason === 'error' && !outcome.reply.trim();
      const rows = [this.deps.notes.suggestionRow(place, outcome.related), failed ? null : whyButtonRow(outcome.records)].filter((r) => r !== null);
      await renderer.finish({
        text: failed ? APOLOGY_TEXT : outcome.reply,
        notices: [...warnings, ...outcome.notices],
        components: rows.length ? rows : undefined,
        deadline: outcome.deadline,
      });
      log.debug({ reason: outcome.reason, messages: renderer.messageCount }, 'answered');
    } catch (error) {
      log.error({ err: error }, 'turn failed');
      await renderer.finish({ text: APOLOGY_TEXT, notices: warnings });
    } finally {
      stopTyping();
    }
  }

  /**
   * Asking in the moment: the author answers for their own items (and, with an editor's role, for
   * the channel's shared ones); in a server channel the question goes to their DMs (and the
   * core's lines about it, being for a shared place, count the items instead of naming them).
   */
  private consent(message: Message, channel: SendableChannels): ConsentAccess {
    const name = displayName(message);
    const shared = message.guildId !== null;
    const where = 'name' in message.channel && typeof message.channel.name === 'string' ? `#${message.channel.name}` : undefined;
    return {
      person: { id: message.author.id, name, role: memberRole(message.author.id, message.member, this.deps.access, this.deps.editorRole) },
      ask: discordConsentAsk({ user: message.author, channel, post: (content) => channel.send({ content, allowedMentions: { parse: [] } }), ...(where ? { where } : {}) }),
      shared,
    };
  }
}

function messageSink(message: Message, channel: SendableChannels): ReplySink<Message> {
  let first = true;
  const noPings = { parse: [] as never[], repliedUser: false };
  return {
    async send(content, components) {
      const options = { content, components: components as never, allowedMentions: noPings };
      if (first) {
        first = false;
        return message.reply({ ...options, failIfNotExists: false });
      }
      return channel.send(options);
    },
    async edit(handle, content, components) {
      await handle.edit({ content, components: components as never, allowedMentions: noPings });
    },
    async remove(handle) {
      await handle.delete();
    },
  };
}

function keepTyping(channel: SendableChannels, intervalMs: number, log: Logger): () => void {
  const type = () => void channel.sendTyping().catch((e: unknown) => log.debug({ err: e }, 'typing failed'));
  type();
  return heartbeat(type, intervalMs);
}

export function channelRef(message: Message): ChannelRef {
  const ch = message.channel;
  return { channelId: message.channelId, guildId: message.guildId, channelName: 'name' in ch && typeof ch.name === 'string' ? ch.name : null };
}

function displayName(message: Message): string {
  return message.member?.displayName ?? message.author.globalName ?? message.author.username;
}
