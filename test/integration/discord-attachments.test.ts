/**
 * Attachment downloads are time-boxed (DISCORD_ATTACHMENT_TIMEOUT_MS, 15 s by default): a
 * server that stalls, before its headers or in the middle of the body, costs the message a
 * visible warning, not its channel. A short configured limit stands in for the 15 s.
 */
import { describe, expect, it } from 'vitest';
import { readAttachments, type AttachmentOptions } from '../../src/discord/attachments.js';
import { stallingServers } from '../support/stalling-server.js';

const startServer = stallingServers();

/** A local server: `/stall-headers` never answers, `/stall-body` sends half an image and stops, `/ok` answers at once. */
function attachmentServer(): Promise<string> {
  return startServer((req, res) => {
    if (req.url === '/ok') {
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([137, 80, 78, 71]));
      return false;
    }
    if (req.url === '/stall-body') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '4096' });
      res.write(Buffer.alloc(2048, 1));
    }
    return true;
  });
}

const options = (downloadTimeoutMs: number): AttachmentOptions => ({ acceptsImages: true, maxTextBytes: 100_000, maxImageBytes: 5_000_000, downloadTimeoutMs, fetch });

describe('attachment downloads', () => {
  it('give up on a server that never answers, or stalls mid-body, after the configured limit', async () => {
    const base = await attachmentServer();
    const started = performance.now();
    const result = await readAttachments(
      [
        { name: 'silent.png', url: `${base}/stall-headers`, contentType: 'image/png', size: 4096 },
        { name: 'half.png', url: `${base}/stall-body`, contentType: 'image/png', size: 4096 },
        { name: 'notes.txt', url: `${base}/stall-headers`, contentType: 'text/plain', size: 100 },
        { name: 'fine.png', url: `${base}/ok`, contentType: 'image/png', size: 4 },
      ],
      options(300),
    );
    const elapsed = performance.now() - started;
    expect(result.warnings).toEqual(["Couldn't read silent.png: the download took longer than 0.3 s.", "Couldn't read half.png: the download took longer than 0.3 s.", "Couldn't read notes.txt."]);
    expect(result.images).toEqual([`data:image/png;base64,${Buffer.from([137, 80, 78, 71]).toString('base64')}`]);
    // three downloads of 0.3 s each, one after the other, and no more
    expect(elapsed).toBeGreaterThanOrEqual(800);
    expect(elapsed).toBeLessThan(5000);
  });

  it('the turn being cancelled stops a download at once, and is not reported as the time limit', async () => {
    const base = await attachmentServer();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('turn cancelled')), 100);
    const result = await readAttachments([{ name: 'silent.png', url: `${base}/stall-headers`, contentType: 'image/png', size: 4096 }], { ...options(60_000), signal: controller.signal });
    expect(result.images).toEqual([]);
    expect(result.warnings).toEqual(["Couldn't read silent.png: turn cancelled."]);
  });
});
