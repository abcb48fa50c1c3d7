/**
 * One guild's voice session: the thin Discord glue around the transport-independent parts.
 * Joins with the guild's adapter (DAVE via @snazzah/davey), subscribes once per speaker
 * (never to Charlie itself) and keeps that subscription open, feeds the receive pipeline,
 * hands segments to the conversation, plays replies through one AudioPlayer, counts DAVE
 * decryption failures (rejoin + visible warning), and leaves an empty channel.
 */
import { guardSpeech } from '../core/privacy/egress.js';
import {
  createAudioPlayer,
  EndBehaviorType,
  entersState,
  joinVoiceChannel,
  NoSubscriberBehavior,
  VoiceConnectionStatus,
  type AudioPlayer,
  type DiscordGatewayAdapterCreator,
  type VoiceConnection,
} from '@discordjs/voice';
import type { ConversationApi } from '../core/assistant-api.js';
import type { ConsentAccess } from '../core/privacy/consent.js';
import type { Place } from '../core/place.js';
import type { Logger, SpeechToText, TextToSpeech } from '../core/ports/index.js';
import { AddressingPolicy, type WakeRule } from './addressing.js';
import { BargeInDetector } from './barge-in.js';
import { DaveFailureMonitor } from './dave-monitor.js';
import { DiscordAudioSink } from './discord-audio.js';
import { chooseDetector, type TurnDetection } from './end-of-turn.js';
import { type TurnModel } from '../core/ports/index.js';
import { PlaybackQueue, type AudioSink } from './playback-queue.js';
import { realTimers, type Timers } from './timers.js';
import { TurnTaker, type EndOfTurnStatus, type HeardTurn } from './turn-taker.js';
import { TurnTimingTracker, type LastTurn } from './turn-timings.js';
import { VoiceConversation } from './voice-conversation.js';

export interface VoiceSettings {
  wakeName: string;
  wakeRule: WakeRule;
  silenceMs: number;
  minSpeechMs: number;
  bargeIn: boolean;
  bargeInMs: number;
  /** Leave this long after the last person left (0 = at once). */
  emptyLeaveMs: number;
  language?: string;
  /** End of turn (VOICE_TURN_DETECTION). Default auto. */
  turnDetection?: TurnDetection;
  /** The short pause at which the detector is asked. Default 400. */
  turnPauseMs?: number;
  turnModelThreshold?: number;
  /** Hard caps: one utterance's length, and packets without voice. Defaults 30 s, 10 s. */
  maxUtteranceMs?: number;
  maxNoSpeechMs?: number;
}

export interface VoiceMember {
  id: string;
  displayName: string;
  bot: boolean;
}

/** Everything a session needs about where it is; built by `/voice join`. */
export interface VoiceTarget {
  guildId: string;
  voiceChannelId: string;
  voiceChannelName: string;
  /** The text channel `/voice join` was called from; its project is the conversation. */
  textChannelId: string;
  place: Place;
  botUserId: string;
  adapterCreator: DiscordGatewayAdapterCreator;
  /** Who is in the voice channel now. */
  members(): VoiceMember[];
  /** Post in the text channel (split to Discord's limit by the caller). */
  post(text: string): Promise<void>;
  /**
   * Asking a speaker in the moment (a DM question: voice shows no buttons); `checkDms` says so
   * in the voice channel, by the local voice only.
   */
  consentFor?(speaker: { id: string; name: string }, checkDms: () => void): ConsentAccess;
}

/** Said when a consent question went to the speaker's DMs; only ever by the local voice. */
export const CHECK_DMS = 'Check your DMs: I asked you something there.';

export interface VoiceSessionDeps {
  assistant: { conversation: Pick<ConversationApi, 'handle' | 'speechMustStayLocal'> };
  stt: SpeechToText;
  tts: TextToSpeech;
  settings: VoiceSettings;
  logger: Logger;
  timers?: Timers;
  /** A learned end-of-turn model, when its file was found (main.ts loads it). */
  turnModel?: TurnModel | null;
  /** Injected for tests; defaults to @discordjs/voice `joinVoiceChannel`. */
  connect?: (target: VoiceTarget) => VoiceConnection;
  /** Injected for tests; defaults to a sink over the AudioPlayer. */
  sink?: (player: AudioPlayer) => AudioSink;
  /** How long joining may take. Default 20 s. */
  readyTimeoutMs?: number;
}

export type SessionState = 'connecting' | 'listening' | 'speaking' | 'left';

export interface VoiceStatus {
  state: SessionState;
  voiceChannelName: string;
  project: string;
  humans: number;
  wakeNameNeeded: boolean;
  speakersTalking: number;
  queuedSentences: number;
  turns: number;
  rejoins: number;
  stt: string;
  tts: string;
  /** Whether the voice engine runs here; a hosted one receives the reply text. */
  ttsLocal: boolean;
  /** How end of turn is decided, and the last turn's timings (ms). */
  endOfTurn: { mode: string; pauseMs: number; silenceMs: number; last: LastTurn | null };
}

export function defaultConnect(target: VoiceTarget): VoiceConnection {
  return joinVoiceChannel({
    guildId: target.guildId,
    channelId: target.voiceChannelId,
    adapterCreator: target.adapterCreator,
    selfDeaf: false,
    selfMute: false,
    debug: true, // DAVE decryption failures are only reported as debug lines
  });
}

export class VoiceSession {
  private connection: VoiceConnection | null = null;
  private readonly player: AudioPlayer;
  private readonly queue: PlaybackQueue;
  private readonly listener: TurnTaker;
  private readonly timings: TurnTimingTracker;
  private readonly conversation: VoiceConversation;
  private readonly bargeIn: BargeInDetector;
  private readonly dave: DaveFailureMonitor;
  private readonly subscribed = new Set<string>();
  private readonly log: Logger;
  private readonly timers: Timers;
  private readonly policy: AddressingPolicy;
  private emptyTimer: unknown = null;
  private state: SessionState = 'connecting';
  private turns = 0;
  private rejoins = 0;
  private rejoining = false;

  constructor(
    readonly target: VoiceTarget,
    private readonly deps: VoiceSessionDeps,
    private readonly onLeft: (reason: string) => void = () => {},
  ) {
    this.log = deps.logger.child({ voice: target.guildId });
    this.timers = deps.timers ?? realTimers;
    const s = deps.settings;
    this.player = createAudioPlayer({ behaviors: { noSubscriber: NoSubscriberBehavior.Play } });
    this.player.on('error', (error) => this.log.warn({ err: error }, 'audio player error'));
    // The online voice is a hosted service: what it is sent passes the egress guard.
    // "check your DMs" stays local too: no hosted voice hears that a question is open
    const tts = guardSpeech(deps.tts, async (text) => text === CHECK_DMS || (await deps.assistant.conversation.speechMustStayLocal(target.place, text)));
    this.timings = new TurnTimingTracker(this.timers, this.log);
    const sink = this.timings.wrap((deps.sink ?? ((p) => new DiscordAudioSink(p)))(this.player));
    this.queue = new PlaybackQueue({ tts, sink, logger: this.log });
    this.policy = new AddressingPolicy(s.wakeName, s.wakeRule);
    const consentFor = target.consentFor?.bind(target);
    this.conversation = new VoiceConversation({
      assistant: deps.assistant,
      stt: deps.stt,
      queue: this.queue,
      place: target.place,
      policy: this.policy,
      humansPresent: () => this.humans().length,
      post: (text) => target.post(text),
      logger: this.log,
      ...(s.language ? { language: s.language } : {}),
      ...(consentFor ? { consentFor: (speaker: { id: string; name: string }) => consentFor(speaker, () => this.queue.enqueue(CHECK_DMS)) } : {}),
    });
    this.bargeIn = new BargeInDetector({ enabled: s.bargeIn, thresholdMs: s.bargeInMs }, this.queue, (userId, dropped) => this.log.info({ user: userId, dropped }, 'barge-in: stopped speaking'));
    const pauseMs = s.turnPauseMs ?? 400;
    this.listener = new TurnTaker({
      stt: deps.stt,
      detector: chooseDetector(s.turnDetection ?? 'auto', {
        pauseMs,
        silenceMs: s.silenceMs,
        wakeName: s.wakeName,
        model: deps.turnModel ?? null,
        ...(s.turnModelThreshold !== undefined ? { threshold: s.turnModelThreshold } : {}),
      }),
      pipeline: {
        silenceMs: s.silenceMs,
        pauseMs,
        minSpeechMs: s.minSpeechMs,
        ignoreUserIds: [target.botUserId],
        ...(s.maxUtteranceMs ? { maxUtteranceMs: s.maxUtteranceMs } : {}),
        ...(s.maxNoSpeechMs ? { maxNoSpeechMs: s.maxNoSpeechMs } : {}),
      },
      timers: this.timers,
      logger: this.log,
      ...(s.language ? { language: s.language } : {}),
      onActivity: (userId, voicedMs) => this.bargeIn.activity(userId, voicedMs),
      onTurn: (turn) => this.heard(turn),
      onDiscard: (userId) => this.bargeIn.utteranceEnded(userId),
    });
    this.dave = new DaveFailureMonitor((n) => void this.rejoin(n));
  }

  private heard(turn: HeardTurn): void {
    this.bargeIn.utteranceEnded(turn.userId);
    const member = this.target.members().find((m) => m.id === turn.userId);
    if (member?.bot) return;
    this.timings.committed(turn.timings);
    void this.conversation
      .hear({ userId: turn.userId, displayName: member?.displayName ?? 'Someone', pcm: turn.pcm, ...(turn.transcript !== undefined ? { transcript: turn.transcript } : {}) })
      .then((outcome) => {
        if (outcome.kind === 'answered') this.turns++;
      });
  }

  /** Join and wait until the connection is ready. */
  async start(): Promise<void> {
    const timeoutMs = this.deps.readyTimeoutMs ?? 20_000;
    this.attach((this.deps.connect ?? defaultConnect)(this.target));
    try {
      await entersState(this.connection!, VoiceConnectionStatus.Ready, timeoutMs);
    } catch (cause) {
      this.leave('could not connect');
      throw new Error(`could not connect to ${this.target.voiceChannelName} within ${timeoutMs / 1000} s — check the bot's Connect and Speak permissions`, { cause });
    }
    this.state = 'listening';
    this.membersChanged();
    // fetch / load the local Whisper model now rather than on the first utterance
    this.deps.stt.warmUp?.().catch((error: unknown) => this.log.warn({ err: error }, 'speech to text is not ready'));
    // and the local voice: its WebAssembly is compiled on first use (~0.1–0.3 s the first reply would wait)
    this.deps.tts.warmUp?.().catch((error: unknown) => this.log.warn({ err: error }, 'text to speech is not ready'));
    this.deps.turnModel?.load?.().catch((error: unknown) => this.log.warn({ err: error }, 'end-of-turn model is not ready; the text rules decide'));
  }

  private attach(connection: VoiceConnection): void {
    this.connection = connection;
    this.subscribed.clear();
    connection.subscribe(this.player);
    connection.on('debug', (message: string) => this.dave.observe(message));
    connection.on('error', (error: Error) => {
      if (!this.dave.observe(error.message)) this.log.warn({ err: error }, 'voice connection error');
    });
    connection.on('stateChange', (_old, state) => {
      if (connection !== this.connection) return;
      if (state.status === VoiceConnectionStatus.Disconnected) void this.recover(connection);
      if (state.status === VoiceConnectionStatus.Destroyed && !this.rejoining) this.leave('disconnected');
    });
    connection.receiver.speaking.on('start', (userId: string) => this.subscribe(userId));
  }

  /** One subscription per speaker for the whole session (re-subscribing per utterance clips syllables). */
  private subscribe(userId: string): void {
    if (userId === this.target.botUserId || this.subscribed.has(userId) || !this.connection) return;
    if (this.target.members().find((m) => m.id === userId)?.bot) return;
    this.subscribed.add(userId);
    const stream = this.connection.receiver.subscribe(userId, { end: { behavior: EndBehaviorType.Manual } });
    stream.on('data', (packet: Buffer) => this.listener.push(userId, packet));
    stream.on('error', (error) => {
      // the receiver destroys a speaker's stream when a packet cannot be decrypted (DAVE gave up)
      this.log.warn({ user: userId, err: error }, 'receive stream failed; will resubscribe when they speak');
      this.dave.observeStreamError();
    });
    stream.on('close', () => this.subscribed.delete(userId));
  }

  /** Disconnected: give Discord 5 s to move us back, else give up (the standard recovery). */
  private async recover(connection: VoiceConnection): Promise<void> {
    try {
      await Promise.race([entersState(connection, VoiceConnectionStatus.Signalling, 5_000), entersState(connection, VoiceConnectionStatus.Connecting, 5_000)]);
    } catch {
      if (connection === this.connection && !this.rejoining) this.leave('disconnected');
    }
  }

  /** Repeated DAVE failures: drop the connection, join again, and say so in the channel. */
  private async rejoin(failures: number): Promise<void> {
    if (this.state === 'left' || this.rejoining) return;
    this.rejoining = true;
    this.rejoins++;
    this.log.warn({ failures, rejoins: this.rejoins }, 'repeated DAVE decryption failures: rejoining');
    void this.target.post(`⚠️ Voice decryption (DAVE) kept failing; I'm rejoining ${this.target.voiceChannelName}. If this repeats, try /voice leave and /voice join.`).catch(() => {});
    try {
      for (const userId of this.subscribed) this.listener.removeSpeaker(userId);
      this.connection?.destroy();
      this.attach((this.deps.connect ?? defaultConnect)(this.target));
      await entersState(this.connection!, VoiceConnectionStatus.Ready, this.deps.readyTimeoutMs ?? 20_000);
    } catch (error) {
      this.log.warn({ err: error }, 'rejoin failed');
      this.rejoining = false;
      this.leave('rejoin failed');
      return;
    }
    this.rejoining = false;
  }

  private humans(): VoiceMember[] {
    return this.target.members().filter((m) => !m.bot && m.id !== this.target.botUserId);
  }

  /** Call on every voice state change in the guild: leaves an empty channel, forgets speakers who left. */
  membersChanged(): void {
    if (this.state === 'left') return;
    const present = new Set(this.target.members().map((m) => m.id));
    for (const userId of this.subscribed) if (!present.has(userId)) this.listener.removeSpeaker(userId);
    if (this.humans().length === 0) {
      if (this.emptyTimer === null) {
        this.emptyTimer = this.timers.setTimeout(() => {
          this.emptyTimer = null;
          if (this.humans().length === 0) this.leave('the channel is empty');
        }, this.deps.settings.emptyLeaveMs);
      }
    } else if (this.emptyTimer !== null) {
      this.timers.clearTimeout(this.emptyTimer);
      this.emptyTimer = null;
    }
  }

  status(): VoiceStatus {
    const humans = this.humans().length;
    return {
      state: this.state === 'listening' && this.queue.speaking ? 'speaking' : this.state,
      voiceChannelName: this.target.voiceChannelName,
      project: this.target.place.kind === 'project' ? this.target.place.origin.name : 'private',
      humans,
      wakeNameNeeded: this.policy.needsWakeName(humans),
      speakersTalking: this.listener.activeSpeakers.length,
      queuedSentences: this.queue.pending,
      turns: this.turns,
      rejoins: this.rejoins,
      stt: this.deps.stt.id,
      tts: this.deps.tts.id,
      ttsLocal: this.deps.tts.locality === 'local',
      endOfTurn: { ...this.endOfTurnStatus(), last: this.timings.last },
    };
  }

  private endOfTurnStatus(): Omit<EndOfTurnStatus, 'last'> {
    const { mode, pauseMs, silenceMs } = this.listener.status();
    return { mode, pauseMs, silenceMs };
  }

  leave(reason: string): void {
    if (this.state === 'left') return;
    this.state = 'left';
    if (this.emptyTimer !== null) this.timers.clearTimeout(this.emptyTimer);
    this.conversation.close();
    this.listener.close();
    this.player.stop(true);
    try {
      if (this.connection && this.connection.state.status !== VoiceConnectionStatus.Destroyed) this.connection.destroy();
    } catch {
      // already destroyed
    }
    this.log.info({ reason }, 'left the voice channel');
    this.onLeft(reason);
  }
}
