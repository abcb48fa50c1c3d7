/**
 * Our ChatRequest → the OpenAI `/chat/completions` request body (snake_case wire format).
 */
import type { ChatMessage, ChatRequest, ContentPart, ToolSpec } from '../core/ports/index.js';

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type WireMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ContentPart[]; name?: string }
  | { role: 'assistant'; content: string; tool_calls?: WireToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface WireRequest {
  model: string;
  messages: WireMessage[];
  stream: boolean;
  temperature?: number;
  max_tokens?: number;
  tools?: { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } }[];
  response_format?: { type: 'json_object' } | { type: 'json_schema'; json_schema: { name: string; schema: Record<string, unknown>; strict: boolean } };
}

export interface WireOptions {
  model: string;
  temperature: number;
  acceptsImages: boolean;
  /** Leave out response_format json_object (the server rejected it before). */
  jsonModeUnsupported: boolean;
  /** Ask for json_object instead of json_schema (the server rejected a schema before). */
  jsonSchemaUnsupported?: boolean;
}

export function toWireRequest(request: ChatRequest, options: WireOptions): WireRequest {
  const body: WireRequest = {
    model: options.model,
    messages: request.messages.map((m) => toWireMessage(m, options.acceptsImages)),
    stream: true,
    temperature: request.temperature ?? options.temperature,
  };
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  // no tool_choice: "auto" is the default, and vLLM rejects an explicit one unless started with --enable-auto-tool-choice
  if (request.tools?.length) body.tools = request.tools.map(toWireTool);
  if (request.jsonSchema && !options.jsonSchemaUnsupported) {
    body.response_format = { type: 'json_schema', json_schema: { name: 'reply', schema: request.jsonSchema, strict: false } };
  } else if ((request.json || request.jsonSchema) && !options.jsonModeUnsupported) body.response_format = { type: 'json_object' };
  return body;
}

export function toWireTool(tool: ToolSpec): NonNullable<WireRequest['tools']>[number] {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

export function toWireMessage(message: ChatMessage, acceptsImages: boolean): WireMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user': {
      const content = acceptsImages || typeof message.content === 'string' ? message.content : textOnly(message.content);
      return message.name ? { role: 'user', content, name: wireName(message.name) } : { role: 'user', content };
    }
    case 'assistant': {
      // '' rather than null: several local servers reject a null content
      const out: WireMessage = { role: 'assistant', content: message.content ?? '' };
      if (message.toolCalls?.length) {
        out.tool_calls = message.toolCalls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: historyArguments(c.arguments) },
        }));
      }
      return out;
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

/** A model that takes no images gets the text parts only. */
function textOnly(parts: ContentPart[]): string {
  return parts
    .filter((p): p is Extract<ContentPart, { type: 'text' }> => p.type === 'text')
    .map((p) => p.text)
    .join('\n');
}

/** OpenAI allows only [a-zA-Z0-9_-]{1,64} in `name`. */
function wireName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 64) || 'user';
}

/**
 * Arguments sent back in the history must be valid JSON: servers that render tools through a
 * chat template (llama.cpp, vLLM) parse them and answer 500 otherwise. Invalid raw arguments
 * (already reported to the model as a tool error) are replaced with `{}`.
 */
function historyArguments(raw: string): string {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value) ? raw : '{}';
  } catch {
    return '{}';
  }
}
