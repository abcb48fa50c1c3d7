/**
 * A model lane as the doctor sees it: which server and model, local or hosted and why.
 * The chat lane answers; the memory lane writes permanent memory and must be local. Until the
 * memory lane has its own settings, it is the chat model when that one is local.
 */
import { isLocalHost, type Config } from '../config.js';

export interface Lane {
  /** `chat` or `memory`. */
  name: string;
  /** Prefix of the settings that configure it, for fixes: `LLM` or `MEMORY_LLM`. */
  env: string;
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
  local: boolean;
  localWhy: string;
  acceptsImages: boolean;
  timeoutMs: number;
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
  return isLocalHost(host)
    ? { local: true, why: `${host} is a loopback or private address (${env}_LOCALITY=auto)` }
    : { local: false, why: `${host} is a public host (${env}_LOCALITY=auto)` };
}

export function chatLane(config: Config): Lane {
  const { local, why } = localityReason(config.LLM_BASE_URL, config.LLM_LOCALITY, 'LLM');
  return {
    name: 'chat',
    env: 'LLM',
    baseUrl: config.LLM_BASE_URL,
    model: config.LLM_MODEL,
    apiKey: config.LLM_API_KEY,
    local,
    localWhy: why,
    acceptsImages: config.LLM_ACCEPTS_IMAGES,
    timeoutMs: config.LLM_TIMEOUT_MS,
  };
}
