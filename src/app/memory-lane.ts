/**
 * The memory lane's model, as the composition root builds it (only main.ts imports this). It is
 * built once from the start's settings and stays: changing the chat model in the web app swaps
 * only the chat lane, never the local model that writes memory.
 */
import type { Config } from '../config.js';
import { asLocalModel, type ChatModel, type LocalChatModel, type Logger } from '../core/ports/index.js';
import { chatModelOptions } from '../llm/chat-model-config.js';
import { EmbeddedChatModel } from '../llm/embedded/embedded-chat.js';
import { OpenAIChatModel } from '../llm/openai-chat.js';

/**
 * The memory lane's model: the chat model itself when the lane reuses the local chat settings,
 * or when the chat model is the embedded one (it runs here) and MEMORY_LLM_* names no other.
 */
export function memoryLaneModel(config: Config, chat: ChatModel, logger: Logger): LocalChatModel | null {
  const lane = config.memoryLane;
  if (chat instanceof EmbeddedChatModel && lane?.from !== 'memory') return chat;
  if (!lane) return null;
  if (lane.from === 'chat' && lane.model === config.LLM_MODEL) return asLocalModel(chat);
  const { apiKey: _chatKey, ...shared } = chatModelOptions(config);
  return new OpenAIChatModel<'local'>({
    ...shared,
    baseUrl: lane.baseUrl,
    model: lane.model,
    locality: 'local',
    acceptsImages: false,
    ...(lane.apiKey ? { apiKey: lane.apiKey } : {}),
    logger: logger.child({ component: 'memory-llm' }),
  });
}
