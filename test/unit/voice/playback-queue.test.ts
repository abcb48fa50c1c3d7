import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlaybackQueue } from '../../../src/voice/playback-queue.js';
import { BargeInDetector } from '../../../src/voice/barge-in.js';
import { RecordingSink } from '../../support/recording-sink.js';
import { FakeTts } from '../../support/voice-fakes.js';

describe('PlaybackQueue', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  it('plays sentences in order, one at a time, synthesising ahead', async () => {
    const tts = new FakeTts('tts', { delayMs: 20 });
    const sink = new RecordingSink(30);
    const q = new PlaybackQueue({ tts, sink });
    for (const s of ['One.', 'Two.', 'Three.', 'Four.']) q.enqueue(s);
    expect(q.speaking).toBe(true);
    // prefetch: the first three are being synthesised before anything has played
    expect(tts.calls).toEqual(['One.', 'Two.', 'Three.']);
    await q.idle();
    expect(sink.finished).toEqual(['One.', 'Two.', 'Three.', 'Four.']);
    expect(sink.maxActive).toBe(1);
    expect(q.speaking).toBe(false);
  });
  it('answers queued behind each other never overlap or cut each other off', async () => {
    vi.useFakeTimers();
    const sink = new RecordingSink(20);
    const q = new PlaybackQueue({ tts: new FakeTts(), sink });
    q.enqueue('First answer.');
    await vi.advanceTimersByTimeAsync(5);
    q.enqueue('Second answer.');
    await vi.runAllTimersAsync();
    await q.idle();
    expect(sink.finished).toEqual(['First answer.', 'Second answer.']);
    expect(sink.stopped).toEqual([]);
  });
  it('interrupt stops the current sentence and drops the queue', async () => {
    vi.useFakeTimers();
    const sink = new RecordingSink(200);
    const q = new PlaybackQueue({ tts: new FakeTts(), sink });
    for (const s of ['A.', 'B.', 'C.']) q.enqueue(s);
    await vi.advanceTimersByTimeAsync(50);
    expect(sink.started).toEqual(['A.']);
    expect(q.interrupt()).toBe(3);
    await vi.runAllTimersAsync();
    await q.idle();
    expect(sink.stopped).toEqual(['A.']);
    expect(sink.started).toEqual(['A.']);
    expect(q.speaking).toBe(false);
    q.enqueue('D.');
    await vi.runAllTimersAsync();
    await q.idle();
    expect(sink.finished).toEqual(['D.']);
  });
  it('skips a sentence the engine cannot synthesise', async () => {
    const sink = new RecordingSink(5);
    const q = new PlaybackQueue({ tts: new FakeTts('bad', { fail: true }), sink });
    q.enqueue('x');
    await q.idle();
    expect(sink.started).toEqual([]);
  });
});

describe('BargeInDetector', () => {
  it('fires once per utterance past the threshold, only while Charlie speaks', () => {
    let speaking = true;
    let interrupts = 0;
    const fired: string[] = [];
    const d = new BargeInDetector(
      { enabled: true, thresholdMs: 250 },
      {
        get speaking() {
          return speaking;
        },
        interrupt: () => (interrupts++, 2),
      },
      (u) => fired.push(u),
    );
    d.activity('u', 200); // a blip: echo
    expect(interrupts).toBe(0);
    d.activity('u', 260);
    d.activity('u', 400);
    expect(interrupts).toBe(1);
    d.utteranceEnded('u');
    speaking = false;
    d.activity('u', 500);
    expect(interrupts).toBe(1);
    expect(fired).toEqual(['u']);
    const off = new BargeInDetector({ enabled: false, thresholdMs: 250 }, { speaking: true, interrupt: () => (interrupts++, 0) });
    off.activity('u', 1000);
    expect(interrupts).toBe(1);
  });
});
