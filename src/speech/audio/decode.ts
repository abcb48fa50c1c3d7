/**
 * Decode whatever a synthesiser or a Discord attachment gives (WAV, MP3, Ogg Opus) to mono
 * floats, with WebAssembly decoders only: no ffmpeg, no system packages.
 */
import { Readable } from 'node:stream';
// the decoders (WebAssembly) are loaded on the first audio to decode, not when Charlie starts
import type { MonoAudio } from './mono-audio.js';
import { parseWav } from './wav.js';

export class UnsupportedAudioError extends Error {}

export type AudioKind = 'wav' | 'mpeg' | 'ogg' | 'unknown';

/** Sniff the container from the bytes, falling back to the MIME type. */
export function detectAudioKind(data: Uint8Array, mime = ''): AudioKind {
  const head = String.fromCharCode(...data.subarray(0, 4));
  if (head === 'RIFF') return 'wav';
  if (head === 'OggS') return 'ogg';
  if (head.startsWith('ID3') || (data[0] === 0xff && ((data[1] ?? 0) & 0xe0) === 0xe0)) return 'mpeg';
  if (/wav/.test(mime)) return 'wav';
  if (/mpeg|mp3/.test(mime)) return 'mpeg';
  if (/ogg|opus/.test(mime)) return 'ogg';
  return 'unknown';
}

export async function decodeAudio(data: Uint8Array, mime = ''): Promise<MonoAudio> {
  const kind = detectAudioKind(data, mime);
  switch (kind) {
    case 'wav':
      return parseWav(data);
    case 'mpeg':
      return decodeMp3(data);
    case 'ogg':
      return decodeOggOpus(data);
    default:
      throw new UnsupportedAudioError(`cannot decode audio of type ${mime || 'unknown'} (supported: WAV, MP3, Ogg Opus)`);
  }
}

export async function decodeMp3(data: Uint8Array): Promise<MonoAudio> {
  const { MPEGDecoder } = await import('mpg123-decoder');
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const { channelData, samplesDecoded, sampleRate } = decoder.decode(data);
    if (!samplesDecoded || !channelData.length) throw new UnsupportedAudioError('MP3 contained no audio frames');
    const out = new Float32Array(samplesDecoded);
    for (const ch of channelData) for (let i = 0; i < samplesDecoded; i++) out[i] = out[i]! + ch[i]! / channelData.length;
    return { samples: out, sampleRate };
  } finally {
    decoder.free();
  }
}

/** Ogg Opus (Discord voice messages): demux with prism-media, decode with opusscript at 48 kHz. */
export async function decodeOggOpus(data: Uint8Array): Promise<MonoAudio> {
  const [{ default: prism }, { default: OpusScript }] = await Promise.all([import('prism-media'), import('opusscript')]);
  const demuxer = new prism.opus.OggDemuxer();
  const opus = new OpusScript(48_000, 1, OpusScript.Application.VOIP);
  const chunks: Int16Array[] = [];
  try {
    const packets = Readable.from([Buffer.from(data)]).pipe(demuxer);
    for await (const packet of packets as AsyncIterable<Buffer>) {
      const pcm = opus.decode(packet);
      chunks.push(new Int16Array(pcm.buffer, pcm.byteOffset, pcm.byteLength >> 1).slice());
    }
  } finally {
    opus.delete();
  }
  let total = 0;
  for (const c of chunks) total += c.length;
  if (!total) throw new UnsupportedAudioError('Ogg file contained no Opus audio');
  const out = new Float32Array(total);
  let o = 0;
  for (const c of chunks) for (let i = 0; i < c.length; i++) out[o++] = c[i]! / 32768;
  return { samples: out, sampleRate: 48_000 };
}
