/**
 * A quick start-up check of the model server: does anything answer at LLM_BASE_URL?
 *
 * With node:http (node:https for an https address), not `fetch`: the terminal chat probes before
 * its prompt, and Node's first `fetch` loads undici with HTTP/2, TLS and zlib, about 70 ms of CPU
 * (docs/performance.md); the chat model's own requests load it after the prompt.
 */
import type { IncomingMessage } from 'node:http';
import { publicUrl } from './locality.js';

export type ProbeResult = { ok: true; models: string[] } | { ok: false; message: string };

/** A model list is a few KB; past this the body is not read (the answer still counts). */
const MAX_BODY_BYTES = 1 << 20;

export async function probeModelServer(baseUrl: string, apiKey: string | undefined, timeoutMs: number): Promise<ProbeResult> {
  const url = `${baseUrl.replace(/\/+$/, '')}/models`;
  try {
    const res = await get(url, apiKey ? { authorization: `Bearer ${apiKey}` } : {}, AbortSignal.timeout(timeoutMs));
    const status = res.status;
    if (status < 200 || status > 299) {
      // Some servers have no /models; an HTTP answer still means a server is there.
      return status === 401 || status === 403 ? { ok: false, message: `the model server at ${publicUrl(baseUrl)} refused the key (${status}) — check LLM_API_KEY` } : { ok: true, models: [] };
    }
    const body = parseJson(res.body) as { data?: unknown };
    const listed: unknown[] = Array.isArray(body.data) ? body.data : [];
    return { ok: true, models: listed.map((m) => (m && typeof m === 'object' && 'id' in m && typeof m.id === 'string' ? m.id : '')).filter(Boolean) };
  } catch {
    return { ok: false, message: `no model server at ${publicUrl(baseUrl)} — start LM Studio / Ollama or set LLM_BASE_URL` };
  }
}

function parseJson(text: string | null): unknown {
  if (text === null) return {};
  try {
    return (JSON.parse(text) as unknown) ?? {};
  } catch {
    return {};
  }
}

/** One GET: its status and its body as text (null past MAX_BODY_BYTES); rejects on a network error or `signal`. */
function get(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<{ status: number; body: string | null }> {
  // the CommonJS module, not `import()`: an ES module import of node:http reads each of its exports,
  // and its WebSocket getters load undici all the same
  const { request } = url.startsWith('https:') ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'application/json', ...headers }, signal }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: size <= MAX_BODY_BYTES ? Buffer.concat(chunks).toString('utf8') : null }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
