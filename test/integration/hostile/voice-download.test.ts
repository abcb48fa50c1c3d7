/**
 * A stalled voice-message download (issue 13, item 4) blocked its channel for 300 s. The
 * download is time-boxed: a server that sends headers and then nothing yields a warning.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { transcribeAudioAttachments } from '../../../src/speech/voice-message.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function stallingServer(): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'audio/ogg', 'content-length': '100000' });
    res.write(Buffer.from('OggS'));
    // …and then nothing, for ever.
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/voice-message.ogg`;
}

describe('voice message download', () => {
  it('a download that stalls ends after the time box with a warning, and nothing is transcribed', async () => {
    const url = await stallingServer();
    let transcribed = 0;
    const stt = { id: 'fake', transcribe: async () => (transcribed++, 'never') };
    const out = await transcribeAudioAttachments([{ name: 'voice-message.ogg', url, contentType: 'audio/ogg', size: 100_000 }], { stt, fetch, downloadTimeoutMs: 300 });
    expect(out.texts).toEqual([]);
    expect(out.warnings).toEqual([expect.stringMatching(/voice-message\.ogg.*did not download within 0\.3 s/)]);
    expect(transcribed).toBe(0);
  });

  it('a body larger than the limit is not read to the end', async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/ogg' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = () => {
        while (res.write(chunk)) {
          /* keep writing until the socket pushes back */
        }
      };
      res.on('drain', pump);
      pump();
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/big.ogg`;
    const stt = { id: 'fake', transcribe: async () => 'never' };
    // The declared size lies (small); the body is endless.
    const out = await transcribeAudioAttachments([{ name: 'big.ogg', url, contentType: 'audio/ogg', size: 10 }], { stt, fetch, downloadTimeoutMs: 20_000, maxBytes: 1_000_000 });
    expect(out.warnings).toEqual([expect.stringMatching(/big\.ogg.*too long/)]);
  });
});
