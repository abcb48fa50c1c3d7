/**
 * Parsing of tool calls that local models write inside their text: the JSON of a
 * `<tool_call>` block, a ```json fence, a leading bare object, or Mistral's `[TOOL_CALLS]`.
 */

import { scanJsonEnd } from '../core/writing/json-scan.js';

export interface ParsedCall {
  name: string;
  /** Raw argument text (JSON when the model gave an object). */
  arguments: string;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function argumentsText(value: unknown): string {
  if (value === undefined || value === null) return '{}';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** `{name, arguments|parameters}` or `{function: {name, arguments}}` → a call. */
function asCall(value: unknown, known: ReadonlySet<string> | null): ParsedCall | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const obj = value as Record<string, unknown>;
  const inner = obj.function && typeof obj.function === 'object' ? (obj.function as Record<string, unknown>) : obj;
  const name = inner.name;
  if (typeof name !== 'string' || name === '') return null;
  if (known && !known.has(name)) return null;
  const keys = Object.keys(inner).filter((k) => k !== 'name' && k !== 'id' && k !== 'type');
  const argKey = 'arguments' in inner ? 'arguments' : 'parameters' in inner ? 'parameters' : undefined;
  // with a known-name requirement (bare JSON), insist on the call shape, not any object with a name
  if (known && (!argKey || keys.length > 1)) return null;
  return { name, arguments: argumentsText(argKey ? inner[argKey] : undefined) };
}

/**
 * JSON text holding one call or an array of calls. With `known` set, every name must be a
 * known tool (used for fences and bare JSON, where an ordinary JSON answer is plausible).
 * Without it, broken JSON is recovered leniently: name by pattern, arguments passed raw.
 */
export function parseCallJson(text: string, known: ReadonlySet<string> | null): ParsedCall[] | null {
  const trimmed = text.trim();
  const value = tryJson(trimmed);
  if (value !== undefined) {
    const list = Array.isArray(value) ? value : [value];
    const calls = list.map((v) => asCall(v, known));
    if (calls.length === 0 || calls.some((c) => c === null)) return null;
    return calls as ParsedCall[];
  }
  if (known) return null;
  return lenientCall(trimmed);
}

function lenientCall(text: string): ParsedCall[] | null {
  const name = /"name"\s*:\s*"([^"]+)"/.exec(text)?.[1];
  if (!name) return null;
  const argMatch = /"(?:arguments|parameters)"\s*:\s*/.exec(text);
  if (!argMatch) return [{ name, arguments: '{}' }];
  let raw = text.slice(argMatch.index + argMatch[0].length).trimEnd();
  if (raw.endsWith('}')) raw = raw.slice(0, -1).trimEnd(); // the enclosing object's brace
  return [{ name, arguments: raw }];
}

/**
 * What follows `[TOOL_CALLS]`: a JSON array of calls (`[{"name":..,"arguments":..}]`), or the
 * newer `name[ARGS]{...}` form, possibly repeated with further `[TOOL_CALLS]` markers.
 * Returns the calls and any text after them, or null when it is not recognisable.
 */
export function parseMistralCalls(text: string): { calls: ParsedCall[]; rest: string } | null {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    const end = scanJsonEnd(trimmed, 0);
    if (end < 0) return null;
    const calls = parseCallJson(trimmed.slice(0, end), null);
    return calls ? { calls, rest: trimmed.slice(end) } : null;
  }
  const calls: ParsedCall[] = [];
  let rest = trimmed;
  for (;;) {
    const m = /^([\w.-]+)\[ARGS\]\s*/.exec(rest);
    if (!m) break;
    const after = rest.slice(m[0].length);
    const end = after.startsWith('{') || after.startsWith('[') ? scanJsonEnd(after, 0) : -1;
    if (end < 0) {
      calls.push({ name: m[1]!, arguments: after.trim() === '' ? '{}' : after.trim() });
      rest = '';
      break;
    }
    calls.push({ name: m[1]!, arguments: after.slice(0, end) });
    rest = after.slice(end).trimStart();
    if (rest.startsWith('[TOOL_CALLS]')) rest = rest.slice('[TOOL_CALLS]'.length).trimStart();
    else break;
  }
  return calls.length ? { calls, rest } : null;
}
