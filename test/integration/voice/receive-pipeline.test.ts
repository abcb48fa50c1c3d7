/**
 * The real receive pipeline with recorded-style input: speech made by the local engine,
 * encoded to 20 ms Opus packets, delivered on the real clock with real (shortened) gaps.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ReceivePipeline, type DiscardReason } from '../../../src/voice/receive-pipeline.js';
import type { Utterance } from '../../../src/voice/segmenter.js';
import { realTimers } from '../../../src/voice/timers.js';
import { AddressingPolicy } from '../../../src/voice/addressing.js';
import { PlaybackQueue } from '../../../src/voice/playback-queue.js';
import { VoiceConversation } from '../../../src/voice/voice-conversation.js';
import { BargeInDetector } from '../../../src/voice/barge-in.js';
import { deliver, deliverScript, noisePackets, speechPackets } from '../../fixtures/audio/speech.js';
import { FakeAssistant } from '../../support/fake-assistant.js';
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
  const segments: (Utterance & { closedAt: number })[] = [];
  const discarded: { userId: string; reason: DiscardReason }[] = [];
  pipeline = new ReceivePipeline({ silenceMs: SILENCE_MS, minSpeechMs: 350, ignoreUserIds: ['bot'] }, realTimers, {
    onSegment: (s) => segments.push(s),
    onDiscard: (userId, reason) => discarded.push({ userId, reason }),
  });
  const p = pipeline;
  const settle = () => new Promise((r) => setTimeout(r, SILENCE_MS + 150));
  return { segments, discarded, push: (user: string) => (pk: Uint8Array) => p.push(user, pk), settle };
}

describe('receive pipeline with synthetic speech', () => {
  it('sanity: the fixtures are speech of plausible length', () => {
    expect(question.length * 20).toBeGreaterThan(1000);
    expect(question.length * 20).toBeLessThan(3500);
    expect(request.length).toBeGreaterThan(30);
  });

  it('two utterances separated by a long pause become two segments', async () => {
    const r = run();
    await deliverScript(r.push('ana'), [question, SILENCE_MS * 2, request]);
    await r.settle();
    expect(r.segments).toHaveLength(2);
    expect(r.segments[0]!.speechMs).toBe(question.length * 20);
    expect(r.segments[1]!.speechMs).toBe(request.length * 20);
    expect(r.segments[0]!.voicedMs).toBeGreaterThan(question.length * 20 * 0.5);
  });

  it('a short pause stays one segment, the pause kept inside it', async () => {
    const r = run();
    await deliverScript(r.push('ana'), [question, 150, request]);
    await r.settle();
    expect(r.segments).toHaveLength(1);
    const s = r.segments[0]!;
    expect(s.speechMs).toBe((question.length + request.length) * 20);
    const audioMs = s.pcm.length / 16;
    expect(audioMs).toBeGreaterThan(s.speechMs + 100);
    expect(audioMs).toBeLessThan(s.speechMs + 400);
  });

  it('a 200 ms blip and noise-only input become no segment', async () => {
    const r = run();
    await deliverScript(r.push('ana'), [question.slice(5, 15), SILENCE_MS + 200, noisePackets(1200, 0.4), SILENCE_MS + 200, noisePackets(1200, 0.004, 7)]);
    await r.settle();
    expect(r.segments).toHaveLength(0);
    expect(r.discarded.map((d) => d.reason)).toEqual(['too_short', 'no_voice', 'no_voice']);
  });

  it('two interleaved speakers stay separate', async () => {
    const r = run();
    await Promise.all([
      deliver(r.push('ana'), longSentence),
      (async () => {
        await new Promise((res) => setTimeout(res, 300));
        await deliver(r.push('ben'), request);
      })(),
    ]);
    await r.settle();
    const byUser = Object.fromEntries(r.segments.map((s) => [s.userId, s]));
    expect(Object.keys(byUser).sort()).toEqual(['ana', 'ben']);
    expect(byUser.ana!.speechMs).toBe(longSentence.length * 20);
    expect(byUser.ben!.speechMs).toBe(request.length * 20);
    // Ben finished first: his segment is closed first, Ana's is not cut by his silence
    expect(r.segments[0]!.userId).toBe('ben');
  });

  it("Charlie's own packets are never processed", async () => {
    const r = run();
    await deliver(r.push('bot'), request);
    await r.settle();
    expect(r.segments).toHaveLength(0);
    expect(r.discarded).toHaveLength(0);
  });

  it('end of speech to the recogniser call takes the silence window plus under 50 ms', async () => {
    const stt = new ScriptedStt(() => 'what is on my calendar tomorrow');
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
    let lastPacketAt = 0;
    pipeline = new ReceivePipeline({ silenceMs: SILENCE_MS, minSpeechMs: 350 }, realTimers, {
      onSegment: (s) => void conversation.hear({ userId: s.userId, displayName: 'Ana', pcm: s.pcm }),
    });
    const p = pipeline;
    await deliver((pk) => {
      p.push('ana', pk);
      lastPacketAt = performance.now();
    }, question);
    await new Promise((res) => setTimeout(res, SILENCE_MS + 200));
    expect(stt.calls).toHaveLength(1);
    const latency = stt.calls[0]!.at - lastPacketAt;
    expect(latency).toBeGreaterThanOrEqual(SILENCE_MS - 1);
    // the target is +50 ms (see npm run bench:voice); the margin here absorbs a loaded CI machine
    expect(latency).toBeLessThan(SILENCE_MS + 150);
    expect(stt.calls[0]!.samples / 16).toBeGreaterThan(question.length * 20 - 40);
    await conversation.idle();
  });

  it('barge-in: speech over Charlie stops playback and clears the queue; a blip does not', async () => {
    const sink = new RecordingSink(3000);
    const queue = new PlaybackQueue({ tts: new FakeTts(), sink });
    const barge = new BargeInDetector({ enabled: true, thresholdMs: 250 }, queue);
    pipeline = new ReceivePipeline({ silenceMs: SILENCE_MS, minSpeechMs: 350 }, realTimers, {
      onActivity: (u, voicedMs) => barge.activity(u, voicedMs),
      onSegment: (s) => barge.utteranceEnded(s.userId),
      onDiscard: (u) => barge.utteranceEnded(u),
    });
    const p = pipeline;
    for (const s of ['First sentence.', 'Second sentence.', 'Third sentence.']) queue.enqueue(s);
    await new Promise((res) => setTimeout(res, 50));
    expect(sink.started).toEqual(['First sentence.']);
    await deliver((pk) => p.push('ana', pk), question.slice(8, 16)); // ~160 ms blip: echo
    await new Promise((res) => setTimeout(res, SILENCE_MS + 100));
    expect(sink.stopped).toEqual([]);
    expect(queue.pending).toBe(3);
    await deliver((pk) => p.push('ana', pk), question);
    await queue.idle();
    expect(sink.stopped).toEqual(['First sentence.']);
    expect(sink.started).toEqual(['First sentence.']);
    expect(queue.pending).toBe(0);
    expect(queue.speaking).toBe(false);
  });
});
