/**
 * A cheap frame-level speech detector for 16 kHz mono: a frame counts as voiced when it is
 * loud enough (RMS above a dBFS gate) and not noise-like (zero-crossing rate below what
 * hiss and broadband noise produce). Used to keep silence, blips and noise from ever
 * reaching the recogniser, and to measure how long someone has really been talking.
 */

export interface EnergyGateOptions {
  /** Frames quieter than this (dBFS) are silence. Default -45. */
  minDbfs?: number;
  /** Frames whose zero-crossing rate (crossings per sample) is above this are noise. Default 0.35. */
  maxZeroCrossingRate?: number;
  /** Frame length in samples at 16 kHz. Default 320 (20 ms). */
  frameSamples?: number;
}

export interface FrameStats {
  dbfs: number;
  zeroCrossingRate: number;
  voiced: boolean;
}

export class EnergyGate {
  readonly minDbfs: number;
  readonly maxZeroCrossingRate: number;
  readonly frameSamples: number;

  constructor(options: EnergyGateOptions = {}) {
    this.minDbfs = options.minDbfs ?? -45;
    this.maxZeroCrossingRate = options.maxZeroCrossingRate ?? 0.35;
    this.frameSamples = options.frameSamples ?? 320;
  }

  frame(pcm: Int16Array): FrameStats {
    if (pcm.length === 0) return { dbfs: -Infinity, zeroCrossingRate: 0, voiced: false };
    let sum = 0;
    let mean = 0;
    for (let i = 0; i < pcm.length; i++) mean += pcm[i]!;
    mean /= pcm.length;
    let crossings = 0;
    let prev = pcm[0]! - mean;
    for (let i = 0; i < pcm.length; i++) {
      const v = pcm[i]! - mean;
      sum += v * v;
      if (v >= 0 !== prev >= 0) crossings++;
      prev = v;
    }
    const rms = Math.sqrt(sum / pcm.length) / 32768;
    const dbfs = rms > 0 ? 20 * Math.log10(rms) : -Infinity;
    const zeroCrossingRate = crossings / pcm.length;
    return { dbfs, zeroCrossingRate, voiced: dbfs >= this.minDbfs && zeroCrossingRate <= this.maxZeroCrossingRate };
  }

  /** Milliseconds of voiced frames in a 16 kHz clip. */
  voicedMs(pcm: Int16Array): number {
    let voiced = 0;
    for (let o = 0; o + this.frameSamples <= pcm.length; o += this.frameSamples) {
      if (this.frame(pcm.subarray(o, o + this.frameSamples)).voiced) voiced++;
    }
    return (voiced * this.frameSamples * 1000) / 16_000;
  }
}
