/**
 * The transport-independent receive path: Opus packets per speaker → one stateful decoder
 * per speaker → 16 kHz mono → wall-clock segmenter → gates (minimum length, energy) →
 * segments for the recogniser. Knows nothing of Discord: the session feeds it packets.
 */
import { SpeakerDecoder } from '../speech/audio/opus.js';
import { EnergyGate } from '../speech/vad/energy.js';
import { UtteranceSegmenter, type EndReason, type Utterance } from './segmenter.js';
import type { Timers } from './timers.js';

export interface ReceivePipelineOptions {
  silenceMs: number;
  /** Shorter segments never reach the recogniser. */
  minSpeechMs: number;
  /** Segments with less voiced audio than this (energy gate) never reach the recogniser. Default 150. */
  minVoicedMs?: number;
  maxUtteranceMs?: number;
  /** Ask the end-of-turn detector at pauses this long (unset: only the long window ends a turn). */
  pauseMs?: number;
  /** Packets without voice for this long close an utterance (listening without speech). */
  maxNoSpeechMs?: number;
  /** Users whose audio is never processed (Charlie's own id). */
  ignoreUserIds?: readonly string[];
  gate?: EnergyGate;
}

export type DiscardReason = 'too_short' | 'no_voice';

export type Segment = Utterance & { closedAt: number; reason: EndReason };

export interface ReceiveHandlers {
  /** A segment that passed the gates; `closedAt` is when the segmenter closed it, `reason` why. */
  onSegment(segment: Segment): void;
  onDiscard?(userId: string, reason: DiscardReason, utterance: Utterance): void;
  /** Voice activity started (first packet of an utterance). */
  onStart?(userId: string): void;
  /** The utterance so far, at a pause of `pauseMs` (only utterances that would pass the gates). */
  onPause?(snapshot: Utterance, pauseMs: number): void;
  /** Voice came back after a pause was reported. */
  onResume?(userId: string): void;
  /** After every packet: how much voice the speaker's current utterance has so far. */
  onActivity?(userId: string, voicedMs: number, speechMs: number): void;
}

export class ReceivePipeline {
  private readonly decoders = new Map<string, SpeakerDecoder>();
  private readonly segmenter: UtteranceSegmenter;
  private readonly gate: EnergyGate;
  private readonly ignore: Set<string>;
  private closed = false;

  constructor(
    private readonly options: ReceivePipelineOptions,
    private readonly timers: Timers,
    private readonly handlers: ReceiveHandlers,
  ) {
    this.gate = options.gate ?? new EnergyGate();
    this.ignore = new Set(options.ignoreUserIds ?? []);
    this.segmenter = new UtteranceSegmenter(
      {
        silenceMs: options.silenceMs,
        ...(options.maxUtteranceMs ? { maxUtteranceMs: options.maxUtteranceMs } : {}),
        ...(options.pauseMs ? { pauseMs: options.pauseMs } : {}),
        ...(options.maxNoSpeechMs ? { maxNoSpeechMs: options.maxNoSpeechMs } : {}),
      },
      timers,
      (u, reason) => this.finish(u, reason),
      {
        start: (userId) => handlers.onStart?.(userId),
        pause: (u, pauseMs) => {
          if (this.passes(u)) handlers.onPause?.(u, pauseMs);
        },
        resume: (userId) => handlers.onResume?.(userId),
      },
    );
  }

  /** One Opus packet from one speaker, as it arrives. */
  push(userId: string, packet: Uint8Array): void {
    if (this.closed || this.ignore.has(userId)) return;
    let decoder = this.decoders.get(userId);
    if (!decoder) {
      decoder = new SpeakerDecoder();
      this.decoders.set(userId, decoder);
    }
    const pcm = decoder.decode(packet);
    const voiced = this.gate.frame(pcm).voiced;
    const state = this.segmenter.push(userId, pcm, voiced);
    this.handlers.onActivity?.(userId, state.voicedMs, state.speechMs);
  }

  private passes(u: Utterance): boolean {
    return u.speechMs >= this.options.minSpeechMs && u.voicedMs >= (this.options.minVoicedMs ?? 150);
  }

  private finish(u: Utterance, reason: EndReason): void {
    if (u.speechMs < this.options.minSpeechMs) return this.handlers.onDiscard?.(u.userId, 'too_short', u);
    if (u.voicedMs < (this.options.minVoicedMs ?? 150)) return this.handlers.onDiscard?.(u.userId, 'no_voice', u);
    this.handlers.onSegment({ ...u, closedAt: this.timers.now(), reason });
  }

  /** End the speaker's turn now if no voice came after `lastVoicedAt` (the end-of-turn detector decided). */
  commit(userId: string, lastVoicedAt: number): boolean {
    return this.segmenter.commit(userId, lastVoicedAt);
  }

  /** A speaker left: close their utterance and free their decoder. */
  removeSpeaker(userId: string): void {
    this.segmenter.finish(userId);
    this.decoders.get(userId)?.close();
    this.decoders.delete(userId);
  }

  get activeSpeakers(): string[] {
    return this.segmenter.speakers;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.segmenter.clear();
    for (const d of this.decoders.values()) d.close();
    this.decoders.clear();
  }
}
