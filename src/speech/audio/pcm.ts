/**
 * PCM conversions used on both sides of a voice channel:
 * Discord gives 48 kHz stereo, the recogniser wants 16 kHz mono (`Decimator48to16`);
 * synthesisers give mono at their own rate, Discord wants 48 kHz stereo (`toDiscordPcm`).
 */

import type { MonoAudio } from './mono-audio.js';

export const DISCORD_RATE = 48_000;
export const RECOGNISER_RATE = 16_000;

/** Windowed-sinc low-pass taps (Blackman window), normalised to unity gain at DC. */
export function lowPassTaps(cutoffHz: number, sampleRate: number, length: number): Float32Array {
  const taps = new Float32Array(length);
  const fc = cutoffHz / sampleRate;
  const mid = (length - 1) / 2;
  let sum = 0;
  for (let i = 0; i < length; i++) {
    const x = i - mid;
    const sinc = x === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * x) / (Math.PI * x);
    const w = 0.42 - 0.5 * Math.cos((2 * Math.PI * i) / (length - 1)) + 0.08 * Math.cos((4 * Math.PI * i) / (length - 1));
    taps[i] = sinc * w;
    sum += taps[i]!;
  }
  for (let i = 0; i < length; i++) taps[i] = taps[i]! / sum;
  return taps;
}

const DECIMATION_TAPS = lowPassTaps(7_000, DISCORD_RATE, 63);

/**
 * Stateful 48 kHz interleaved stereo → 16 kHz mono converter: downmix, low-pass at 7 kHz
 * (below the 8 kHz Nyquist of the output) and keep every third sample. It keeps the filter
 * history between calls, so one instance per speaker turns a packet stream into a seamless
 * signal. Not shareable between speakers.
 */
export class Decimator48to16 {
  private readonly history: Float32Array;
  /** Samples of the mono 48 kHz signal consumed since the last output sample. */
  private phase = 0;

  constructor(private readonly taps: Float32Array = DECIMATION_TAPS) {
    this.history = new Float32Array(taps.length);
  }

  /** `stereo` is interleaved s16 at 48 kHz; returns s16 mono at 16 kHz. */
  process(stereo: Int16Array): Int16Array {
    const frames = stereo.length >> 1;
    const out = new Int16Array(Math.ceil((frames + this.phase) / 3) + 1);
    let n = 0;
    const h = this.history;
    const taps = this.taps;
    const len = taps.length;
    for (let i = 0; i < frames; i++) {
      // shift the delay line by one (len is small; a ring buffer would save little)
      h.copyWithin(0, 1);
      h[len - 1] = (stereo[2 * i]! + stereo[2 * i + 1]!) / 2;
      this.phase++;
      if (this.phase === 3) {
        this.phase = 0;
        let acc = 0;
        for (let k = 0; k < len; k++) acc += h[k]! * taps[k]!;
        out[n++] = clamp16(acc);
      }
    }
    return out.subarray(0, n);
  }

  reset(): void {
    this.history.fill(0);
    this.phase = 0;
  }
}

export function clamp16(v: number): number {
  return v > 32767 ? 32767 : v < -32768 ? -32768 : Math.round(v);
}

export function int16ToFloat(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = pcm[i]! / 32768;
  return out;
}

export function floatToInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = clamp16(samples[i]! * 32767);
  return out;
}

/**
 * Resample mono float audio to another rate. Downsampling low-passes first; upsampling
 * interpolates linearly (speech from a synthesiser has little energy near its Nyquist).
 */
export function resampleMono(audio: MonoAudio, targetRate: number): Float32Array {
  const { samples, sampleRate } = audio;
  if (sampleRate === targetRate) return samples;
  let src = samples;
  if (targetRate < sampleRate) {
    const taps = lowPassTaps(targetRate * 0.45, sampleRate, 63);
    src = convolve(samples, taps);
  }
  const ratio = sampleRate / targetRate;
  const outLen = Math.floor(src.length / ratio);
  const out = new Float32Array(outLen);
  for (let i = 0; i < outLen; i++) {
    const pos = i * ratio;
    const i0 = Math.floor(pos);
    const frac = pos - i0;
    const a = src[i0] ?? 0;
    const b = src[i0 + 1] ?? a;
    out[i] = a + (b - a) * frac;
  }
  return out;
}

function convolve(x: Float32Array, taps: Float32Array): Float32Array {
  const out = new Float32Array(x.length);
  const mid = (taps.length - 1) >> 1;
  for (let i = 0; i < x.length; i++) {
    let acc = 0;
    for (let k = 0; k < taps.length; k++) {
      const j = i + mid - k;
      if (j >= 0 && j < x.length) acc += x[j]! * taps[k]!;
    }
    out[i] = acc;
  }
  return out;
}

/** Mono audio at any rate → 48 kHz interleaved stereo s16le bytes, what `StreamType.Raw` expects. */
export function toDiscordPcm(audio: MonoAudio): Buffer {
  const mono = resampleMono(audio, DISCORD_RATE);
  const stereo = new Int16Array(mono.length * 2); // platform order is little-endian on every Node target
  for (let i = 0; i < mono.length; i++) stereo[2 * i] = stereo[2 * i + 1] = clamp16(mono[i]! * 32767);
  return Buffer.from(stereo.buffer, stereo.byteOffset, stereo.byteLength);
}

/** Concatenate s16 chunks. */
export function concatInt16(chunks: readonly Int16Array[]): Int16Array {
  let total = 0;
  for (const c of chunks) total += c.length;
  const out = new Int16Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
