/**
 * Mono audio as floats in [-1, 1] with its sample rate. Apart from pcm.ts (which hands Discord
 * Node Buffers) so that the WAV writer, shared with the browser's push-to-talk, needs no Node types.
 */
export interface MonoAudio {
  samples: Float32Array;
  sampleRate: number;
}
