/**
 * A JSON Schema written the way a prompt shows a reply's shape:
 * `{"name": string, "aliases"?: [string], "evidence": {"message": number} | {"page": string}}`.
 * The prompt then cannot drift from the schema the reply is constrained and validated by.
 */
import type { JsonSchema } from '../ports/index.js';

export function shapeText(schema: JsonSchema): string {
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives)) return alternatives.map(shapeText).join(' | ');
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  switch (schema.type) {
    case 'object': {
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const props = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
      return `{${props.map(([key, value]) => `${JSON.stringify(key)}${required.has(key) ? '' : '?'}: ${shapeText(value)}`).join(', ')}}`;
    }
    case 'array':
      return `[${schema.items ? shapeText(schema.items as JsonSchema) : 'any'}]`;
    case 'integer':
    case 'number':
      return 'number';
    case 'string':
    case 'boolean':
      return schema.type;
    default:
      return 'any';
  }
}
