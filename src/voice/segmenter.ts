/**
 * Wall-clock utterance segmenter. Discord sends no packets while someone is silent, and an
 * open microphone sends noise; so a pause is measured on the clock from the speaker's last
 * *voiced* packet (the last word), not from the last packet. A packet arriving inside the
 * window continues the same utterance (the gap is kept as silence, capped, so the
 * recogniser hears the pause). One state per speaker.
 *
 * Events: `start` (first packet), `pause` once per pause when it reaches `pauseMs` (the
 * end-of-turn detector is asked then), `resume` when voice returns after such a pause, and
 * the utterance itself when it closes: after `silenceMs` without voice (the long window),
 * at `maxUtteranceMs`, after `maxNoSpeechMs` of packets that never held voice, or when
 * `commit`/`finish` close it.
 */
import { concatInt16 } from '../speech/audio/pcm.js';
import type { Timers } from './timers.js';

export type EndReason = 'silence' | 'max_length' | 'no_speech' | 'committed' | 'closed';

export interface Utterance {
  userId: string;
  /** 16 kHz mono s16. */
  pcm: Int16Array;
  /** Clock time of the first and of the last packet. */
  startedAt: number;
  endedAt: number;
  /** Clock time of the last voiced packet (the last word); `startedAt` when none was voiced. */
  lastVoicedAt: number;
  /** Audio received (packets × their length), not counting inserted gaps. */
  speechMs: number;
  /** Part of `speechMs` the energy gate judged to be voice. */
  voicedMs: number;
}

export interface SegmenterOptions {
  silenceMs: number;
  /** Ask whether the turn is over when a pause reaches this (unset: only the long window ends an utterance). */
  pauseMs?: number;
  /** An utterance this long is cut even if the speaker goes on (Whisper's window is 30 s). */
  maxUtteranceMs?: number;
  /** Packets that never held voice (an open microphone, a fan) for this long close the utterance. Default 10 s. */
  maxNoSpeechMs?: number;
  sampleRate?: number;
}

export interface SegmenterEvents {
  start?(userId: string): void;
  pause?(snapshot: Utterance, pauseMs: number): void;
  resume?(userId: string): void;
}

interface Open {
  chunks: Int16Array[];
  startedAt: number;
  lastAt: number;
  lastVoicedAt: number | null;
  pauseFired: boolean;
  speechMs: number;
  voicedMs: number;
  samples: number;
  timer: unknown;
}

export class UtteranceSegmenter {
  private readonly open = new Map<string, Open>();
  private readonly maxMs: number;
  private readonly maxNoSpeechMs: number;
  private readonly rate: number;

  constructor(
    private readonly options: SegmenterOptions,
    private readonly timers: Timers,
    private readonly onUtterance: (utterance: Utterance, reason: EndReason) => void,
    private readonly events: SegmenterEvents = {},
  ) {
    this.maxMs = options.maxUtteranceMs ?? 30_000;
    this.maxNoSpeechMs = options.maxNoSpeechMs ?? 10_000;
    this.rate = options.sampleRate ?? 16_000;
  }

  /** Add one decoded packet; returns the speaker's utterance so far (for barge-in). */
  push(userId: string, pcm: Int16Array, voiced: boolean): { speechMs: number; voicedMs: number; started: boolean } {
    const now = this.timers.now();
    const packetMs = (pcm.length * 1000) / this.rate;
    let u = this.open.get(userId);
    const started = !u;
    if (!u) {
      u = { chunks: [], startedAt: now, lastAt: now, lastVoicedAt: null, pauseFired: false, speechMs: 0, voicedMs: 0, samples: 0, timer: undefined };
      this.open.set(userId, u);
      this.events.start?.(userId);
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
    if (voiced) {
      u.voicedMs += packetMs;
      u.lastVoicedAt = now;
      if (u.pauseFired) {
        u.pauseFired = false;
        this.events.resume?.(userId);
      }
    }
    const state = { speechMs: u.speechMs, voicedMs: u.voicedMs, started };
    if ((u.samples * 1000) / this.rate >= this.maxMs) this.finish(userId, 'max_length');
    else this.check(userId);
    return state;
  }

  /** When the utterance closes on the clock, and why. */
  private deadline(u: Open): { at: number; reason: EndReason } {
    if (u.lastVoicedAt === null) {
      const silence = u.lastAt + this.options.silenceMs;
      const cap = u.startedAt + this.maxNoSpeechMs;
      return silence <= cap ? { at: silence, reason: 'silence' } : { at: cap, reason: 'no_speech' };
    }
    return { at: u.lastVoicedAt + this.options.silenceMs, reason: 'silence' };
  }

  /** Close, fire the pause event, or wait for the next of those (timers can fire early or be stale). */
  private check(userId: string): void {
    const u = this.open.get(userId);
    if (!u) return;
    const now = this.timers.now();
    const close = this.deadline(u);
    if (now + 1 >= close.at) {
      this.finish(userId, close.reason);
      return;
    }
    let next = close.at;
    const pauseMs = this.options.pauseMs;
    if (pauseMs !== undefined && u.lastVoicedAt !== null && !u.pauseFired) {
      const pauseAt = u.lastVoicedAt + pauseMs;
      if (now + 1 >= pauseAt) {
        u.pauseFired = true;
        this.events.pause?.(this.snapshot(userId, u), now - u.lastVoicedAt);
        if (!this.open.has(userId)) return; // the pause handler committed the turn
      } else next = Math.min(next, pauseAt);
    }
    this.timers.clearTimeout(u.timer);
    u.timer = this.timers.setTimeout(() => this.check(userId), Math.max(1, next - now));
  }

  private snapshot(userId: string, u: Open): Utterance {
    return {
      userId,
      pcm: concatInt16(u.chunks),
      startedAt: u.startedAt,
      endedAt: u.lastAt,
      lastVoicedAt: u.lastVoicedAt ?? u.startedAt,
      speechMs: u.speechMs,
      voicedMs: u.voicedMs,
    };
  }

  /** The end-of-turn detector decided: close the utterance if no voice came after `lastVoicedAt`. */
  commit(userId: string, lastVoicedAt: number): boolean {
    const u = this.open.get(userId);
    if (u?.lastVoicedAt !== lastVoicedAt) return false;
    this.finish(userId, 'committed');
    return true;
  }

  /** End a speaker's utterance now (speaker left, session closing). */
  finish(userId: string, reason: EndReason = 'closed'): void {
    const u = this.open.get(userId);
    if (!u) return;
    this.timers.clearTimeout(u.timer);
    this.open.delete(userId);
    this.onUtterance(this.snapshot(userId, u), reason);
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
