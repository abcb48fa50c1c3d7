/** Minimal RIFF/WAVE reader and writer (PCM s16 / float32, any channel count). */
import type { MonoAudio } from './mono-audio.js';

export class WavFormatError extends Error {}

/** Parse a WAV file and downmix it to mono floats. */
export function parseWav(data: Uint8Array): MonoAudio {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const tag = (o: number) => String.fromCharCode(data[o]!, data[o + 1]!, data[o + 2]!, data[o + 3]!);
  if (data.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new WavFormatError('not a RIFF/WAVE file');
  let offset = 12;
  let format = 0;
  let channels = 0;
  let sampleRate = 0;
  let bits = 0;
  while (offset + 8 <= data.length) {
    const id = tag(offset);
    let size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = view.getUint16(body, true);
      channels = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      bits = view.getUint16(body + 14, true);
      if (format === 0xfffe && size >= 26) format = view.getUint16(body + 24, true); // WAVE_FORMAT_EXTENSIBLE
    } else if (id === 'data') {
      if (!channels) throw new WavFormatError('data chunk before fmt chunk');
      // streaming writers put 0 or 0xFFFFFFFF here: take what is there
      if (size === 0 || body + size > data.length) size = data.length - body;
      return { samples: decodeSamples(view, body, size, format, channels, bits), sampleRate };
    }
    offset = body + size + (size & 1);
  }
  throw new WavFormatError('no data chunk');
}

function decodeSamples(view: DataView, start: number, size: number, format: number, channels: number, bits: number): Float32Array {
  const bytes = bits / 8;
  const frames = Math.floor(size / (bytes * channels));
  const out = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let acc = 0;
    for (let c = 0; c < channels; c++) {
      const o = start + (f * channels + c) * bytes;
      if (format === 1 && bits === 16) acc += view.getInt16(o, true) / 32768;
      else if (format === 3 && bits === 32) acc += view.getFloat32(o, true);
      else if (format === 1 && bits === 8) acc += (view.getUint8(o) - 128) / 128;
      else if (format === 1 && bits === 32) acc += view.getInt32(o, true) / 2147483648;
      else throw new WavFormatError(`unsupported WAV encoding (format ${format}, ${bits} bits)`);
    }
    out[f] = acc / channels;
  }
  return out;
}

/** Encode mono s16 PCM as a WAV file (what `/v1/audio/transcriptions` servers accept; the browser's push-to-talk sends the same). */
export function encodeWav(pcm: Int16Array, sampleRate: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(44 + pcm.length * 2);
  const v = new DataView(out.buffer);
  const put = (o: number, s: string) => {
    for (let i = 0; i < s.length; i++) out[o + i] = s.charCodeAt(i);
  };
  put(0, 'RIFF');
  v.setUint32(4, 36 + pcm.length * 2, true);
  put(8, 'WAVE');
  put(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  put(36, 'data');
  v.setUint32(40, pcm.length * 2, true);
  for (let i = 0; i < pcm.length; i++) v.setInt16(44 + i * 2, pcm[i]!, true);
  return out;
}
