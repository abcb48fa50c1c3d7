/** Speech to text: a local fake /v1/audio/transcriptions server, the local Whisper's missing-model path, the factory. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAITranscriber, transcriptionsUrl } from '../../../src/speech/stt/openai-transcriber.js';
import { TransformersWhisper } from '../../../src/speech/stt/transformers-whisper.js';
import { SpeechModelMissingError, SttError } from '../../../src/speech/stt/errors.js';
import { createSpeechToText } from '../../../src/speech/stt/create.js';
import { configSchema } from '../../../src/config.js';
import { parseWav } from '../../../src/speech/audio/wav.js';
import { silentLogger } from '../../../src/core/ports/index.js';
import { transcribeAudioAttachments, transcribeVoiceMessage } from '../../../src/speech/voice-message.js';
import { EspeakTts } from '../../../src/speech/tts/espeak-tts.js';
import { speechPackets } from '../../fixtures/audio/speech.js';
import { oggOpus } from '../../fixtures/audio/ogg.js';

interface Received {
  auth: string | undefined;
  model: string;
  language: string | null;
  sampleRate: number;
  seconds: number;
}

let server: Server;
let baseUrl: string;
const received: Received[] = [];
let mode: 'ok' | 'error' | 'slow' | 'text' = 'ok';

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
      res.writeHead(404).end('not found');
      return;
    }
    // the test server parses the multipart upload the way a whisper server would; fine for a fixture
    const form = await new Response(await body(req), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
    const file = form.get('file') as File;
    const wav = parseWav(new Uint8Array(await file.arrayBuffer()));
    received.push({
      auth: req.headers.authorization,
      model: String(form.get('model')),
      language: form.get('language') as string | null,
      sampleRate: wav.sampleRate,
      seconds: wav.samples.length / wav.sampleRate,
    });
    if (mode === 'error') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"model not loaded"}');
    if (mode === 'slow') return void setTimeout(() => res.writeHead(200).end('{"text":"late"}'), 2000);
    if (mode === 'text') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(' plain words \n');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: ' What is on my calendar? ' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  baseUrl = `http://127.0.0.1:${address.port}/v1`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

const second = new Int16Array(16_000).map((_, i) => Math.round(Math.sin(i / 5) * 3000));

describe('OpenAITranscriber against a local /v1/audio/transcriptions', () => {
  it('posts a 16 kHz WAV with model, language and key, and returns the text', async () => {
    mode = 'ok';
    received.length = 0;
    const stt = new OpenAITranscriber({ baseUrl, model: 'whisper-1', apiKey: 'sk-test', timeoutMs: 5000 });
    expect(await stt.transcribe(second, { language: 'en' })).toBe('What is on my calendar?');
    expect(received).toEqual([{ auth: 'Bearer sk-test', model: 'whisper-1', language: 'en', sampleRate: 16_000, seconds: 1 }]);
  });
  it('accepts plain-text answers', async () => {
    mode = 'text';
    expect(await new OpenAITranscriber({ baseUrl, model: 'm', timeoutMs: 5000 }).transcribe(second)).toBe('plain words');
  });
  it('reports server errors, timeouts and a missing server with what to do', async () => {
    mode = 'error';
    await expect(new OpenAITranscriber({ baseUrl, model: 'm', timeoutMs: 5000 }).transcribe(second)).rejects.toThrow(/answered 500.*model not loaded/);
    mode = 'slow';
    await expect(new OpenAITranscriber({ baseUrl, model: 'm', timeoutMs: 300 }).transcribe(second)).rejects.toThrow(/did not answer within 300 ms/);
    await expect(new OpenAITranscriber({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 2000 }).transcribe(second)).rejects.toBeInstanceOf(SttError);
  });
  it('builds the endpoint with or without /v1', () => {
    expect(transcriptionsUrl('http://h:8080')).toBe('http://h:8080/v1/audio/transcriptions');
    expect(transcriptionsUrl('http://h:8080/v1/')).toBe('http://h:8080/v1/audio/transcriptions');
  });
  it('transcribes a voice message attachment (decoded and resampled to 16 kHz)', async () => {
    mode = 'ok';
    received.length = 0;
    const audio = await new EspeakTts().synthesize('Remind me to water the plants.');
    const text = await transcribeVoiceMessage(new OpenAITranscriber({ baseUrl, model: 'm', timeoutMs: 5000 }), audio.data, 'audio/wav');
    expect(text).toBe('What is on my calendar?');
    expect(received[0]!.sampleRate).toBe(16_000);
    expect(received[0]!.seconds).toBeGreaterThan(1);
  });
  it('transcribes a Discord voice message (Ogg Opus, demuxed and decoded without ffmpeg)', async () => {
    mode = 'ok';
    received.length = 0;
    const packets = await speechPackets('This is a voice message about the groceries.');
    const text = await transcribeVoiceMessage(new OpenAITranscriber({ baseUrl, model: 'm', timeoutMs: 5000 }), oggOpus(packets), 'audio/ogg');
    expect(text).toBe('What is on my calendar?');
    expect(received[0]!.sampleRate).toBe(16_000);
    expect(received[0]!.seconds).toBeCloseTo((packets.length * 20) / 1000, 1);
  });
  it('transcribes the audio attachments of a Discord message, fetched from their URL', async () => {
    mode = 'ok';
    const ogg = oggOpus(await speechPackets('Pick up the parcel.'));
    const files = new Map<string, Uint8Array>([['https://cdn.example/voice-message.ogg', ogg]]);
    const fakeFetch = (async (url: string | URL | Request) => {
      const data = files.get(String(url));
      return data ? new Response(data) : new Response('gone', { status: 404 });
    }) as typeof fetch;
    const stt = new OpenAITranscriber({ baseUrl, model: 'm', timeoutMs: 5000 });
    const out = await transcribeAudioAttachments(
      [
        { name: 'voice-message.ogg', url: 'https://cdn.example/voice-message.ogg', contentType: 'audio/ogg', size: ogg.length },
        { name: 'notes.txt', url: 'https://cdn.example/notes.txt', contentType: 'text/plain', size: 10 },
        { name: 'old.mp3', url: 'https://cdn.example/old.mp3', contentType: 'audio/mpeg', size: 100 },
      ],
      { stt, fetch: fakeFetch, downloadTimeoutMs: 10_000 },
    );
    expect(out.texts).toEqual(['[voice message voice-message.ogg] What is on my calendar?']);
    expect(out.warnings).toEqual(["Couldn't transcribe old.mp3: download answered 404"]);
  });

  it('a voice message the recogniser hears as a hallucination yields no text', async () => {
    const stt = { id: 's', transcribe: async () => ' [BLANK_AUDIO] ' };
    const hi = await speechPackets('Hi.');
    expect(await transcribeVoiceMessage(stt, oggOpus(hi), 'audio/ogg')).toBe('');
  });
});

describe('local Whisper (transformers.js)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-stt-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('without the model and without downloads, says where to put it (offline)', async () => {
    const whisper = new TransformersWhisper({ model: 'Xenova/whisper-tiny.en', cacheDir: dir, allowDownload: false, dtype: 'q8' });
    expect(whisper.locate()).toMatchObject({ present: false, where: join(dir, 'Xenova/whisper-tiny.en') });
    const err = await whisper.transcribe(second).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpeechModelMissingError);
    expect(String(err)).toMatch(/not found at .*whisper-tiny\.en.*STT_BASE_URL/);
  });
  it('a model folder given by the owner is used as is, and a missing one is reported', async () => {
    const whisper = new TransformersWhisper({ model: 'Xenova/whisper-base.en', cacheDir: dir, localDir: join(dir, 'nowhere'), allowDownload: true, dtype: 'q8' });
    await expect(whisper.load()).rejects.toBeInstanceOf(SpeechModelMissingError);
  });
});

describe('createSpeechToText', () => {
  const base = { ...configSchema.parse({}), dataDir: '/tmp/charlie-data' };
  it('STT_BASE_URL set → the server; otherwise local Whisper under data/models', () => {
    expect(createSpeechToText({ ...base, STT: 'auto', STT_BASE_URL: 'http://localhost:8080/v1' }, silentLogger)).toBeInstanceOf(OpenAITranscriber);
    const local = createSpeechToText({ ...base, STT: 'auto', STT_BASE_URL: undefined }, silentLogger);
    expect(local).toBeInstanceOf(TransformersWhisper);
    expect((local as TransformersWhisper).locate().where).toBe('/tmp/charlie-data/models/Xenova/whisper-base.en');
    expect(() => createSpeechToText({ ...base, STT: 'openai', STT_BASE_URL: undefined }, silentLogger)).toThrow(/STT_BASE_URL/);
  });
});
