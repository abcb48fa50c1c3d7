/** Small HTTP helpers for the doctor's live checks: every request has a deadline and a signal. */
import { errorMessage } from '../util/error-text.js';
export interface HttpAnswer {
  status: number;
  contentType: string;
  text: string;
}

export function headers(apiKey: string | undefined, json = false): Record<string, string> {
  const h: Record<string, string> = {};
  if (apiKey) h.authorization = `Bearer ${apiKey}`;
  if (json) h['content-type'] = 'application/json';
  return h;
}

/** One request; a network failure throws (with the reason in `cause`), an HTTP error status does not. */
export async function request(url: string, init: RequestInit & { timeoutMs: number; signal: AbortSignal }): Promise<HttpAnswer> {
  const { timeoutMs, signal, ...rest } = init;
  const res = await fetch(url, { ...rest, signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Why a fetch failed, in words: refused, unknown host, timeout. */
export function networkReason(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : '';
  if (code === 'ECONNREFUSED') return 'connection refused (nothing listens there)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown host';
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'no answer in time';
  return errorMessage(cause);
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
