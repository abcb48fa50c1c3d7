/**
 * A fast reader for the plain subset of YAML that page front matter almost always uses:
 * `key: scalar`, `key: [a, b]`, `key:` followed by `  - item` lines, `# comments`. Anything
 * else (nested maps, anchors, block scalars, escapes, duplicate keys …) returns null, and the
 * caller parses with the full `yaml` library instead, which also reports errors. The `yaml`
 * library takes ~0.5 ms per page on a busy 2-core machine, too slow for 5,000 pages in under
 * a second; what this accepts it reads exactly as `yaml` (core schema) would.
 */

type Scalar = string | number;
export type SimpleValue = Scalar | Scalar[] | null;

const KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*?))?[ \t]*$/;
const ITEM = /^[ \t]+-[ \t]+(.*?)[ \t]*$/;
const PLAIN_SAFE = /^[^\s\-?:,[\]{}#&*!|>'"%@`][^#]*$/;

const CORE_TYPED = [
  /^[-+]?[0-9]+$/,
  /^0o[0-7]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/,
  /^[-+]?\.(inf|Inf|INF)$/,
  /^\.(nan|NaN|NAN)$/,
  /^(true|True|TRUE|false|False|FALSE|null|Null|NULL|~)$/,
];

function scalar(raw: string): Scalar | undefined {
  const text = raw.replace(/[ \t]+#.*$/, '');
  if (text.startsWith('"')) {
    const m = /^"([^"\\]*)"$/.exec(text);
    return m ? m[1] : undefined;
  }
  if (text.startsWith("'")) {
    const m = /^'([^']*)'$/.exec(text);
    return m ? m[1] : undefined;
  }
  if (/^-?(0|[1-9][0-9]{0,14})$/.test(text)) return Number(text);
  if (/^-?(0|[1-9][0-9]{0,14})\.[0-9]{1,6}$/.test(text)) return Number(text);
  // everything else the core schema would type (booleans, null, other numbers) goes to the full parser
  if (CORE_TYPED.some((re) => re.test(text))) return undefined;
  if (!PLAIN_SAFE.test(text) || /:(\s|$)/.test(text)) return undefined;
  return text;
}

function flowList(raw: string): Scalar[] | undefined {
  const inner = /^\[(.*)\]$/.exec(raw);
  if (!inner) return undefined;
  const body = inner[1]!;
  const out: Scalar[] = [];
  let i = 0;
  const skip = () => {
    while (body[i] === ' ' || body[i] === '\t') i++;
  };
  skip();
  while (i < body.length) {
    let end: number;
    if (body[i] === '"' || body[i] === "'") {
      end = body.indexOf(body[i]!, i + 1);
      if (end < 0) return undefined;
      end++;
    } else {
      end = body.indexOf(',', i);
      if (end < 0) end = body.length;
    }
    const v = scalar(body.slice(i, end).trim());
    if (v === undefined || (typeof v === 'string' && /[[\]{}#]/.test(v))) return undefined;
    out.push(v);
    i = end;
    skip();
    if (i < body.length) {
      if (body[i] !== ',') return undefined;
      i++;
      skip();
      if (i >= body.length) return undefined;
    }
  }
  return out;
}

/** The mapping, or null when the text needs the full YAML parser. */
export function parseSimpleYaml(yaml: string): Record<string, SimpleValue> | null {
  const out: Record<string, SimpleValue> = {};
  let listKey: string | null = null;
  for (const line of yaml.split(/\r?\n/)) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const item = ITEM.exec(line);
    if (item) {
      if (listKey === null) return null;
      const v = scalar(item[1]!);
      if (v === undefined) return null;
      const list = out[listKey];
      if (Array.isArray(list)) list.push(v);
      else out[listKey] = [v];
      continue;
    }
    const kv = KEY.exec(line);
    if (!kv || Object.prototype.hasOwnProperty.call(out, kv[1]!)) return null;
    const key = kv[1]!;
    const raw = kv[2] ?? '';
    listKey = null;
    if (raw === '' || raw.startsWith('#')) {
      out[key] = null;
      listKey = key;
      continue;
    }
    const value = raw.startsWith('[') ? flowList(raw) : scalar(raw);
    if (value === undefined) return null;
    out[key] = value;
  }
  return out;
}
