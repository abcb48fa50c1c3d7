/**
 * From the core's chat messages and tool specs to node-llama-cpp's chat history and function
 * definitions. The model's own chat template (read from the GGUF by node-llama-cpp) renders
 * them; tool results are attached to the call that asked for them, as node-llama-cpp expects.
 */
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions, ChatModelResponse, GbnfJsonSchema } from 'node-llama-cpp';
import type { ChatMessage, ContentPart, JsonSchema, ToolSpec } from '../../core/ports/index.js';

function userText(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? p.text : '[image omitted: this model reads text only]')).join('\n');
}

function parseArguments(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** The history to continue: ends with a model response (empty, or holding tool calls and results). */
export function toChatHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  const items: ChatHistoryItem[] = [];
  const callsById = new Map<string, ChatModelFunctionCall>();
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        items.push({ type: 'system', text: m.content });
        break;
      case 'user':
        items.push({ type: 'user', text: userText(m.content) });
        break;
      case 'assistant': {
        const response: ChatModelResponse['response'] = [];
        if (m.content) response.push(m.content);
        for (const call of m.toolCalls ?? []) {
          const item: ChatModelFunctionCall = { type: 'functionCall', name: call.name, params: parseArguments(call.arguments), result: null };
          callsById.set(call.id, item);
          response.push(item);
        }
        // Consecutive assistant messages of one turn (text, then tool calls) form one response.
        const last = items[items.length - 1];
        if (last?.type === 'model') last.response.push(...response);
        else items.push({ type: 'model', response });
        break;
      }
      case 'tool': {
        const call = callsById.get(m.toolCallId);
        if (call) call.result = m.content;
        else items.push({ type: 'user', text: `Result of ${m.name}: ${m.content}` });
        break;
      }
    }
  }
  if (items[items.length - 1]?.type !== 'model') items.push({ type: 'model', response: [] });
  return items;
}

export function toFunctions(tools: ToolSpec[]): ChatModelFunctions {
  const out: Record<string, { description: string; params: GbnfJsonSchema }> = {};
  for (const t of tools) out[t.name] = { description: t.description, params: toGrammarSchema(t.parameters) };
  return out;
}

const STRING_FORMATS = new Set(['date', 'time', 'date-time']);

/**
 * The part of a JSON Schema that node-llama-cpp turns into a grammar: types, properties,
 * items, enum/const, oneOf/anyOf, $defs/$ref, and the length and count bounds. Other keywords
 * (pattern, minimum, …) are dropped: the grammar is then a little looser than the schema, and
 * the caller validates the result as it does for any model output.
 */
export function toGrammarSchema(schema: JsonSchema): GbnfJsonSchema {
  return convert(schema) as GbnfJsonSchema;
}

function convert(node: unknown): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return {};
  const s = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (typeof s.description === 'string') out.description = s.description;
  if (typeof s.$ref === 'string') return { ...out, $ref: s.$ref };
  if (s.$defs && typeof s.$defs === 'object') out.$defs = mapValues(s.$defs as Record<string, unknown>);
  if ('const' in s) return { ...out, const: s.const };
  if (Array.isArray(s.enum)) return { ...out, enum: s.enum };
  const alternatives = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : null;
  if (alternatives) return { ...out, oneOf: alternatives.map(convert) };
  const type = s.type;
  if (Array.isArray(type)) {
    const types = type as unknown[];
    const simple = types.filter((t) => typeof t === 'string' && ['string', 'number', 'integer', 'boolean', 'null'].includes(t));
    if (simple.length === types.length) return { ...out, type: simple };
    return { ...out, oneOf: types.map((t) => convert({ ...s, type: t })) };
  }
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      out.type = 'object';
      out.properties = mapValues(props);
      if (Array.isArray(s.required)) out.required = s.required.filter((r) => typeof r === 'string' && r in props);
      if (typeof s.additionalProperties === 'object' && s.additionalProperties !== null) out.additionalProperties = convert(s.additionalProperties);
      else if (Object.keys(props).length === 0 && s.additionalProperties !== false) out.additionalProperties = true;
      return out;
    }
    case 'array':
      out.type = 'array';
      if (s.items && typeof s.items === 'object') out.items = convert(s.items);
      if (Array.isArray(s.prefixItems)) out.prefixItems = s.prefixItems.map(convert);
      for (const k of ['minItems', 'maxItems'] as const) if (typeof s[k] === 'number') out[k] = s[k];
      return out;
    case 'string':
      out.type = 'string';
      if (typeof s.format === 'string' && STRING_FORMATS.has(s.format)) return { ...out, format: s.format };
      for (const k of ['minLength', 'maxLength'] as const) if (typeof s[k] === 'number') out[k] = s[k];
      return out;
    case 'number':
    case 'integer':
    case 'boolean':
    case 'null':
      return { ...out, type };
    default:
      // No type: any JSON value.
      return { ...out, oneOf: [{ type: ['string', 'number', 'boolean', 'null'] }, { type: 'array' }, { type: 'object', properties: {}, additionalProperties: true }] };
  }
}

function mapValues(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, convert(v)]));
}
