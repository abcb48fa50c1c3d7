/** Ports owned by the core: chat model. Adapters implement them; nothing here imports infrastructure. */
import type { Sensitivity } from '../privacy/sensitivity.js';

export type Locality = 'local' | 'hosted';

export type { Sensitivity };

export interface ToolCall {
  /** Provider-assigned id, or one we generate when the model gave none. */
  id: string;
  name: string;
  /** Raw argument text exactly as the model produced it (may not be valid JSON). */
  arguments: string;
}

export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ContentPart[]; name?: string }
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** JSON Schema of a tool's parameters (an object schema). */
export type JsonSchema = Record<string, unknown>;

export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  temperature?: number;
  maxTokens?: number;
  /** Ask for a JSON object reply (response_format json_object where supported). */
  json?: boolean;
  /**
   * Ask for JSON matching this schema: a grammar constrains the embedded model, so the reply
   * always parses (unless cut short by the token limit); the OpenAI-compatible client sends
   * response_format json_schema (LM Studio, llama.cpp server, vLLM, Ollama) and, where a server
   * refuses it, json_object, then the prompt alone — so the prompt must describe the JSON too.
   * The reply is still validated by the caller.
   */
  jsonSchema?: JsonSchema;
  signal?: AbortSignal;
}

/**
 * What a streaming completion yields. Tool calls are yielded whole, once their
 * arguments are complete (the adapter assembles deltas and recovers calls written
 * inside the text by models that do that).
 */
export type ChatChunk = { type: 'text'; text: string } | { type: 'tool_call'; call: ToolCall } | { type: 'done'; finishReason: string | null };

export interface ChatModel<L extends Locality = Locality> {
  /** e.g. "qwen2.5-7b-instruct@http://localhost:1234/v1" — never contains a key. */
  readonly id: string;
  readonly locality: L;
  /** Whether the model accepts image parts in user messages. */
  readonly acceptsImages: boolean;
  stream(request: ChatRequest): AsyncIterable<ChatChunk>;
}

/** The memory writer (distillation, reflection) accepts only a model that runs on the owner's machine. */
export type LocalChatModel = ChatModel<'local'>;

export function asLocalModel(model: ChatModel): LocalChatModel | null {
  return model.locality === 'local' ? (model as LocalChatModel) : null;
}
