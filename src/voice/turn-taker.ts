/**
 * Packets in, turns out: the receive pipeline plus the end-of-turn decision. At each short
 * pause the utterance so far is transcribed speculatively and the detector is asked; "done"
 * commits the turn at once (its transcript goes with it, no second recognition), "not yet"
 * waits for more speech or the long window, re-asking when the detector wants to. Voice
 * coming back discards the speculative transcript (aborting it if still running): a
 * transcript that turned out premature is never handed on.
 */
import type { Logger, SpeechToText } from '../core/ports/index.js';
import { stripNonSpeech } from '../speech/stt/hallucinations.js';
import { endFallDb, type EndOfTurnDetector, type TurnDecision, type TurnReason } from './end-of-turn.js';
import { ReceivePipeline, type ReceiveHandlers, type ReceivePipelineOptions, type Segment } from './receive-pipeline.js';
import type { EndReason, Utterance } from './segmenter.js';
import type { Timers } from './timers.js';

export interface TurnTimings {
  /** Clock time of the last word (last voiced packet). */
  lastWordAt: number;
  /** Clock time the turn was committed (handed on once its transcript is ready). */
  committedAt: number;
  /** Why it ended: a detector reason, or the long window / a cap. */
  reason: TurnReason | EndReason;
  /** Speculative transcripts made for this turn, and how many of them were discarded. */
  speculative: number;
  discarded: number;
  /** Whether the turn carries the speculative transcript (no second recognition). */
  reusedTranscript: boolean;
}

export interface HeardTurn {
  userId: string;
  pcm: Int16Array;
  speechMs: number;
  /** Set when a speculative transcript of exactly this audio exists. */
  transcript?: string;
  timings: TurnTimings;
}

export interface TurnTakerDeps {
  stt: SpeechToText;
  /** null: no detector; only the long window ends a turn (VOICE_TURN_DETECTION=off). */
  detector: EndOfTurnDetector | null;
  pipeline: Omit<ReceivePipelineOptions, 'pauseMs'> & { pauseMs: number };
  timers: Timers;
  logger: Logger;
  language?: string;
  onTurn(turn: HeardTurn): void;
  onActivity?: ReceiveHandlers['onActivity'];
  onDiscard?: ReceiveHandlers['onDiscard'];
}

interface Speculation {
  /** `lastVoicedAt` of the audio it transcribes. */
  upTo: number;
  controller: AbortController;
  result: Promise<string | null>;
  text?: string | null;
  speechMs: number;
  recheck: unknown;
}

interface SpeakerState {
  spec: Speculation | null;
  made: number;
  discarded: number;
  /** The detector's reason for the commit in progress. */
  reason?: TurnReason;
}

export interface EndOfTurnStatus {
  mode: string;
  pauseMs: number;
  silenceMs: number;
  last: TurnTimings | null;
}

export class TurnTaker {
  private readonly pipeline: ReceivePipeline;
  private readonly speakers = new Map<string, SpeakerState>();
  private emitting: Promise<void> = Promise.resolve();
  private last: TurnTimings | null = null;
  private closed = false;

  constructor(private readonly deps: TurnTakerDeps) {
    const { pauseMs, ...options } = deps.pipeline;
    this.pipeline = new ReceivePipeline({ ...options, ...(deps.detector ? { pauseMs } : {}) }, deps.timers, {
      onStart: (userId) => deps.logger.debug({ user: userId }, 'voice started'),
      onPause: (snapshot, pause) => this.paused(snapshot, pause),
      onResume: (userId) => this.discard(userId, 'speech went on'),
      onSegment: (segment) => this.ended(segment),
      ...(deps.onActivity ? { onActivity: deps.onActivity } : {}),
      onDiscard: (userId, reason, u) => {
        this.drop(userId);
        deps.logger.debug({ user: userId, reason, speechMs: u.speechMs }, 'voice ended: segment discarded');
        deps.onDiscard?.(userId, reason, u);
      },
    });
  }

  push(userId: string, packet: Uint8Array): void {
    this.pipeline.push(userId, packet);
  }

  removeSpeaker(userId: string): void {
    this.pipeline.removeSpeaker(userId);
  }

  get activeSpeakers(): string[] {
    return this.pipeline.activeSpeakers;
  }

  status(): EndOfTurnStatus {
    return { mode: this.deps.detector?.mode ?? 'fixed window', pauseMs: this.deps.pipeline.pauseMs, silenceMs: this.deps.pipeline.silenceMs, last: this.last };
  }

  /** Resolves when every ended turn has been handed on (tests, bench). */
  idle(): Promise<void> {
    return this.emitting;
  }

  close(): void {
    this.closed = true;
    for (const userId of this.speakers.keys()) this.drop(userId);
    this.pipeline.close();
  }

  private state(userId: string): SpeakerState {
    let s = this.speakers.get(userId);
    if (!s) {
      s = { spec: null, made: 0, discarded: 0 };
      this.speakers.set(userId, s);
    }
    return s;
  }

  private paused(snapshot: Utterance, pauseMs: number): void {
    const detector = this.deps.detector;
    if (!detector || this.closed) return;
    const s = this.state(snapshot.userId);
    if (s.spec) this.discard(snapshot.userId, 'superseded');
    const controller = new AbortController();
    const started = this.deps.timers.now();
    const result = this.deps.stt
      .transcribe(snapshot.pcm, { signal: controller.signal, ...(this.deps.language ? { language: this.deps.language } : {}) })
      .then((t) => stripNonSpeech(t))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) this.deps.logger.debug({ user: snapshot.userId, err: error }, 'speculative transcription failed');
        return null;
      });
    const spec: Speculation = { upTo: snapshot.lastVoicedAt, controller, result, speechMs: snapshot.speechMs, recheck: null };
    s.spec = spec;
    s.made++;
    this.deps.logger.debug({ user: snapshot.userId, pauseMs: Math.round(pauseMs) }, 'pause: transcribing speculatively');
    void result.then((text) => {
      spec.text = text;
      if (s.spec !== spec || text === null) return;
      const fallDb = endFallDb(snapshot.pcm);
      this.deps.logger.debug({ user: snapshot.userId, sttMs: Math.round(this.deps.timers.now() - started), transcript: text }, 'speculative transcript');
      void this.decide(snapshot, s, spec, text, fallDb);
    });
  }

  private async decide(snapshot: Utterance, s: SpeakerState, spec: Speculation, text: string, fallDb: number): Promise<void> {
    const pauseMs = this.deps.timers.now() - spec.upTo;
    let decision: TurnDecision;
    try {
      decision = await this.deps.detector!.decide({ transcript: text, pauseMs, speechMs: snapshot.speechMs, endFallDb: fallDb, pcm: snapshot.pcm }, spec.controller.signal);
    } catch (error) {
      if (!spec.controller.signal.aborted) this.deps.logger.warn({ err: error, mode: this.deps.detector!.mode }, 'end-of-turn detector failed; waiting for the long window');
      return;
    }
    if (s.spec !== spec || this.closed) return;
    this.deps.logger.debug(
      {
        user: snapshot.userId,
        pauseMs: Math.round(pauseMs),
        end: decision.end,
        reason: decision.reason,
        mode: this.deps.detector!.mode,
        ...(decision.probability !== undefined ? { probability: decision.probability } : {}),
      },
      'end of turn decision',
    );
    if (decision.end) {
      s.reason = decision.reason;
      if (!this.pipeline.commit(snapshot.userId, spec.upTo)) s.reason = undefined;
      return;
    }
    if (decision.recheckAtPauseMs !== undefined) {
      const wait = spec.upTo + decision.recheckAtPauseMs - this.deps.timers.now();
      spec.recheck = this.deps.timers.setTimeout(
        () => {
          spec.recheck = null;
          if (s.spec === spec) void this.decide(snapshot, s, spec, text, fallDb);
        },
        Math.max(1, wait),
      );
    }
  }

  /** Voice came back (or a newer pause): the speculative transcript is premature. */
  private discard(userId: string, why: string): void {
    const s = this.speakers.get(userId);
    const spec = s?.spec;
    if (!s || !spec) return;
    spec.controller.abort(new Error(`speculative transcript discarded: ${why}`));
    if (spec.recheck !== null) this.deps.timers.clearTimeout(spec.recheck);
    s.spec = null;
    s.discarded++;
    this.deps.logger.debug({ user: userId, why }, 'speculative transcript discarded');
  }

  private drop(userId: string): void {
    const spec = this.speakers.get(userId)?.spec;
    if (spec) {
      spec.controller.abort(new Error('utterance dropped'));
      if (spec.recheck !== null) this.deps.timers.clearTimeout(spec.recheck);
    }
    this.speakers.delete(userId);
  }

  private ended(segment: Segment): void {
    const s = this.speakers.get(segment.userId);
    this.speakers.delete(segment.userId);
    const spec = s?.spec ?? null;
    if (spec?.recheck) this.deps.timers.clearTimeout(spec.recheck);
    const usable = spec !== null && spec.upTo === segment.lastVoicedAt;
    if (spec && !usable) spec.controller.abort(new Error('speculative transcript discarded: audio changed'));
    const reason = segment.reason === 'committed' ? (s?.reason ?? 'committed') : segment.reason;
    this.deps.logger.debug({ user: segment.userId, reason, speechMs: segment.speechMs, waitedMs: Math.round(segment.closedAt - segment.lastVoicedAt) }, 'voice ended: turn');
    const base = { speculative: s?.made ?? 0, discarded: (s?.discarded ?? 0) + (spec && !usable ? 1 : 0) };
    this.emitting = this.emitting.then(async () => {
      const text = usable ? (spec.text !== undefined ? spec.text : await spec.result) : null;
      if (this.closed) return;
      const timings: TurnTimings = {
        lastWordAt: segment.lastVoicedAt,
        committedAt: Math.max(segment.closedAt, this.deps.timers.now()),
        reason,
        ...base,
        reusedTranscript: text !== null,
      };
      this.last = timings;
      this.deps.onTurn({ userId: segment.userId, pcm: segment.pcm, speechMs: segment.speechMs, ...(text !== null ? { transcript: text } : {}), timings });
    });
  }
}
