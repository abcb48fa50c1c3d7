/**
 * From the parsed configuration to chat-model options. The config decides locality
 * (`LLM_LOCALITY`, or `auto` from the host of `LLM_BASE_URL`, computed as `llmLocal`).
 */
import type { Locality, Logger } from '../core/ports/index.js';
import type { OpenAIChatModelOptions } from './openai-chat.js';

/** The subset of `Config` the chat model needs. */
export interface ChatModelSettings {
  LLM_BASE_URL: string;
  LLM_MODEL: string;
  LLM_API_KEY?: string | undefined;
  LLM_TIMEOUT_MS: number;
  LLM_CONNECT_TIMEOUT_MS: number;
  LLM_MAX_RETRIES: number;
  LLM_TEMPERATURE: number;
  LLM_ACCEPTS_IMAGES: boolean;
  LLM_MAX_TOKENS: number;
  llmLocal: boolean;
}

export function chatLocality(settings: { llmLocal: boolean }): Locality {
  return settings.llmLocal ? 'local' : 'hosted';
}

export function chatModelOptions(settings: ChatModelSettings, logger?: Logger): OpenAIChatModelOptions {
  const options: OpenAIChatModelOptions = {
    baseUrl: settings.LLM_BASE_URL,
    model: settings.LLM_MODEL,
    locality: chatLocality(settings),
    acceptsImages: settings.LLM_ACCEPTS_IMAGES,
    timeoutMs: settings.LLM_TIMEOUT_MS,
    connectTimeoutMs: settings.LLM_CONNECT_TIMEOUT_MS,
    maxRetries: settings.LLM_MAX_RETRIES,
    temperature: settings.LLM_TEMPERATURE,
    maxTokens: settings.LLM_MAX_TOKENS,
  };
  if (settings.LLM_API_KEY) options.apiKey = settings.LLM_API_KEY;
  if (logger) options.logger = logger;
  return options;
}
