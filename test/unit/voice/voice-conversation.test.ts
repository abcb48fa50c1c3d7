import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Place } from '../../../src/core/place.js';
import { AddressingPolicy } from '../../../src/voice/addressing.js';
import { PlaybackQueue } from '../../../src/voice/playback-queue.js';
import { VoiceConversation } from '../../../src/voice/voice-conversation.js';
import { FakeAssistant } from '../../support/fake-assistant.js';
import { RecordingSink } from '../../support/recording-sink.js';
import { FakeTts, ScriptedStt } from '../../support/voice-fakes.js';

const place: Place = { kind: 'project', origin: { name: 'kitchen', key: 'discord:1:2', discord: { guildId: '1', channelId: '2' } } };
const pcm = new Int16Array(16_000);

function setup(opts: { transcripts: string[]; humans?: number; reply?: string[]; sinkMs?: number; deltaMs?: number; stt?: ScriptedStt }) {
  const stt = opts.stt ?? new ScriptedStt((_, i) => opts.transcripts[i] ?? '');
  const assistant = new FakeAssistant(() => ({ deltas: opts.reply ?? ['Sure. ', 'It is **sunny** today. ', 'See https://weather.example.com/x for more.'], deltaMs: opts.deltaMs ?? 10 }));
  const sink = new RecordingSink(opts.sinkMs ?? 10);
  const queue = new PlaybackQueue({ tts: new FakeTts(), sink });
  const posts: string[] = [];
  let humans = opts.humans ?? 1;
  const conv = new VoiceConversation({
    assistant,
    stt,
    queue,
    place,
    policy: new AddressingPolicy('Charlie', 'auto'),
    humansPresent: () => humans,
    post: async (t) => void posts.push(t),
  });
  return { conv, stt, assistant, sink, queue, posts, setHumans: (n: number) => (humans = n) };
}

describe('VoiceConversation', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers in voice mode, speaks cleaned sentences and posts transcript then reply', async () => {
    const t = setup({ transcripts: ["What's the weather?"] });
    const out = await t.conv.hear({ userId: 'u1', displayName: 'Ana', pcm });
    await t.conv.idle();
    expect(out.kind).toBe('answered');
    expect(t.assistant.handled[0]).toMatchObject({ place, speaker: 'Ana', speakerId: 'u1', text: "What's the weather?", mode: 'voice' });
    expect(t.assistant.handled[0]!.source).toMatch(/^voice:\d+$/);
    expect(t.sink.finished).toEqual(['Sure.', 'It is sunny today.', 'See a link to weather.example.com for more.']);
    expect(t.posts).toEqual(["🎙️ Ana: What's the weather?", 'Sure. It is **sunny** today. See https://weather.example.com/x for more.']);
  });

  it('speaks the first sentence while the rest is still being generated', async () => {
    vi.useFakeTimers();
    const t = setup({ transcripts: ['tell me a story'], reply: ['Once upon a time. ', 'There was ', 'a fox. ', 'The end.'], deltaMs: 80 });
    const done = t.conv.hear({ userId: 'u1', displayName: 'Ana', pcm });
    await vi.advanceTimersByTimeAsync(200);
    expect(t.sink.started).toEqual(['Once upon a time.']);
    expect(t.assistant.deltaTimes.length).toBeLessThan(4);
    await vi.runAllTimersAsync();
    await done;
    await t.conv.idle();
    expect(t.sink.finished).toEqual(['Once upon a time.', 'There was a fox.', 'The end.']);
  });

  it('with three people, answers only utterances with the wake name', async () => {
    const t = setup({ transcripts: ['what about dinner', 'Charlie, what about dinner?'], humans: 3 });
    expect(await t.conv.hear({ userId: 'u1', displayName: 'Ana', pcm })).toMatchObject({ kind: 'ignored', reason: 'not_addressed' });
    expect(await t.conv.hear({ userId: 'u2', displayName: 'Ben', pcm })).toMatchObject({ kind: 'answered' });
    expect(t.assistant.handled.map((m) => m.text)).toEqual(['what about dinner?']);
    expect(t.posts[0]).toBe('🎙️ Ben: Charlie, what about dinner?');
  });

  it('discards hallucinations, closings and fragments without a turn', async () => {
    const t = setup({ transcripts: ['Thank you.', '[BLANK_AUDIO]', 'Goodbye!', 'and um'] });
    const kinds = [];
    for (let i = 0; i < 4; i++) kinds.push((await t.conv.hear({ userId: 'u1', displayName: 'Ana', pcm })).kind);
    expect(kinds).toEqual(['hallucination', 'hallucination', 'ignored', 'ignored']);
    expect(t.assistant.handled).toHaveLength(0);
    expect(t.posts).toHaveLength(0);
  });

  it('"stop" cancels the reply in progress and what is being said', async () => {
    vi.useFakeTimers();
    const t = setup({ transcripts: ['read me the whole list', 'stop'], reply: ['Item one. ', 'Item two. ', 'Item three. ', 'Item four.'], deltaMs: 60, sinkMs: 500 });
    const first = t.conv.hear({ userId: 'u1', displayName: 'Ana', pcm });
    await vi.advanceTimersByTimeAsync(150);
    expect(t.queue.speaking).toBe(true);
    expect(await t.conv.hear({ userId: 'u1', displayName: 'Ana', pcm })).toMatchObject({ kind: 'stopped' });
    expect((await first).kind).toBe('cancelled');
    await t.conv.idle();
    expect(t.sink.stopped).toEqual(['Item one.']);
    expect(t.sink.finished).toEqual([]);
    expect(t.posts).toEqual(['🎙️ Ana: read me the whole list']);
  });

  it('a turn that fails says so briefly and posts the notices', async () => {
    const t = setup({ transcripts: ['what is new'] });
    const conv = new VoiceConversation({
      assistant: { conversation: { handle: async () => ({ project: 'p', reply: '', reason: 'error', related: [], notices: ['no model server at http://localhost:1234/v1'] }) } },
      stt: t.stt,
      queue: t.queue,
      place,
      policy: new AddressingPolicy('Charlie', 'auto'),
      humansPresent: () => 1,
      post: async (x) => void t.posts.push(x),
    });
    expect((await conv.hear({ userId: 'u1', displayName: 'Ana', pcm })).kind).toBe('answered');
    await conv.idle();
    expect(t.sink.finished).toEqual(["Sorry, I couldn't answer that. The details are in the text channel."]);
    expect(t.posts).toEqual(['🎙️ Ana: what is new', '⚠️ no model server at http://localhost:1234/v1']);
  });

  it('a speech-to-text failure starts no turn and is shown once in the channel', async () => {
    const stt = new ScriptedStt(() => {
      throw new Error('server down');
    });
    const t = setup({ transcripts: [], stt });
    expect(await t.conv.hear({ userId: 'u1', displayName: 'Ana', pcm })).toMatchObject({ kind: 'failed' });
    expect(await t.conv.hear({ userId: 'u1', displayName: 'Ana', pcm })).toMatchObject({ kind: 'failed' });
    expect(t.assistant.handled).toHaveLength(0);
    expect(t.posts).toEqual(["⚠️ I can't understand speech right now: server down"]);
  });
});
