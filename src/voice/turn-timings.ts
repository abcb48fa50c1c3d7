/**
 * The last turn's timings for `/voice status` and the debug log: when the turn was committed
 * after the last word, and when the reply's first audio started. The session tells it when a
 * turn is handed on and when the sink starts playing; the first play after a turn is its reply.
 */
import type { Logger } from '../core/ports/index.js';
import type { AudioSink } from './playback-queue.js';
import type { Timers } from './timers.js';
import type { TurnTimings } from './turn-taker.js';

export interface LastTurn {
  reason: TurnTimings['reason'];
  /** Last word → turn committed. */
  waitedMs: number;
  /** Last word → first audio of the reply (null: nothing spoken yet). */
  firstAudioMs: number | null;
  speculative: number;
  discarded: number;
}

export class TurnTimingTracker {
  private awaiting: TurnTimings | null = null;
  private lastTurn: LastTurn | null = null;

  constructor(
    private readonly timers: Timers,
    private readonly log: Logger,
  ) {}

  committed(t: TurnTimings): void {
    this.awaiting = t;
    this.lastTurn = { reason: t.reason, waitedMs: Math.round(t.committedAt - t.lastWordAt), firstAudioMs: null, speculative: t.speculative, discarded: t.discarded };
  }

  /** A sink that notes the first audio after each committed turn. */
  wrap(sink: AudioSink): AudioSink {
    return {
      play: (audio, signal) => {
        this.sounded();
        return sink.play(audio, signal);
      },
    };
  }

  private sounded(): void {
    const t = this.awaiting;
    if (!t) return;
    this.awaiting = null;
    const ms = Math.round(this.timers.now() - t.lastWordAt);
    if (this.lastTurn) this.lastTurn.firstAudioMs = ms;
    this.log.debug({ firstAudioMs: ms, waitedMs: Math.round(t.committedAt - t.lastWordAt), reason: t.reason }, 'first audio of the reply');
  }

  get last(): LastTurn | null {
    return this.lastTurn ? { ...this.lastTurn } : null;
  }
}
