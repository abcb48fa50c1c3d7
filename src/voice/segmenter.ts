/**
 * Wall-clock utterance segmenter. Discord sends no packets while someone is silent, so an
 * utterance ends when `silenceMs` have passed on the clock since the speaker's last packet;
 * a packet arriving inside that window continues the same utterance (the gap is kept as
 * silence, capped, so the recogniser hears the pause). One state per speaker.
 */
import { concatInt16 } from '../speech/audio/pcm.js';
import type { Timers } from './timers.js';

export interface Utterance {
  userId: string;
  /** 16 kHz mono s16. */
  pcm: Int16Array;
  /** Clock time of the first and of the last packet. */
  startedAt: number;
  endedAt: number;
  /** Audio received (packets × their length), not counting inserted gaps. */
  speechMs: number;
  /** Part of `speechMs` the energy gate judged to be voice. */
  voicedMs: number;
}

export interface SegmenterOptions {
  silenceMs: number;
  /** An utterance this long is cut even if the speaker goes on (Whisper's window is 30 s). */
  maxUtteranceMs?: number;
  sampleRate?: number;
}

interface Open {
  chunks: Int16Array[];
  startedAt: number;
  lastAt: number;
  speechMs: number;
  voicedMs: number;
  samples: number;
  timer: unknown;
}

export class UtteranceSegmenter {
  private readonly open = new Map<string, Open>();
  private readonly maxMs: number;
  private readonly rate: number;

  constructor(
    private readonly options: SegmenterOptions,
    private readonly timers: Timers,
    private readonly onUtterance: (utterance: Utterance) => void,
  ) {
    this.maxMs = options.maxUtteranceMs ?? 30_000;
    this.rate = options.sampleRate ?? 16_000;
  }

  /** Add one decoded packet; returns the speaker's utterance so far (for barge-in). */
  push(userId: string, pcm: Int16Array, voiced: boolean): { speechMs: number; voicedMs: number; started: boolean } {
    const now = this.timers.now();
    const packetMs = (pcm.length * 1000) / this.rate;
    let u = this.open.get(userId);
    const started = !u;
    if (!u) {
      u = { chunks: [], startedAt: now, lastAt: now, speechMs: 0, voicedMs: 0, samples: 0, timer: undefined };
      this.open.set(userId, u);
    } else {
      // keep a pause heard inside the window as silence (packets arrive every ~20 ms while talking)
      const gapMs = now - u.lastAt - packetMs;
      if (gapMs > 2 * packetMs) {
        const fill = new Int16Array(Math.round((Math.min(gapMs, this.options.silenceMs) * this.rate) / 1000));
        u.chunks.push(fill);
        u.samples += fill.length;
      }
      this.timers.clearTimeout(u.timer);
    }
    u.chunks.push(pcm);
    u.samples += pcm.length;
    u.lastAt = now;
    u.speechMs += packetMs;
    if (voiced) u.voicedMs += packetMs;
    if ((u.samples * 1000) / this.rate >= this.maxMs) {
      this.finish(userId);
    } else {
      u.timer = this.timers.setTimeout(() => this.check(userId), this.options.silenceMs);
    }
    return { speechMs: u.speechMs, voicedMs: u.voicedMs, started };
  }

  /** Timer fired: end the utterance if the silence really lasted (timers can fire early or be stale). */
  private check(userId: string): void {
    const u = this.open.get(userId);
    if (!u) return;
    const silent = this.timers.now() - u.lastAt;
    if (silent + 1 >= this.options.silenceMs) this.finish(userId);
    else u.timer = this.timers.setTimeout(() => this.check(userId), this.options.silenceMs - silent);
  }

  /** End a speaker's utterance now (speaker left, session closing). */
  finish(userId: string): void {
    const u = this.open.get(userId);
    if (!u) return;
    this.timers.clearTimeout(u.timer);
    this.open.delete(userId);
    this.onUtterance({
      userId,
      pcm: concatInt16(u.chunks),
      startedAt: u.startedAt,
      endedAt: u.lastAt,
      speechMs: u.speechMs,
      voicedMs: u.voicedMs,
    });
  }

  /** Drop open utterances without emitting them. */
  clear(): void {
    for (const u of this.open.values()) this.timers.clearTimeout(u.timer);
    this.open.clear();
  }

  get speakers(): string[] {
    return [...this.open.keys()];
  }
}
