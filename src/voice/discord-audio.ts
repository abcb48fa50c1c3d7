/**
 * Synthesised audio → something the @discordjs/voice AudioPlayer plays without ffmpeg:
 * decode (WAV / MP3 / Ogg, WebAssembly decoders), resample to 48 kHz stereo s16le, and wrap
 * as `StreamType.Raw` (the library encodes it to Opus with opusscript).
 */
import { Readable } from 'node:stream';
import { AudioPlayerStatus, createAudioResource, StreamType, type AudioPlayer, type AudioResource } from '@discordjs/voice';
import type { SynthesizedAudio } from '../core/ports/index.js';
import { decodeAudio } from '../speech/audio/decode.js';
import { toDiscordPcm } from '../speech/audio/pcm.js';
import type { AudioSink } from './playback-queue.js';

/** 20 ms of 48 kHz stereo s16le. */
const FRAME_BYTES = 3840;

/** Hand the PCM over one frame at a time, so the Opus encoder yields the first frame at once instead of encoding the whole sentence first. */
function* frames(pcm: Buffer): Generator<Buffer> {
  for (let o = 0; o < pcm.length; o += FRAME_BYTES) yield pcm.subarray(o, o + FRAME_BYTES);
}

export async function toAudioResource(audio: SynthesizedAudio): Promise<AudioResource> {
  const pcm = toDiscordPcm(await decodeAudio(audio.data, audio.mime));
  return createAudioResource(Readable.from(frames(pcm), { objectMode: false, highWaterMark: FRAME_BYTES * 5 }), { inputType: StreamType.Raw });
}

/** Plays through one AudioPlayer, one resource at a time. */
export class DiscordAudioSink implements AudioSink {
  constructor(private readonly player: AudioPlayer) {}

  async play(audio: SynthesizedAudio, signal: AbortSignal): Promise<void> {
    const resource = await toAudioResource(audio);
    if (signal.aborted) return;
    await new Promise<void>((resolve) => {
      const finish = () => {
        this.player.off('stateChange', onState);
        this.player.off('error', onError);
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onState = (_old: unknown, state: { status: AudioPlayerStatus }) => {
        if (state.status === AudioPlayerStatus.Idle) finish();
      };
      const onError = () => finish();
      const onAbort = () => {
        this.player.stop(true);
        finish();
      };
      this.player.on('stateChange', onState);
      this.player.on('error', onError);
      signal.addEventListener('abort', onAbort, { once: true });
      this.player.play(resource);
    });
  }
}
