/**
 * `npm run bench:voice [-- --runs N --silence MS]`: the voice pipeline's own latency, model time excluded.
 *
 * 1. End of speech → recogniser call: speech from the local engine, encoded to 20 ms Opus
 *    packets, delivered on the real clock into the real receive pipeline and conversation;
 *    the recogniser is a stub that records when it is called. Target: silence window + < 50 ms.
 * 2. Reply text → first audio frame with the local engine: the first sentence of a streamed
 *    reply through the sentence splitter, eSpeak NG (WebAssembly), decode + resample, and
 *    @discordjs/voice's Raw → Opus resource, until the first Opus frame can be read; and
 *    until a real AudioPlayer reports Playing.
 */
import { AudioPlayerStatus, createAudioPlayer, NoSubscriberBehavior } from '@discordjs/voice';
import { loadConfig } from '../src/config.js';
import { silentLogger, type SynthesizedAudio } from '../src/core/ports.js';
import type { AssistantApi } from '../src/core/assistant-api.js';
import { EspeakTts } from '../src/speech/tts/espeak-tts.js';
import { decodeAudio } from '../src/speech/audio/decode.js';
import { OpusPacketEncoder } from '../src/speech/audio/opus.js';
import { toDiscordPcm } from '../src/speech/audio/pcm.js';
import { AddressingPolicy } from '../src/voice/addressing.js';
import { DiscordAudioSink, toAudioResource } from '../src/voice/discord-audio.js';
import { PlaybackQueue } from '../src/voice/playback-queue.js';
import { ReceivePipeline } from '../src/voice/receive-pipeline.js';
import { SpokenReplyStream } from '../src/voice/spoken-reply.js';
import { realTimers } from '../src/voice/timers.js';
import { VoiceConversation } from '../src/voice/voice-conversation.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

const config = loadConfig();
const runs = arg('runs', 5);
const silenceMs = arg('silence', config.VOICE_SILENCE_MS);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

function stats(values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return `min ${s[0]!.toFixed(1)} · median ${q(0.5).toFixed(1)} · p95 ${q(0.95).toFixed(1)} · max ${s.at(-1)!.toFixed(1)} ms`;
}

async function packetsFor(tts: EspeakTts, text: string): Promise<Uint8Array[]> {
  const audio = await tts.synthesize(text);
  const pcm = toDiscordPcm(await decodeAudio(audio.data, audio.mime));
  const enc = new OpusPacketEncoder();
  try {
    return enc.encode(new Int16Array(pcm.buffer, pcm.byteOffset, pcm.byteLength >> 1));
  } finally {
    enc.close();
  }
}

async function endOfSpeechToRecogniser(tts: EspeakTts): Promise<number[]> {
  const packets = await packetsFor(tts, 'What is on my calendar tomorrow morning?');
  const calls: number[] = [];
  const stt = { id: 'stub', transcribe: async () => (calls.push(performance.now()), 'what is on my calendar tomorrow morning') };
  const assistant: Pick<AssistantApi, 'handle'> = { handle: async () => ({ project: 'bench', reply: '', reason: 'done', related: [], notices: [] }) };
  const queue = new PlaybackQueue({ tts, sink: { play: async () => {} } });
  const conversation = new VoiceConversation({
    assistant,
    stt,
    queue,
    place: { kind: 'project', origin: { name: 'bench', key: 'bench' } },
    policy: new AddressingPolicy(config.VOICE_WAKE_NAME, 'never'),
    humansPresent: () => 1,
    post: async () => {},
  });
  const pipeline = new ReceivePipeline({ silenceMs, minSpeechMs: config.VOICE_MIN_SPEECH_MS }, realTimers, {
    onSegment: (s) => void conversation.hear({ userId: s.userId, displayName: 'bench', pcm: s.pcm }),
  });
  const overheads: number[] = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    let last = 0;
    for (let i = 0; i < packets.length; i++) {
      await sleep(start + i * 20 - performance.now());
      pipeline.push('speaker', packets[i]!);
      last = performance.now();
    }
    const before = calls.length;
    while (calls.length === before) await sleep(5);
    overheads.push(calls.at(-1)! - last - silenceMs);
  }
  pipeline.close();
  await conversation.idle();
  return overheads;
}

async function firstFrame(tts: EspeakTts, text: string): Promise<{ total: number; synth: number; resource: number; frame: number }> {
  const t0 = performance.now();
  const stream = new SpokenReplyStream();
  const [sentence] = stream.push(text + ' And then more text follows');
  const audio: SynthesizedAudio = await tts.synthesize(sentence!);
  const t1 = performance.now();
  const resource = await toAudioResource(audio);
  const t2 = performance.now();
  let packet: Buffer | null = resource.read();
  while (!packet) {
    await new Promise((r) => setImmediate(r));
    packet = resource.read();
  }
  const t3 = performance.now();
  resource.playStream.destroy();
  return { total: t3 - t0, synth: t1 - t0, resource: t2 - t1, frame: t3 - t2 };
}

async function textToPlaying(tts: EspeakTts, text: string): Promise<number> {
  const player = createAudioPlayer({ behaviors: { noSubscriber: NoSubscriberBehavior.Play } });
  const queue = new PlaybackQueue({ tts, sink: new DiscordAudioSink(player), logger: silentLogger });
  const t0 = performance.now();
  const playing = new Promise<number>((resolve) => player.once(AudioPlayerStatus.Playing, () => resolve(performance.now() - t0)));
  queue.enqueue(text);
  const ms = await playing;
  queue.interrupt();
  await queue.idle();
  player.stop(true);
  return ms;
}

async function main(): Promise<void> {
  const tts = new EspeakTts({ voice: config.TTS_LOCAL_VOICE });
  console.log(`Charlie voice bench — Node ${process.version}, ${runs} runs, silence window ${silenceMs} ms (VOICE_SILENCE_MS)`);
  await tts.synthesize('warm up');

  const overheads = await endOfSpeechToRecogniser(tts);
  console.log(`\n1. end of speech → recogniser call, minus the ${silenceMs} ms silence window (target < 50 ms):`);
  console.log(`   ${stats(overheads)}`);

  const sentence = 'Sure, your first meeting tomorrow is at nine with Sarah.';
  const frames = [];
  for (let r = 0; r < runs; r++) frames.push(await firstFrame(tts, sentence));
  console.log(`\n2. reply text → first Opus frame, local engine (espeak-ng WebAssembly), "${sentence}":`);
  console.log(`   total      ${stats(frames.map((f) => f.total))}`);
  console.log(`   synthesis  ${stats(frames.map((f) => f.synth))}`);
  console.log(`   decode + resample + resource ${stats(frames.map((f) => f.resource))}`);
  console.log(`   first Opus frame ${stats(frames.map((f) => f.frame))}`);

  const playing = [];
  for (let r = 0; r < runs; r++) playing.push(await textToPlaying(tts, sentence));
  console.log(`\n3. reply sentence → AudioPlayer "playing" (real @discordjs/voice player, no connection):`);
  console.log(`   ${stats(playing)}`);
  process.exit(0);
}

await main();
