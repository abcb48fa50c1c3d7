/**
 * Push-to-talk: the browser records (MediaRecorder), decodes and resamples to 16 kHz mono
 * (OfflineAudioContext) and sends a WAV to Charlie's speech-to-text, so the server needs no codec
 * for whatever container this browser records in.
 */
import { encodeWav } from '../../speech/audio/wav.js';

export interface Recording {
  stop(): Promise<Blob>;
}

export async function startRecording(): Promise<Recording> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const recorder = new MediaRecorder(stream);
  const chunks: Blob[] = [];
  recorder.addEventListener('dataavailable', (e) => chunks.push(e.data));
  recorder.start();
  return {
    stop: () =>
      new Promise<Blob>((resolve) => {
        recorder.addEventListener('stop', () => {
          for (const t of stream.getTracks()) t.stop();
          resolve(new Blob(chunks, { type: recorder.mimeType }));
        });
        recorder.stop();
      }),
  };
}

export async function toWav16k(blob: Blob): Promise<Blob> {
  const ctx = new AudioContext();
  const decoded = await ctx.decodeAudioData(await blob.arrayBuffer());
  await ctx.close();
  const frames = Math.max(1, Math.ceil(decoded.duration * 16_000));
  const offline = new OfflineAudioContext(1, frames, 16_000);
  const src = offline.createBufferSource();
  src.buffer = decoded;
  src.connect(offline.destination);
  src.start();
  const rendered = await offline.startRendering();
  const pcm = Int16Array.from(rendered.getChannelData(0), (s) => Math.max(-1, Math.min(1, s)) * 0x7fff);
  return new Blob([encodeWav(pcm, 16_000)], { type: 'audio/wav' });
}

export async function transcribe(wav: Blob): Promise<string> {
  const res = await fetch('/api/transcribe', { method: 'POST', headers: { 'content-type': 'audio/wav' }, body: wav, credentials: 'same-origin' });
  const data = (await res.json()) as { text?: string; error?: string };
  if (!res.ok) throw new Error(data.error ?? `transcription failed (${res.status})`);
  return data.text ?? '';
}

/** Speaks a text of the chat `project` (its stored label decides whether an online voice may). */
export async function speak(text: string, project: string): Promise<void> {
  const res = await fetch('/api/speech', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text, project }), credentials: 'same-origin' });
  if (!res.ok) throw new Error(`text-to-speech failed (${res.status})`);
  const url = URL.createObjectURL(await res.blob());
  const audio = new Audio(url);
  audio.addEventListener('ended', () => URL.revokeObjectURL(url));
  await audio.play();
}
