import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { runParts } from '../../src/doctor/check.js';
import { speechPart } from '../../src/doctor/speech-checks.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

/** A fake `/v1/audio/transcriptions` server that hears what it is told to, and counts the audio it got. */
async function transcriptionServer(heard: string): Promise<{ url: string; bytes: () => number }> {
  let bytes = 0;
  const server: Server = createServer((req, res) => {
    req.on('data', (b: Buffer) => (bytes += b.length));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: heard }));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanup.push(() => new Promise<void>((done) => server.close(() => done())));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${String(address.port)}/v1`, bytes: () => bytes };
}

async function speech(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-doctor-speech-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const results = await runParts([speechPart(loadConfig({ DATA_DIR: join(dir, 'data'), TTS: 'local', ...env }, dir))]);
  return (name: string) => results.find((r) => r.name === name);
}

describe('doctor: speech', () => {
  it('transcribes the clip made by the local voice through the configured recogniser', async () => {
    const server = await transcriptionServer(' Hello Charlie, what is the weather today?');
    const by = await speech({ STT_BASE_URL: server.url });
    expect(by('speech to text')).toMatchObject({ status: 'ok', detail: `openai-stt:whisper-1@${server.url} transcribed a short clip: "Hello Charlie, what is the weather today?"` });
    expect(server.bytes()).toBeGreaterThan(16_000); // about a second or more of 16 kHz audio was sent
    expect(by('text to speech: local voice (fallback)')?.status).toBe('ok');
    expect(by('text to speech: Edge')).toMatchObject({ status: 'skip' });
  }, 60_000);

  it('a recogniser that hears something else is a warning with what to try', async () => {
    const server = await transcriptionServer('Thank you.');
    const by = await speech({ STT_BASE_URL: server.url });
    expect(by('speech to text')).toMatchObject({ status: 'warn' });
    expect(by('speech to text')?.fix).toMatch(/larger model/);
  }, 60_000);

  it('a missing Whisper model with downloads off fails, saying where it was expected', async () => {
    const by = await speech({ STT_ALLOW_DOWNLOAD: 'false' });
    expect(by('speech to text')).toMatchObject({ status: 'fail' });
    expect(by('speech to text')?.detail).toMatch(/^Whisper model Xenova\/whisper-base\.en is not at .*data\/models\/Xenova\/whisper-base\.en and STT_ALLOW_DOWNLOAD=false/);
  }, 60_000);
});
