/**
 * Opus packets ↔ PCM with opusscript (WebAssembly, no native build). An Opus decoder is
 * stateful (packet loss concealment, prediction): one instance per speaker, never shared.
 */
import OpusScript from 'opusscript';
import { Decimator48to16 } from './pcm.js';

/** Samples per channel in one 20 ms frame at 48 kHz. */
export const OPUS_FRAME_SAMPLES = 960;

/** Decodes one speaker's Opus stream (48 kHz stereo) into 16 kHz mono. */
export class SpeakerDecoder {
  private readonly opus = new OpusScript(48_000, 2, OpusScript.Application.VOIP);
  private readonly decimator = new Decimator48to16();
  private closed = false;

  /** One Opus packet in, 16 kHz mono s16 out (320 samples for a 20 ms packet). Corrupt packets yield silence. */
  decode(packet: Uint8Array): Int16Array {
    if (this.closed) throw new Error('decoder closed');
    let stereo: Int16Array;
    try {
      const buf = this.opus.decode(Buffer.from(packet.buffer, packet.byteOffset, packet.byteLength));
      stereo = new Int16Array(buf.buffer, buf.byteOffset, buf.byteLength >> 1).slice();
    } catch {
      stereo = new Int16Array(OPUS_FRAME_SAMPLES * 2);
    }
    return this.decimator.process(stereo);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.opus.delete();
  }
}

/** Encodes 48 kHz stereo s16 PCM into 20 ms Opus packets (tests, benchmarks). */
export class OpusPacketEncoder {
  private readonly opus = new OpusScript(48_000, 2, OpusScript.Application.AUDIO);

  /** `stereo` is interleaved s16 at 48 kHz; the tail is zero-padded to a whole frame. */
  encode(stereo: Int16Array): Uint8Array[] {
    const frame = OPUS_FRAME_SAMPLES * 2;
    const packets: Uint8Array[] = [];
    for (let o = 0; o < stereo.length; o += frame) {
      const chunk = new Int16Array(frame);
      chunk.set(stereo.subarray(o, Math.min(o + frame, stereo.length)));
      const out = this.opus.encode(Buffer.from(chunk.buffer), OPUS_FRAME_SAMPLES);
      packets.push(Uint8Array.from(out));
    }
    return packets;
  }

  close(): void {
    this.opus.delete();
  }
}
