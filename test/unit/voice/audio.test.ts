import { describe, expect, it } from 'vitest';
import { Decimator48to16, resampleMono, toDiscordPcm } from '../../../src/speech/audio/pcm.js';
import { encodeWav, parseWav } from '../../../src/speech/audio/wav.js';
import { decodeAudio, detectAudioKind, UnsupportedAudioError } from '../../../src/speech/audio/decode.js';
import { OpusPacketEncoder, SpeakerDecoder } from '../../../src/speech/audio/opus.js';
import { EnergyGate } from '../../../src/speech/vad/energy.js';

function stereoTone(freq: number, ms: number, amp = 0.5): Int16Array {
  const n = Math.round((ms / 1000) * 48_000);
  const out = new Int16Array(n * 2);
  for (let i = 0; i < n; i++) out[2 * i] = out[2 * i + 1] = Math.round(Math.sin((2 * Math.PI * freq * i) / 48_000) * amp * 32767);
  return out;
}
const rms = (x: Int16Array, skip = 100) => {
  let s = 0;
  for (let i = skip; i < x.length; i++) s += x[i]! * x[i]!;
  return Math.sqrt(s / (x.length - skip)) / 32768;
};

describe('48 kHz stereo → 16 kHz mono', () => {
  it('keeps speech frequencies and removes what would alias', () => {
    const pass = new Decimator48to16().process(stereoTone(1000, 200));
    const stop = new Decimator48to16().process(stereoTone(12_000, 200)); // would fold to 4 kHz without the low-pass
    expect(pass.length).toBe(3200);
    expect(rms(pass)).toBeGreaterThan(0.3);
    expect(rms(stop)).toBeLessThan(0.01);
  });
  it('is seamless across packets (state kept per instance)', () => {
    const tone = stereoTone(440, 100);
    const whole = new Decimator48to16().process(tone);
    const d = new Decimator48to16();
    const parts = [d.process(tone.subarray(0, 1922)), d.process(tone.subarray(1922, 5000)), d.process(tone.subarray(5000))];
    const joined = Int16Array.from(parts.flatMap((p) => [...p]));
    expect(joined).toEqual(whole);
  });
  it('downmixes both channels', () => {
    const left = stereoTone(1000, 100);
    for (let i = 1; i < left.length; i += 2) left[i] = 0;
    expect(rms(new Decimator48to16().process(left))).toBeCloseTo(0.354 / 2, 1);
  });
});

describe('resampling for playback', () => {
  it('22.05 kHz mono becomes 48 kHz stereo s16le of the same duration', () => {
    const samples = new Float32Array(22_050).map((_, i) => Math.sin((2 * Math.PI * 300 * i) / 22_050) * 0.5);
    const pcm = toDiscordPcm({ samples, sampleRate: 22_050 });
    expect(pcm.length / 4).toBeGreaterThan(47_900);
    expect(pcm.length / 4).toBeLessThanOrEqual(48_000);
    expect(pcm.readInt16LE(400)).toBe(pcm.readInt16LE(402));
  });
  it('downsampling low-passes', () => {
    const hi = new Float32Array(48_000).map((_, i) => Math.sin((2 * Math.PI * 10_000 * i) / 48_000));
    const out = resampleMono({ samples: hi, sampleRate: 48_000 }, 16_000);
    const energy = Math.sqrt(out.slice(100, -100).reduce((s, v) => s + v * v, 0) / (out.length - 200));
    expect(energy).toBeLessThan(0.02);
  });
});

describe('WAV', () => {
  it('round-trips s16 mono and sniffs formats', () => {
    const pcm = Int16Array.from({ length: 1600 }, (_, i) => (i % 100) * 100 - 5000);
    const wav = encodeWav(pcm, 16_000);
    expect(detectAudioKind(wav)).toBe('wav');
    expect(detectAudioKind(new Uint8Array([0x4f, 0x67, 0x67, 0x53]))).toBe('ogg');
    expect(detectAudioKind(new Uint8Array([0x49, 0x44, 0x33, 4]))).toBe('mpeg');
    const back = parseWav(wav);
    expect(back.sampleRate).toBe(16_000);
    expect(back.samples.length).toBe(1600);
    expect(Math.round(back.samples[5]! * 32768)).toBe(pcm[5]);
    expect(() => parseWav(new Uint8Array(20))).toThrow(/RIFF/);
  });
});

describe('Opus per speaker', () => {
  it('decodes 20 ms packets to 320 samples of 16 kHz audio close to the source', () => {
    const enc = new OpusPacketEncoder();
    const packets = enc.encode(stereoTone(500, 400, 0.4));
    enc.close();
    expect(packets).toHaveLength(20);
    const dec = new SpeakerDecoder();
    const out = packets.map((p) => dec.decode(p));
    dec.close();
    expect(out.every((o) => o.length === 320)).toBe(true);
    const tail = Int16Array.from(out.slice(5).flatMap((o) => [...o]));
    expect(rms(tail, 0)).toBeGreaterThan(0.2);
    expect(rms(tail, 0)).toBeLessThan(0.4);
  });
  it('a corrupt packet yields silence instead of throwing', () => {
    const dec = new SpeakerDecoder();
    expect(dec.decode(new Uint8Array([1, 2, 3])).length).toBeGreaterThan(0);
    dec.close();
  });
});

describe('energy gate', () => {
  const gate = new EnergyGate();
  it('voice-like tone is voiced; quiet and hiss-like frames are not', () => {
    const tone = Int16Array.from({ length: 320 }, (_, i) => Math.round(Math.sin((2 * Math.PI * 200 * i) / 16_000) * 8000));
    expect(gate.frame(tone).voiced).toBe(true);
    expect(gate.frame(Int16Array.from(tone, (v) => v / 200)).voiced).toBe(false);
    let s = 7;
    const hiss = Int16Array.from({ length: 320 }, () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) % 16000) - 8000);
    expect(gate.frame(hiss).voiced).toBe(false);
    expect(gate.voicedMs(Int16Array.from({ length: 3200 }, (_, i) => tone[i % 320]!))).toBe(200);
  });
});

describe('MP3 (what Edge-TTS sends)', () => {
  it('decodes MPEG-1 Layer III frames with the WebAssembly decoder', async () => {
    // 20 silent frames: MPEG-1 Layer III, 128 kbps, 44.1 kHz → 417 bytes, 1152 samples each
    const frame = new Uint8Array(417);
    frame.set([0xff, 0xfb, 0x90, 0x64]);
    const mp3 = new Uint8Array(417 * 20);
    for (let i = 0; i < 20; i++) mp3.set(frame, i * 417);
    const audio = await decodeAudio(mp3, 'audio/mpeg');
    expect(audio.sampleRate).toBe(44_100);
    expect(audio.samples.length).toBe(20 * 1152);
  });
  it('refuses what it cannot decode, saying what it can', async () => {
    await expect(decodeAudio(new Uint8Array([1, 2, 3, 4]), 'audio/flac')).rejects.toBeInstanceOf(UnsupportedAudioError);
  });
});
