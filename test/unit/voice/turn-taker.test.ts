/**
 * End of turn on a fake clock: real Opus packets through the real receive pipeline, a
 * scripted recogniser, `ManualTimers`. A complete sentence ends at the short pause; a
 * trailing "and" waits for the long window; speech that goes on discards the speculative
 * transcript; the caps close what would otherwise never end; every decision is logged.
 */
import { describe, expect, it } from 'vitest';
import type { Logger, SpeechToText } from '../../../src/core/ports/index.js';
import { chooseDetector, type TurnDetection } from '../../../src/voice/end-of-turn.js';
import { TurnTaker, type HeardTurn } from '../../../src/voice/turn-taker.js';
import { encode, noisePackets } from '../../fixtures/audio/speech.js';
import { ManualTimers } from '../../support/manual-timers.js';

/** A steady 220 Hz voice-like tone (loud, low zero-crossing rate: the gate calls it voiced). */
function voice(ms: number): Uint8Array[] {
  const stereo = new Int16Array(Math.round((ms / 1000) * 48_000) * 2);
  for (let i = 0; i < stereo.length; i += 2) stereo[i] = stereo[i + 1] = Math.round(0.3 * 32767 * Math.sin((2 * Math.PI * 220 * i) / 2 / 48_000));
  return encode(stereo);
}

class RecordingLogger implements Logger {
  readonly entries: { level: string; msg: string; obj: Record<string, unknown> }[] = [];
  private add(level: string, obj: object | string, msg?: string) {
    this.entries.push(typeof obj === 'string' ? { level, msg: obj, obj: {} } : { level, msg: msg ?? '', obj: obj as Record<string, unknown> });
  }
  debug(obj: object | string, msg?: string) {
    this.add('debug', obj, msg);
  }
  info(obj: object | string, msg?: string) {
    this.add('info', obj, msg);
  }
  warn(obj: object | string, msg?: string) {
    this.add('warn', obj, msg);
  }
  error(obj: object | string, msg?: string) {
    this.add('error', obj, msg);
  }
  child() {
    return this;
  }
  messages(msg: string) {
    return this.entries.filter((e) => e.msg === msg).map((e) => e.obj);
  }
}

/** A recogniser whose answers are scripted per call; `hold` keeps a call pending until released. */
class ScriptedRecogniser implements SpeechToText {
  readonly id = 'scripted';
  readonly calls: { samples: number; aborted: () => boolean }[] = [];
  private readonly held: (() => void)[] = [];
  constructor(
    private readonly answers: string[],
    private readonly hold = false,
  ) {}
  transcribe(pcm: Int16Array, options: { signal?: AbortSignal } = {}): Promise<string> {
    const i = this.calls.length;
    this.calls.push({ samples: pcm.length, aborted: () => options.signal?.aborted ?? false });
    const answer = this.answers[Math.min(i, this.answers.length - 1)]!;
    if (!this.hold) return Promise.resolve(answer);
    return new Promise((resolve) => this.held.push(() => resolve(answer)));
  }
  release() {
    for (const r of this.held.splice(0)) r();
  }
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

function setup(answers: string[], options: { detection?: TurnDetection; hold?: boolean; maxUtteranceMs?: number; maxNoSpeechMs?: number } = {}) {
  const clock = new ManualTimers();
  const stt = new ScriptedRecogniser(answers, options.hold);
  const logger = new RecordingLogger();
  const turns: HeardTurn[] = [];
  const discards: string[] = [];
  const taker = new TurnTaker({
    stt,
    detector: chooseDetector(options.detection ?? 'rules', { pauseMs: 400, silenceMs: 1500, wakeName: 'Charlie' }),
    pipeline: { silenceMs: 1500, pauseMs: 400, minSpeechMs: 350, ...options },
    timers: clock,
    logger,
    onTurn: (t) => turns.push(t),
    onDiscard: (_u, reason) => discards.push(`${reason}@${clock.t}`),
  });
  /** Speak (packets every 20 ms of fake time) or stay silent for `ms`, settling promises as time passes. */
  const script = async (...parts: (Uint8Array[] | number)[]) => {
    for (const part of parts) {
      if (typeof part === 'number') {
        for (let t = 0; t < part; t += 10) {
          clock.advance(10);
          await flush();
        }
      } else {
        for (const p of part) {
          taker.push('ana', p);
          clock.advance(20);
          await flush();
        }
      }
    }
  };
  return { clock, stt, logger, turns, discards, taker, script };
}

describe('TurnTaker: adaptive end of turn on a fake clock', () => {
  it('a finished question is committed at the short pause with its speculative transcript (one recognition)', async () => {
    const t = setup(['What is on my calendar tomorrow?']);
    await t.script(voice(1200));
    const lastPacket = t.clock.t - 20;
    await t.script(300);
    expect(t.turns).toHaveLength(0);
    await t.script(120);
    expect(t.turns).toHaveLength(1);
    const turn = t.turns[0]!;
    const lastWord = turn.timings.lastWordAt;
    expect(lastPacket - lastWord).toBeLessThanOrEqual(40); // the last packet or two are the tone's fade
    expect(turn.transcript).toBe('What is on my calendar tomorrow?');
    expect(turn.timings).toMatchObject({ reason: 'question', speculative: 1, discarded: 0, reusedTranscript: true });
    expect(turn.timings.committedAt - lastWord).toBeGreaterThanOrEqual(400);
    expect(turn.timings.committedAt - lastWord).toBeLessThan(420);
    expect(t.stt.calls).toHaveLength(1);
    expect(t.taker.status()).toMatchObject({ mode: 'rules', pauseMs: 400, silenceMs: 1500, last: { reason: 'question' } });
    // VAD start/end and the decision with its pause and reason, at debug level
    expect(t.logger.messages('voice started')).toHaveLength(1);
    expect(t.logger.messages('end of turn decision')).toEqual([expect.objectContaining({ end: true, reason: 'question', pauseMs: 400, mode: 'rules' })]);
    expect(t.logger.messages('voice ended: turn')).toEqual([expect.objectContaining({ reason: 'question' })]);
    expect(t.logger.entries.filter((e) => e.msg.includes('turn')).every((e) => e.level === 'debug')).toBe(true);
  });

  it('a mid-sentence pause: the premature transcript is discarded and never handed on', async () => {
    const t = setup(['I was thinking...', 'I was thinking... maybe Lisbon.']);
    await t.script(voice(800), 700, voice(600));
    expect(t.turns).toHaveLength(0);
    expect(t.logger.messages('end of turn decision')).toEqual([expect.objectContaining({ end: false, reason: 'trailing_off' })]);
    expect(t.logger.messages('speculative transcript discarded')).toEqual([expect.objectContaining({ why: 'speech went on' })]);
    await t.script(450);
    expect(t.turns.map((x) => x.transcript)).toEqual(['I was thinking... maybe Lisbon.']);
    expect(t.turns[0]!.timings).toMatchObject({ reason: 'sentence', speculative: 2, discarded: 1 });
    // the whole utterance, both parts and the pause between them
    expect(t.turns[0]!.speechMs).toBe(1400);
    expect(t.stt.calls[1]!.samples).toBeGreaterThan(t.stt.calls[0]!.samples + 16 * 1200);
  });

  it('a speculative transcript still running when speech goes on is aborted and dropped', async () => {
    const t = setup(['Remind me to call Sarah.', 'Remind me to call Sarah tomorrow.'], { hold: true });
    await t.script(voice(800), 450);
    expect(t.stt.calls).toHaveLength(1);
    await t.script(voice(400));
    expect(t.stt.calls[0]!.aborted()).toBe(true);
    t.stt.release(); // the stale answer arrives late: it must not commit anything
    await t.script(100);
    expect(t.turns).toHaveLength(0);
    await t.script(400);
    t.stt.release();
    await t.script(20);
    expect(t.turns.map((x) => x.transcript)).toEqual(['Remind me to call Sarah tomorrow.']);
  });

  it('a trailing "and" waits for the long window, then ends there reusing the transcript', async () => {
    const t = setup(['Add milk, eggs, and']);
    await t.script(voice(1000), 1380);
    expect(t.turns).toHaveLength(0);
    await t.script(160);
    expect(t.turns).toHaveLength(1);
    const lastWord = t.turns[0]!.timings.lastWordAt;
    expect(t.turns[0]!.timings).toMatchObject({ reason: 'silence', reusedTranscript: true });
    expect(t.turns[0]!.timings.committedAt - lastWord).toBeGreaterThanOrEqual(1500);
    expect(t.turns[0]!.timings.committedAt - lastWord).toBeLessThan(1520);
    expect(t.turns[0]!.transcript).toBe('Add milk, eggs, and');
    expect(t.stt.calls).toHaveLength(1);
  });

  it('unpunctuated text is re-checked and ends at the medium pause', async () => {
    const t = setup(['remind me to call sarah']);
    await t.script(voice(1000), 700);
    expect(t.turns).toHaveLength(0);
    await t.script(140);
    const lastWord = t.turns[0]!.timings.lastWordAt;
    expect(t.turns[0]!.timings.reason).toBe('unpunctuated_long_pause');
    expect(t.turns[0]!.timings.committedAt - lastWord).toBeGreaterThanOrEqual(800);
    expect(t.turns[0]!.timings.committedAt - lastWord).toBeLessThan(820);
    expect(t.logger.messages('end of turn decision').map((d) => d.reason)).toEqual(['unpunctuated', 'unpunctuated_long_pause']);
  });

  it('VOICE_TURN_DETECTION=off: nothing is transcribed early; the long window ends the turn', async () => {
    const t = setup(['What time is it?'], { detection: 'off' });
    await t.script(voice(1000), 1400);
    expect(t.stt.calls).toHaveLength(0);
    await t.script(120);
    expect(t.turns).toHaveLength(1);
    expect(t.turns[0]).toMatchObject({ timings: { reason: 'silence', speculative: 0, reusedTranscript: false } });
    expect(t.turns[0]!.transcript).toBeUndefined();
    expect(t.taker.status().mode).toBe('fixed window');
  });

  it('never stuck: voice followed by an open microphone ends a long window after the last word', async () => {
    const t = setup(['Add milk, and']);
    await t.script(voice(800), noisePackets(3000, 0.004, 3));
    expect(t.turns).toHaveLength(1);
    const { committedAt, lastWordAt, reason } = t.turns[0]!.timings;
    expect(reason).toBe('silence');
    expect(lastWordAt).toBeGreaterThanOrEqual(740);
    expect(committedAt - lastWordAt).toBeGreaterThanOrEqual(1500);
    expect(committedAt - lastWordAt).toBeLessThan(1520);
  });

  it('never stuck: the length cap and the listening-without-speech cap', async () => {
    const long = setup(['Well, you see, and'], { maxUtteranceMs: 4000 });
    await long.script(voice(6000));
    expect(long.turns.map((x) => x.timings.reason)).toEqual(['max_length']);
    expect(long.turns[0]!.speechMs).toBe(4000);
    const noise = setup(['x'], { maxNoSpeechMs: 3000 });
    await noise.script(noisePackets(5000, 0.004, 9), 1600);
    // closed by the cap at 3 s although packets kept coming; the cap closes the next one too
    expect(noise.discards).toEqual(['no_voice@3000', 'no_voice@6000']);
    expect(noise.turns).toHaveLength(0);
    expect(noise.stt.calls).toHaveLength(0);
  });

  it('close() drops open utterances and speculation', async () => {
    const t = setup(['Add milk, eggs, and']);
    await t.script(voice(800), 500);
    t.taker.close();
    await t.script(2000);
    expect(t.turns).toHaveLength(0);
    expect(t.clock.pending).toBe(0);
  });
});
