/** Text to speech: the offline engine, Edge hanging → fallback in time, playable resources, barge-in on a real AudioPlayer. */
import { describe, expect, it } from 'vitest';
import OpusScript from 'opusscript';
import { AudioPlayerStatus, createAudioPlayer, generateDependencyReport, NoSubscriberBehavior } from '@discordjs/voice';
import { EspeakTts } from '../../../src/speech/tts/espeak-tts.js';
import { EdgeTts } from '../../../src/speech/tts/edge-tts.js';
import { FallbackTts } from '../../../src/speech/tts/fallback-tts.js';
import { TtsTimeoutError } from '../../../src/speech/tts/errors.js';
import { createTextToSpeech } from '../../../src/speech/tts/create.js';
import { parseWav } from '../../../src/speech/audio/wav.js';
import { DiscordAudioSink, toAudioResource } from '../../../src/voice/discord-audio.js';
import { PlaybackQueue } from '../../../src/voice/playback-queue.js';
import { silentLogger } from '../../../src/core/ports/index.js';
import { FakeTts } from '../../support/voice-fakes.js';

const local = new EspeakTts();

describe('local engine (espeak-ng WebAssembly)', () => {
  it('synthesises a WAV of plausible speech offline', async () => {
    const audio = await local.synthesize('Hello, this is Charlie.');
    expect(audio.mime).toBe('audio/wav');
    const wav = parseWav(audio.data);
    expect(wav.sampleRate).toBe(22_050);
    const seconds = wav.samples.length / wav.sampleRate;
    expect(seconds).toBeGreaterThan(0.8);
    expect(seconds).toBeLessThan(4);
    const peak = wav.samples.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    expect(peak).toBeGreaterThan(0.1);
  });
  it('rejects empty text and honours abort', async () => {
    await expect(local.synthesize('   ')).rejects.toThrow(/empty/);
    await expect(local.synthesize('hi', { signal: AbortSignal.abort() })).rejects.toThrow();
  });
});

describe('Edge-TTS under a timeout', () => {
  it('a hanging Edge falls back to the local engine within the timeout', async () => {
    let opened = 0;
    const edge = new EdgeTts({ voice: 'en-US-AvaMultilingualNeural', timeoutMs: 60_000, stream: () => (opened++, { [Symbol.asyncIterator]: () => ({ next: () => new Promise<never>(() => {}) }) }) });
    // when the local engine is asked, not when it is done: its synthesis time is the machine's
    // load (up to seconds on a busy CI box), the fallback's timing is what is under test
    const started: number[] = [];
    const recorded: typeof local = Object.assign(Object.create(local) as typeof local, {
      synthesize: (text: string, options?: { signal?: AbortSignal }) => (started.push(performance.now()), local.synthesize(text, options)),
    });
    const tts = new FallbackTts(edge, recorded, { timeoutMs: 300, logger: silentLogger });
    const t0 = performance.now();
    const audio = await tts.synthesize('The network is down, but I can still talk.');
    expect(opened).toBe(1);
    expect(audio.mime).toBe('audio/wav');
    expect(started).toHaveLength(1);
    expect(started[0]! - t0).toBeGreaterThanOrEqual(295);
    // the fallback's own timeout, not Edge's 60 s (the margin is timer lateness on a loaded machine)
    expect(started[0]! - t0).toBeLessThan(300 + 2000);
    // cooldown: the next sentence does not wait for Edge again, it goes to the local engine at once
    const t1 = performance.now();
    await tts.synthesize('Second sentence.');
    expect(opened).toBe(1);
    expect(started).toHaveLength(2);
    expect(started[1]! - t1).toBeLessThan(295);
  });
  it('Edge alone times out with an error that says what to do', async () => {
    const edge = new EdgeTts({ voice: 'v', timeoutMs: 100, stream: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<never>(() => {}) }) }) });
    const err = await edge.synthesize('hi').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TtsTimeoutError);
    expect(String(err)).toMatch(/TTS_TIMEOUT_MS|TTS=local/);
  });
  it('Edge audio chunks are collected as MP3', async () => {
    async function* chunks() {
      yield { type: 'WordBoundary' };
      yield { type: 'audio', data: new Uint8Array([0x49, 0x44]) };
      yield { type: 'audio', data: new Uint8Array([0x33, 4]) };
    }
    const audio = await new EdgeTts({ voice: 'v', timeoutMs: 1000, stream: () => chunks() }).synthesize('hi');
    expect(audio).toEqual({ mime: 'audio/mpeg', data: Buffer.from([0x49, 0x44, 0x33, 4]) });
  });
  it('private mode uses only the local engine; edge mode falls back to it', () => {
    expect(createTextToSpeech({ TTS: 'local', TTS_VOICE: 'x', TTS_TIMEOUT_MS: 1000, TTS_LOCAL_VOICE: 'en-us' }, silentLogger).locality).toBe('local');
    const edge = createTextToSpeech({ TTS: 'edge', TTS_VOICE: 'en-GB-SoniaNeural', TTS_TIMEOUT_MS: 1000, TTS_LOCAL_VOICE: 'en-us' }, silentLogger);
    expect(edge.locality).toBe('hosted');
    expect(edge.id).toBe('edge-tts:en-GB-SoniaNeural|espeak-ng:en-us');
  });
});

describe('playback through @discordjs/voice without ffmpeg', () => {
  it('the voice stack resolves its DAVE and Opus libraries (no native build, no ffmpeg needed)', () => {
    const report = generateDependencyReport();
    expect(report).toMatch(/@snazzah\/davey: \d+\.\d+\.\d+/);
    expect(report).toMatch(/opusscript: \d+\.\d+\.\d+/);
    expect(report).toMatch(/aes-256-gcm: yes/);
  });
  it('the player gets a playable resource: 20 ms Opus frames of the synthesised speech', async () => {
    const resource = await toAudioResource(await local.synthesize('Testing one two three.'));
    const decoder = new OpusScript(48_000, 2);
    let frames = 0;
    let loud = 0;
    await new Promise<void>((resolve) => {
      const read = () => {
        for (let packet = resource.read(); packet; packet = resource.read()) {
          frames++;
          const pcm = decoder.decode(packet);
          expect(pcm.length).toBe(960 * 2 * 2);
          const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2);
          if (samples.some((v) => Math.abs(v) > 2000)) loud++;
        }
        if (resource.ended) resolve();
        else setTimeout(read, 5);
      };
      read();
    });
    decoder.delete();
    expect(frames).toBeGreaterThan(40); // > 0.8 s of audio
    expect(loud).toBeGreaterThan(frames / 3);
  });

  it('Edge-TTS MP3 becomes a playable resource too (WebAssembly MP3 decoder, no ffmpeg)', async () => {
    const frame = new Uint8Array(417);
    frame.set([0xff, 0xfb, 0x90, 0x64]);
    const mp3 = new Uint8Array(417 * 50);
    for (let i = 0; i < 50; i++) mp3.set(frame, i * 417);
    const resource = await toAudioResource({ mime: 'audio/mpeg', data: mp3 });
    let frames = 0;
    await new Promise<void>((resolve) => {
      const read = () => {
        while (resource.read()) frames++;
        if (resource.ended) resolve();
        else setTimeout(read, 5);
      };
      read();
    });
    expect(frames).toBeGreaterThanOrEqual(60); // 50 × 1152 samples at 44.1 kHz ≈ 1.3 s ≈ 65 frames
    expect(frames).toBeLessThanOrEqual(70);
  });

  it('a real AudioPlayer plays queued sentences and barge-in stops it and clears the queue', async () => {
    const player = createAudioPlayer({ behaviors: { noSubscriber: NoSubscriberBehavior.Play } });
    const queue = new PlaybackQueue({ tts: local, sink: new DiscordAudioSink(player) });
    queue.enqueue('This is the first of several sentences that Charlie wants to say.');
    queue.enqueue('And this is the second one.');
    queue.enqueue('And a third.');
    await new Promise<void>((resolve) => player.once(AudioPlayerStatus.Playing, () => resolve()));
    await new Promise((r) => setTimeout(r, 200));
    expect(player.state.status).toBe(AudioPlayerStatus.Playing);
    expect(queue.interrupt()).toBe(3);
    expect(player.state.status).toBe(AudioPlayerStatus.Idle);
    await queue.idle();
    expect(queue.speaking).toBe(false);
    player.stop(true);
  });

  it('a sink error never blocks the queue', async () => {
    const queue = new PlaybackQueue({ tts: new FakeTts(), sink: { play: async () => Promise.reject(new Error('boom')) } });
    queue.enqueue('a');
    queue.enqueue('b');
    await queue.idle();
    expect(queue.speaking).toBe(false);
  });
});
