/**
 * Keeps model internals out of a channel: `<tool_call>` / `<think>` blocks (also unclosed ones
 * while streaming), chat-template special tokens, and raw tool-call JSON objects.
 */
import { scanJsonEnd } from '../core/writing/json-scan.js';

const BLOCKS = ['tool_call', 'tool_calls', 'function_call', 'tool_response', 'think', 'thinking'];
const SPECIAL_TOKEN = /<\|[a-z_]+\|>|\[\/?(?:TOOL_CALLS|TOOL_RESULTS|INST)\]/gi;
const TOOL_JSON_START = /\{\s*"(?:name|tool|function|tool_name)"\s*:\s*"[^"\n]{1,80}"\s*,\s*"(?:arguments|parameters|args|input)"\s*:/g;

export function cleanModelText(text: string): string {
  let out = text;
  for (const tag of BLOCKS) {
    out = out.replace(new RegExp(`<${tag}>[\\s\\S]*?</${tag}>`, 'gi'), '');
    out = out.replace(new RegExp(`<${tag}>[\\s\\S]*$`, 'i'), ''); // still streaming
    out = out.replace(new RegExp(`</?${tag}>`, 'gi'), '');
  }
  out = out.replace(SPECIAL_TOKEN, '');
  out = stripToolJson(out);
  out = out.replace(/```(?:json)?\s*```/g, '');
  return out.replace(/\n{3,}/g, '\n\n').trim();
}

function stripToolJson(text: string): string {
  let out = text;
  for (let guard = 0; guard < 20; guard++) {
    TOOL_JSON_START.lastIndex = 0;
    const m = TOOL_JSON_START.exec(out);
    if (!m) return out;
    const end = matchingBrace(out, m.index);
    out = out.slice(0, m.index) + (end < 0 ? '' : out.slice(end + 1));
  }
  return out;
}

/** Index of the brace closing the one at `start`, or -1 when the object is not closed (yet). */
function matchingBrace(text: string, start: number): number {
  const end = scanJsonEnd(text, start);
  return end < 0 ? -1 : end - 1;
}
