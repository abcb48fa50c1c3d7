/** A quick start-up check of the model server: does anything answer at LLM_BASE_URL? */
import { publicUrl } from './locality.js';

export type ProbeResult = { ok: true; models: string[] } | { ok: false; message: string };

export async function probeModelServer(baseUrl: string, apiKey: string | undefined, timeoutMs: number, fetchImpl: typeof fetch = fetch): Promise<ProbeResult> {
  const url = `${baseUrl.replace(/\/+$/, '')}/models`;
  try {
    const res = await fetchImpl(url, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) {
      // Some servers have no /models; an HTTP answer still means a server is there.
      return res.status === 401 || res.status === 403
        ? { ok: false, message: `the model server at ${publicUrl(baseUrl)} refused the key (${res.status}) — check LLM_API_KEY` }
        : { ok: true, models: [] };
    }
    const body = (await res.json().catch(() => ({}))) as { data?: { id?: string }[] };
    return { ok: true, models: (body.data ?? []).map((m) => m.id ?? '').filter(Boolean) };
  } catch {
    return { ok: false, message: `no model server at ${publicUrl(baseUrl)} — start LM Studio / Ollama or set LLM_BASE_URL` };
  }
}
