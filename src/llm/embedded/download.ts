/**
 * Downloads a GGUF model file so that an interrupted download resumes: bytes go to
 * `<file>.part`, a rerun asks the server for the rest (HTTP Range) and appends, and only a
 * verified file is renamed into place. Verified means: the size the server announced, the
 * SHA-256 the server announced when it gives one (Hugging Face's `x-linked-etag` for LFS
 * files), and a GGUF header. `hf:OWNER/REPO:QUANT` references (which need a lookup on the
 * Hub to find the file) are handed to node-llama-cpp's own downloader.
 *
 * Why not node-llama-cpp's downloader for everything: it preallocates the target file at its
 * full size and, in our trial, left nothing to resume after an aborted download, so neither
 * "resume" nor "the size matches" could be shown to hold.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CharlieError } from '../../core/errors.js';
import type { EmbeddedModelFile } from './model-file.js';
import { errorMessage } from '../../util/error-text.js';

export class DownloadError extends CharlieError {}

/** Bytes so far, and the total when the server said it (the same shape the terminal's progress bar takes). */
export interface DownloadProgress {
  downloaded: number;
  total: number | null;
}

export interface DownloadOptions {
  onProgress?: (p: DownloadProgress) => void;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

export interface DownloadResult {
  path: string;
  bytes: number;
  /** false when the file was already there. */
  downloaded: boolean;
  /** Bytes that were already on disk from an earlier, interrupted attempt. */
  resumedFrom: number;
  sha256: string | null;
  /** Whether the server announced a SHA-256 and the file matched it. */
  shaVerified: boolean;
}

export async function downloadModel(file: EmbeddedModelFile, options: DownloadOptions = {}): Promise<DownloadResult> {
  if (existsSync(file.path)) {
    await assertGguf(file.path);
    return { path: file.path, bytes: statSync(file.path).size, downloaded: false, resumedFrom: 0, sha256: null, shaVerified: false };
  }
  if (!file.downloadable) throw new DownloadError(`no model file at ${file.path} (EMBEDDED_MODEL_PATH), and Charlie does not download to a path you chose`);
  mkdirSync(dirname(file.path), { recursive: true });
  if (!file.url) return viaNodeLlamaCpp(file, options);
  return resumable(file.url, file.path, options);
}

async function resumable(url: string, path: string, options: DownloadOptions): Promise<DownloadResult> {
  const doFetch = options.fetch ?? fetch;
  const part = `${path}.part`;
  const have = existsSync(part) ? statSync(part).size : 0;
  const headers: Record<string, string> = have ? { range: `bytes=${have}-` } : {};
  // Hugging Face announces the file's SHA-256 on the redirect to its CDN, so follow it by hand.
  let res = await doFetch(url, { headers, signal: options.signal ?? null, redirect: 'manual' });
  const announced = res.headers.get('x-linked-etag');
  const location = res.headers.get('location');
  if (res.status >= 300 && res.status < 400 && location) {
    await res.body?.cancel();
    res = await doFetch(new URL(location, url), { headers, signal: options.signal ?? null, redirect: 'follow' });
  }
  if (res.status === 416 && have) {
    // The part file is complete already (or longer than the file): start over to be safe.
    rmSync(part, { force: true });
    return resumable(url, path, options);
  }
  if (!res.ok || !res.body) throw new DownloadError(`download of ${publicUrl(url)} failed: HTTP ${res.status}`);
  const resumed = res.status === 206 && have > 0;
  const start = resumed ? have : 0;
  const length = Number(res.headers.get('content-length') ?? NaN);
  const total = Number.isFinite(length) ? start + length : null;
  const expectedSha = (announced ?? res.headers.get('x-linked-etag') ?? '').replace(/"/g, '').toLowerCase();
  let downloaded = start;
  options.onProgress?.({ downloaded, total });
  // Each chunk is written as it arrives, so an interrupted download keeps every byte it got.
  const out = await open(part, resumed ? 'a' : 'w');
  try {
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      await out.write(chunk);
      downloaded += chunk.length;
      options.onProgress?.({ downloaded, total });
    }
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw new DownloadError(`download of ${publicUrl(url)} was interrupted at ${downloaded} bytes (${errorMessage(err)}) — run the same command again to resume`, {
      cause: err,
    });
  } finally {
    await out.close();
  }
  const bytes = statSync(part).size;
  if (total !== null && bytes !== total) throw new DownloadError(`download of ${publicUrl(url)} stopped at ${bytes} of ${total} bytes — run the same command again to resume`);
  const sha256 = await hashFile(part);
  const shaVerified = /^[0-9a-f]{64}$/.test(expectedSha);
  if (shaVerified && sha256 !== expectedSha) {
    rmSync(part, { force: true });
    throw new DownloadError(`the downloaded file does not match its SHA-256 (expected ${expectedSha}, got ${sha256}) — it was removed; run the command again`);
  }
  await assertGguf(part).catch((err: unknown) => {
    rmSync(part, { force: true });
    throw err;
  });
  renameSync(part, path);
  return { path, bytes, downloaded: true, resumedFrom: start, sha256, shaVerified };
}

async function viaNodeLlamaCpp(file: EmbeddedModelFile, options: DownloadOptions): Promise<DownloadResult> {
  const { createModelDownloader } = await import('node-llama-cpp');
  const downloader = await createModelDownloader({
    modelUri: file.ref,
    dirPath: dirname(file.path),
    fileName: file.path.slice(dirname(file.path).length + 1),
    showCliProgress: false,
    deleteTempFileOnCancel: false,
    onProgress: (p) => options.onProgress?.({ downloaded: p.downloadedSize, total: p.totalSize }),
  });
  const path = await downloader.download(options.signal ? { signal: options.signal } : {});
  const bytes = statSync(path).size;
  if (bytes !== downloader.totalSize) throw new DownloadError(`download of ${file.ref} is incomplete (${bytes} of ${downloader.totalSize} bytes)`);
  await assertGguf(path);
  return { path, bytes, downloaded: true, resumedFrom: 0, sha256: null, shaVerified: false };
}

/** The first bytes of a GGUF file: magic "GGUF" and a version llama.cpp reads (2 or 3). */
export async function assertGguf(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(8);
    await handle.read(head, 0, 8, 0);
    const version = head.readUInt32LE(4);
    if (head.toString('ascii', 0, 4) !== 'GGUF' || version < 2 || version > 3) throw new DownloadError(`${path} is not a GGUF model file`);
  } finally {
    await handle.close();
  }
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function publicUrl(url: string): string {
  return url.replace(/\/\/[^/@]*@/, '//');
}

/** The size of the remote file (HEAD), or null when it cannot be known quickly. */
export async function remoteSize(url: string, timeoutMs = 3000, fetchImpl: typeof fetch = fetch): Promise<number | null> {
  try {
    const res = await fetchImpl(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
    const size = Number(res.headers.get('x-linked-size') ?? res.headers.get('content-length') ?? NaN);
    return res.ok && Number.isFinite(size) && size > 0 ? size : null;
  } catch {
    return null;
  }
}
