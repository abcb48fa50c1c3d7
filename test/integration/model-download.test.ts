/**
 * `npm run models -- pull` for the chat model, against a local HTTP server on port 0 (never the
 * real Hub): progress, resume after an interrupted download (HTTP Range), SHA-256 and GGUF checks.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { downloadModel, DownloadError, remoteSize } from '../../src/llm/embedded/download.js';
import { embeddedModelFile } from '../../src/llm/embedded/model-file.js';
import { tinyGguf } from '../support/tiny-gguf.js';

const model = tinyGguf();
const sha = createHash('sha256').update(model).digest('hex');
let server: Server;
let base = '';
const seen: string[] = [];
/** Bytes to send before cutting the connection (null = everything). */
let cutAfter: number | null = null;
let announcedSha = sha;
let stalled: ServerResponse | null = null;
const cut = () => {
  stalled?.destroy();
  stalled = null;
};

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method ?? ''} ${req.url ?? ''} ${req.headers.range ?? '-'}`);
    if (req.url === '/owner/repo/resolve/main/tiny.gguf') {
      // Like the Hub: a redirect that announces the file's hash and size.
      res.writeHead(302, { location: '/cdn/tiny.gguf', 'x-linked-etag': `"${announcedSha}"`, 'x-linked-size': String(model.length) });
      res.end();
      return;
    }
    if (req.url === '/not-a-model.gguf') {
      res.writeHead(200, { 'content-length': 11 });
      res.end('hello world');
      return;
    }
    const m = /bytes=(\d+)-/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    const body = model.subarray(start);
    res.writeHead(m ? 206 : 200, {
      'content-length': body.length,
      'accept-ranges': 'bytes',
      ...(m ? { 'content-range': `bytes ${start}-${model.length - 1}/${model.length}` } : {}),
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    if (cutAfter !== null) {
      // Send part of the file and hold the connection until the test cuts it (`cut()`),
      // once the client has written those bytes: a cut that loses nothing, every time.
      res.write(body.subarray(0, cutAfter));
      stalled = res;
      return;
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const dirs: string[] = [];
function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'charlie-pull-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  seen.length = 0;
  cutAfter = null;
  announcedSha = sha;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('downloading the embedded model', () => {
  it('resumes an interrupted download where it stopped, then verifies it', async () => {
    const file = embeddedModelFile({ EMBEDDED_MODEL: `${base}/files/tiny.gguf`, dataDir: dataDir() });
    cutAfter = 50_000;
    const progress: number[] = [];
    const interrupted = downloadModel(file, {
      onProgress: (p) => {
        progress.push(p.downloaded);
        if (p.downloaded >= 50_000) cut();
      },
    });
    await expect(interrupted).rejects.toThrow(/interrupted at \d+ bytes .* run the same command again to resume/);
    expect(existsSync(file.path)).toBe(false);
    const partial = statSync(`${file.path}.part`).size;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(model.length);

    cutAfter = null;
    const result = await downloadModel(file, { onProgress: (p) => progress.push(p.downloaded) });
    expect(seen.at(-1)).toBe(`GET /files/tiny.gguf bytes=${partial}-`);
    expect(result).toMatchObject({ downloaded: true, resumedFrom: partial, bytes: model.length, sha256: sha, shaVerified: false });
    expect(readFileSync(file.path).equals(model)).toBe(true);
    expect(existsSync(`${file.path}.part`)).toBe(false);
    expect(progress.at(-1)).toBe(model.length);
    // Present now: a second pull downloads nothing.
    seen.length = 0;
    expect((await downloadModel(file)).downloaded).toBe(false);
    expect(seen).toEqual([]);
  });

  it('checks the SHA-256 announced on a Hub-style redirect and removes a file that does not match', async () => {
    const file = { ...embeddedModelFile({ EMBEDDED_MODEL: 'hf:owner/repo/tiny.gguf', dataDir: dataDir() }), url: `${base}/owner/repo/resolve/main/tiny.gguf` };
    expect(file.path.endsWith('hf_owner_tiny.gguf')).toBe(true);
    announcedSha = 'a'.repeat(64);
    await expect(downloadModel(file)).rejects.toThrow(/SHA-256/);
    expect(existsSync(file.path) || existsSync(`${file.path}.part`)).toBe(false);
    announcedSha = sha;
    const result = await downloadModel(file);
    expect(result).toMatchObject({ sha256: sha, shaVerified: true });
    expect(readFileSync(file.path).equals(model)).toBe(true);
  });

  it('refuses a file that is not GGUF', async () => {
    const file = embeddedModelFile({ EMBEDDED_MODEL: `${base}/not-a-model.gguf`, dataDir: dataDir() });
    await expect(downloadModel(file)).rejects.toBeInstanceOf(DownloadError);
    expect(existsSync(file.path)).toBe(false);
  });

  it('never downloads to EMBEDDED_MODEL_PATH, and checks a file found there', async () => {
    const dir = dataDir();
    const missing = embeddedModelFile({ EMBEDDED_MODEL: 'hf:a/b/c.gguf', EMBEDDED_MODEL_PATH: join(dir, 'mine.gguf'), dataDir: dir });
    await expect(downloadModel(missing)).rejects.toThrow(/EMBEDDED_MODEL_PATH/);
    writeFileSync(join(dir, 'mine.gguf'), 'not gguf at all');
    await expect(downloadModel(missing)).rejects.toThrow(/not a GGUF/);
  });

  it('reads the remote size for the download offer', async () => {
    expect(await remoteSize(`${base}/owner/repo/resolve/main/tiny.gguf`)).toBe(model.length);
    expect(await remoteSize('http://127.0.0.1:1/nothing.gguf', 500)).toBeNull();
  });
});
