/**
 * The real receive pipeline with recorded-style input: speech made by the local engine,
 * encoded to 20 ms Opus packets, decoded, gated and segmented by the real code. Packets arrive
 * on a manual clock (one every 20 ms of the pipeline's time, pauses as the clock advances), so
 * every silence window is exact and no test waits for wall time or depends on the machine's
 * load. The real-clock latency is measured by `npm run bench:voice`.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ReceivePipeline, type DiscardReason } from '../../../src/voice/receive-pipeline.js';
import type { Utterance } from '../../../src/voice/segmenter.js';
import { AddressingPolicy } from '../../../src/voice/addressing.js';
import { PlaybackQueue } from '../../../src/voice/playback-queue.js';
import { VoiceConversation } from '../../../src/voice/voice-conversation.js';
import { BargeInDetector } from '../../../src/voice/barge-in.js';
import { deliverOn, noisePackets, speechPackets } from '../../fixtures/audio/speech.js';
import { FakeAssistant } from '../../support/fake-assistant.js';
import { ManualTimers } from '../../support/manual-timers.js';
import { RecordingSink } from '../../support/recording-sink.js';
import { FakeTts, ScriptedStt } from '../../support/voice-fakes.js';

const SILENCE_MS = 400;

let question: Uint8Array[];
let request: Uint8Array[];
let longSentence: Uint8Array[];

beforeAll(async () => {
  question = await speechPackets('What is on my calendar tomorrow?');
  request = await speechPackets('Remind me to call Sarah.');
  longSentence = await speechPackets('Charlie, please summarise the decisions we made about the kitchen renovation last week.');
});

let pipeline: ReceivePipeline | null = null;
afterEach(() => {
  pipeline?.close();
  pipeline = null;
});

function run() {
  const clock = new ManualTimers();
  const segments: (Utterance & { closedAt: number })[] = [];
  const discarded: { userId: string; reason: DiscardReason }[] = [];
  pipeline = new ReceivePipeline({ silenceMs: SILENCE_MS, minSpeechMs: 350, ignoreUserIds: ['bot'] }, clock, {
    onSegment: (s) => segments.push(s),
    onDiscard: (userId, reason) => discarded.push({ userId, reason }),
  });
  const p = pipeline;
  const push = (user: string) => (pk: Uint8Array) => p.push(user, pk);
  return {
    segments,
    discarded,
    say: (user: string, ...script: (Uint8Array[] | number)[]) => deliverOn(clock, [{ push: push(user), script }]),
    together: (...tracks: { user: string; at: number; packets: Uint8Array[] }[]) =>
      deliverOn(
        clock,
        tracks.map((t) => ({ push: push(t.user), script: [t.packets], at: t.at })),
      ),
    settle: () => clock.advance(SILENCE_MS + 150),
  };
}

describe('receive pipeline with synthetic speech', () => {
  it('sanity: the fixtures are speech of plausible length', () => {
    expect(question.length * 20).toBeGreaterThan(1000);
    expect(question.length * 20).toBeLessThan(3500);
    expect(request.length).toBeGreaterThan(30);
  });

  it('two utterances separated by a long pause become two segments', async () => {
    const r = run();
    r.say('ana', question, SILENCE_MS * 2, request);
    r.settle();
    expect(r.segments).toHaveLength(2);
    expect(r.segments[0]!.speechMs).toBe(question.length * 20);
    expect(r.segments[1]!.speechMs).toBe(request.length * 20);
    expect(r.segments[0]!.voicedMs).toBeGreaterThan(question.length * 20 * 0.5);
  });

  it('a short pause stays one segment, the pause kept inside it', async () => {
    const r = run();
    r.say('ana', question, 150, request);
    r.settle();
    expect(r.segments).toHaveLength(1);
    const s = r.segments[0]!;
    expect(s.speechMs).toBe((question.length + request.length) * 20);
    const audioMs = s.pcm.length / 16;
    expect(audioMs).toBeGreaterThan(s.speechMs + 100);
    expect(audioMs).toBeLessThan(s.speechMs + 400);
  });

  it('a 200 ms blip and noise-only input become no segment', async () => {
    const r = run();
    r.say('ana', question.slice(5, 15), SILENCE_MS + 200, noisePackets(1200, 0.4), SILENCE_MS + 200, noisePackets(1200, 0.004, 7));
    r.settle();
    expect(r.segments).toHaveLength(0);
    expect(r.discarded.map((d) => d.reason)).toEqual(['too_short', 'no_voice', 'no_voice']);
  });

  it('two interleaved speakers stay separate', async () => {
    const r = run();
    r.together({ user: 'ana', at: 0, packets: longSentence }, { user: 'ben', at: 300, packets: request });
    r.settle();
    const byUser = Object.fromEntries(r.segments.map((s) => [s.userId, s]));
    expect(Object.keys(byUser).sort()).toEqual(['ana', 'ben']);
    expect(byUser.ana!.speechMs).toBe(longSentence.length * 20);
    expect(byUser.ben!.speechMs).toBe(request.length * 20);
    // Ben finished first: his segment is closed first, Ana's is not cut by his silence
    expect(r.segments[0]!.userId).toBe('ben');
  });

  it("Charlie's own packets are never processed", async () => {
    const r = run();
    r.say('bot', request);
    r.settle();
    expect(r.segments).toHaveLength(0);
    expect(r.discarded).toHaveLength(0);
  });

  it('end of speech to the recogniser call takes exactly the silence window', async () => {
    const clock = new ManualTimers();
    const stt = new ScriptedStt(() => 'what is on my calendar tomorrow');
    const heardAt: number[] = [];
    const queue = new PlaybackQueue({ tts: new FakeTts(), sink: new RecordingSink(5) });
    const conversation = new VoiceConversation({
      assistant: new FakeAssistant(() => ({ deltas: ['Nothing yet.'], deltaMs: 1 })),
      stt,
      queue,
      place: { kind: 'project', origin: { name: 'p', key: 'k' } },
      policy: new AddressingPolicy('Charlie', 'auto'),
      humansPresent: () => 1,
      post: async () => {},
    });
    pipeline = new ReceivePipeline({ silenceMs: SILENCE_MS, minSpeechMs: 350 }, clock, {
      onSegment: (s) => (heardAt.push(clock.now()), void conversation.hear({ userId: s.userId, displayName: 'Ana', pcm: s.pcm })),
    });
    const p = pipeline;
    let lastPacketAt = -1;
    deliverOn(clock, [{ push: (pk) => (p.push('ana', pk), (lastPacketAt = clock.now())), script: [question] }]);
    // one millisecond short of the window: the speaker may still go on
    clock.advance(SILENCE_MS - 1 - (clock.now() - lastPacketAt));
    await vi.waitFor(() => expect(heardAt).toHaveLength(0));
    expect(stt.calls).toHaveLength(0);
    clock.advance(1);
    expect(heardAt).toEqual([lastPacketAt + SILENCE_MS]);
    // the recogniser is called with the utterance, nothing waits in between
    await vi.waitFor(() => expect(stt.calls).toHaveLength(1));
    expect(stt.calls[0]!.samples / 16).toBeGreaterThan(question.length * 20 - 40);
    await conversation.idle();
  });

  it('barge-in: speech over Charlie stops playback and clears the queue; a blip does not', async () => {
    const clock = new ManualTimers();
    const sink = new RecordingSink(60_000);
    const queue = new PlaybackQueue({ tts: new FakeTts(), sink });
    const barge = new BargeInDetector({ enabled: true, thresholdMs: 250 }, queue);
    pipeline = new ReceivePipeline({ silenceMs: SILENCE_MS, minSpeechMs: 350 }, clock, {
      onActivity: (u, voicedMs) => barge.activity(u, voicedMs),
      onSegment: (s) => barge.utteranceEnded(s.userId),
      onDiscard: (u) => barge.utteranceEnded(u),
    });
    const p = pipeline;
    for (const s of ['First sentence.', 'Second sentence.', 'Third sentence.']) queue.enqueue(s);
    await vi.waitFor(() => expect(sink.started).toEqual(['First sentence.']));
    deliverOn(clock, [{ push: (pk) => p.push('ana', pk), script: [question.slice(8, 16)] }]); // ~160 ms blip: echo
    clock.advance(SILENCE_MS + 100);
    expect(sink.stopped).toEqual([]);
    expect(queue.pending).toBe(3);
    deliverOn(clock, [{ push: (pk) => p.push('ana', pk), script: [question] }]);
    await queue.idle();
    expect(sink.stopped).toEqual(['First sentence.']);
    expect(sink.started).toEqual(['First sentence.']);
    expect(queue.pending).toBe(0);
    expect(queue.speaking).toBe(false);
  });
});
