/**
 * A model lane as the doctor sees it: which server and model, local or hosted and why.
 * The chat lane answers; the memory lane writes permanent memory and must be local: its own
 * MEMORY_LLM_* settings, or the chat settings when those are local (config.memoryLane).
 */
import { isLocalHost, type Config } from '../config.js';
import { publicUrl } from '../llm/locality.js';

export interface Lane {
  /** `chat lane`, `memory lane` or `embedded model`: the start of its checks' names. */
  name: string;
  /** Prefix of the settings that configure it, for fixes: `LLM` or `MEMORY_LLM`. */
  env: string;
  baseUrl: string;
  /** `baseUrl` without credentials, for output and the kept results. */
  shownUrl: string;
  model: string;
  apiKey: string | undefined;
  local: boolean;
  localWhy: string;
  acceptsImages: boolean;
  timeoutMs: number;
  /** What answers instead when this server does not (LLM_PROVIDER=auto with an embedded model). */
  fallback?: string;
  /** Another way to get a model, added to the fix when no server answers. */
  otherWay?: string;
}

export function localityReason(baseUrl: string, setting: 'auto' | 'local' | 'hosted', env: string): { local: boolean; why: string } {
  let host = baseUrl;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    // keep the raw text
  }
  if (setting === 'local') return { local: true, why: `${env}_LOCALITY=local (you declared ${host} yours)` };
  if (setting === 'hosted') return { local: false, why: `${env}_LOCALITY=hosted` };
  return isLocalHost(host) ? { local: true, why: `${host} is a loopback or private address (${env}_LOCALITY=auto)` } : { local: false, why: `${host} is a public host (${env}_LOCALITY=auto)` };
}

export function chatLane(config: Config): Lane {
  const { local, why } = localityReason(config.LLM_BASE_URL, config.LLM_LOCALITY, 'LLM');
  return {
    name: 'chat lane',
    env: 'LLM',
    baseUrl: config.LLM_BASE_URL,
    shownUrl: publicUrl(config.LLM_BASE_URL),
    model: config.LLM_MODEL,
    apiKey: config.LLM_API_KEY,
    local,
    localWhy: why,
    acceptsImages: config.LLM_ACCEPTS_IMAGES,
    timeoutMs: config.LLM_TIMEOUT_MS,
  };
}

/** The memory lane as configured, or null when nothing may write memory (hosted chat, no MEMORY_LLM_BASE_URL). */
export function memoryLane(config: Config): Lane | null {
  const m = config.memoryLane;
  if (m === null) return null;
  const own = m.from === 'memory';
  const { local, why } = own ? localityReason(m.baseUrl, config.MEMORY_LLM_LOCALITY, 'MEMORY_LLM') : localityReason(m.baseUrl, config.LLM_LOCALITY, 'LLM');
  return {
    name: 'memory lane',
    env: own ? 'MEMORY_LLM' : 'LLM',
    baseUrl: m.baseUrl,
    shownUrl: publicUrl(m.baseUrl),
    model: m.model,
    apiKey: m.apiKey,
    local,
    localWhy: why,
    acceptsImages: false,
    timeoutMs: config.LLM_TIMEOUT_MS,
  };
}
