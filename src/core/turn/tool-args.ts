/**
 * Tolerant parsing of tool-call arguments from local models: code fences, trailing commas,
 * a JSON object embedded in prose, or an empty string for a tool without parameters.
 */
export type ParsedArgs = { ok: true; value: unknown } | { ok: false; error: string };

export function parseToolArguments(raw: string): ParsedArgs {
  const text = raw.trim();
  if (text === '') return { ok: true, value: {} };
  const attempts = [text];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  if (fenced) attempts.push(fenced[1]!.trim());
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start >= 0 && end > start) attempts.push(text.slice(start, end + 1));
  for (const candidate of attempts) {
    for (const variant of [candidate, candidate.replace(/,\s*([}\]])/g, '$1')]) {
      try {
        let value: unknown = JSON.parse(variant);
        // Some servers double-encode: "{\"query\": …}"
        if (typeof value === 'string' && value.trim().startsWith('{')) value = JSON.parse(value);
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { ok: true, value };
      } catch {
        // try the next variant
      }
    }
  }
  return { ok: false, error: `arguments are not a JSON object: ${text.slice(0, 200)}` };
}
