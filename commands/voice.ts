/**
 * `/voice join` · `/voice leave` · `/voice status`: Charlie in the caller's voice channel,
 * bound to the project of the text channel the command was used in (same memory, same
 * conversation). Needs `ctx.services.voice` to be a `VoiceSessions` (built in main.ts).
 */
import { type ChatInputCommandInteraction } from 'discord.js';
import { ephemeral, GROUPS, type Command, type CommandContext } from '../src/discord/command.js';
import { describeLane } from '../src/core/lanes.js';
import { postText } from '../src/discord/post-text.js';
import { discordConsentAsk } from '../src/discord/consent-ask.js';
import type { VoiceMember, VoiceStatus, VoiceTarget } from '../src/voice/session.js';
import { VoiceSessions } from '../src/voice/sessions.js';
import { errorMessage } from '../src/util/error-text.js';

type VoiceRun = (interaction: ChatInputCommandInteraction, ctx: CommandContext, voice: VoiceSessions | null) => Promise<void>;

/** A `/voice` subcommand: it runs with the voice sessions main.ts built (null when voice is off). */
function voiceCommand(subcommand: { name: string; description: string }, run: VoiceRun): Command {
  return {
    ...GROUPS.voice,
    subcommand,
    execute: (interaction, ctx) => run(interaction, ctx, ctx.services.voice instanceof VoiceSessions ? ctx.services.voice : null),
  };
}

async function refuse(interaction: ChatInputCommandInteraction, text: string): Promise<void> {
  await interaction.reply(ephemeral(text));
}

export function describeStatus(s: VoiceStatus): string {
  const doing = s.state === 'speaking' ? 'speaking' : s.state === 'connecting' ? 'connecting' : s.speakersTalking ? 'listening to someone' : 'listening';
  return [
    `🎙️ In **${s.voiceChannelName}** for project **${s.project}** — ${doing}.`,
    `People here: ${s.humans}. ${s.wakeNameNeeded ? 'Start or end with my name to talk to me.' : 'Everything said is for me.'}`,
    `Turns: ${s.turns}${s.queuedSentences ? ` · sentences queued: ${s.queuedSentences}` : ''}${s.rejoins ? ` · rejoins after DAVE failures: ${s.rejoins}` : ''}`,
    `Speech to text: ${s.stt} · Voice: ${s.tts} (${s.ttsLocal ? 'local' : 'hosted: the reply text leaves this machine'})`,
    describeEndOfTurn(s.endOfTurn),
  ].join('\n');
}

function describeEndOfTurn(e: VoiceStatus['endOfTurn']): string {
  const how = e.mode === 'fixed window' ? `a turn ends after ${e.silenceMs} ms of silence` : `checked after a ${e.pauseMs} ms pause, at most ${e.silenceMs} ms after the last word`;
  const head = `End of turn: ${e.mode} (${how}).`;
  if (!e.last) return head;
  const l = e.last;
  const audio = l.firstAudioMs === null ? 'no reply spoken yet' : `first sound after ${l.firstAudioMs} ms`;
  const spec = l.speculative ? ` · early transcripts: ${l.speculative}${l.discarded ? `, ${l.discarded} discarded` : ''}` : '';
  return `${head} Last turn: ended by ${l.reason.replace(/_/g, ' ')} ${l.waitedMs} ms after the last word, ${audio}${spec}.`;
}

const join = voiceCommand({ name: 'join', description: "Join your voice channel; this channel's project is the conversation" }, async (interaction, ctx, voice) => {
  if (!voice) return refuse(interaction, 'Voice is not enabled on this Charlie.');
  if (!interaction.inCachedGuild() || ctx.place.kind !== 'project') return refuse(interaction, 'Voice works in server channels, not in DMs.');
  const channel = interaction.member.voice.channel;
  if (!channel) return refuse(interaction, 'Join a voice channel first, then use /voice join here.');
  const guild = interaction.guild;
  const textChannelId = interaction.channelId;
  const members = (): VoiceMember[] => {
    const current = guild.channels.cache.get(channel.id);
    if (!current?.isVoiceBased()) return [];
    return [...current.members.values()].map((m) => ({ id: m.id, displayName: m.displayName, bot: m.user.bot }));
  };
  const post = async (text: string) => {
    const target = interaction.channel ?? (await interaction.client.channels.fetch(textChannelId));
    if (!target?.isSendable()) return;
    await postText(target, text, ctx.replyMaxMessages);
  };
  const target: VoiceTarget = {
    guildId: guild.id,
    voiceChannelId: channel.id,
    voiceChannelName: channel.name,
    textChannelId,
    place: ctx.place,
    botUserId: interaction.client.user.id,
    adapterCreator: guild.voiceAdapterCreator,
    members,
    post,
    // asked in the moment by DM: voice shows no buttons, and the voice channel is shared
    consentFor: (speaker, checkDms) => ({
      person: { ...speaker, role: ctx.roleOf(speaker.id, guild.members.cache.get(speaker.id) ?? null) },
      ask: async (request, signal) => {
        const user = await interaction.client.users.fetch(speaker.id);
        return discordConsentAsk({ user, post, onDm: checkDms, where: `🎙️ ${channel.name}` })(request, signal);
      },
      shared: true,
    }),
  };
  voice.watch(interaction.client);
  await interaction.deferReply();
  try {
    const result = await voice.join(target);
    const verb = result.outcome === 'already' ? 'Already in' : result.outcome === 'moved' ? 'Moved to' : 'Joined';
    await interaction.editReply({ content: `${verb} **${channel.name}**.\n${describeStatus(result.status)}`, allowedMentions: { parse: [] } });
  } catch (error) {
    ctx.logger.warn({ err: error }, 'voice join failed');
    await interaction.editReply({ content: `Couldn't join **${channel.name}**: ${errorMessage(error)}`, allowedMentions: { parse: [] } });
  }
});

const leave = voiceCommand({ name: 'leave', description: 'Leave the voice channel' }, async (interaction, _ctx, voice) => {
  if (!voice || !interaction.guildId) return refuse(interaction, 'I am not in a voice channel.');
  const left = voice.leave(interaction.guildId);
  await interaction.reply({ content: left ? '👋 Left the voice channel.' : 'I am not in a voice channel.', allowedMentions: { parse: [] } });
});

const status = voiceCommand({ name: 'status', description: 'What Charlie is doing in voice' }, async (interaction, ctx, voice) => {
  const s = voice && interaction.guildId ? voice.status(interaction.guildId) : null;
  const models = ctx.assistant
    .lanes()
    .map((l) => `• ${describeLane(l)}`)
    .join('\n');
  const text = s ? describeStatus(s) : 'Not in a voice channel. Use /voice join from a project channel while you are in a voice channel.';
  await refuse(interaction, `${text}\n${models}`);
});

export default [join, leave, status];
