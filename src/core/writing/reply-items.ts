/**
 * A model's reply, item by item: each item of a list is checked with its schema and kept or
 * dropped on its own (listed in `dropped` by position, never by its text — a reply may restate
 * private messages). Distillation and reflection read their replies this way.
 */
import type { z } from 'zod';

/** Keeps the items of `raw` that fit `schema`; the others are counted in `dropped`. */
export function validItems<T>(raw: unknown, schema: z.ZodType<T>, field: string, dropped: string[]): T[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    dropped.push(`${field}: not a list`);
    return [];
  }
  const out: T[] = [];
  raw.forEach((item: unknown, i) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
    else dropped.push(`${field}[${i}]: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'item'} ${issue.message}`).join('; ')}`);
  });
  return out;
}

/** The first `max` items; the rest are listed in `dropped` (by count, never by text). */
export function capped<T>(items: T[], max: number, field: string, dropped: string[]): T[] {
  if (items.length > max) dropped.push(`${field}: ${items.length - max} beyond the ${max} a reply may hold`);
  return items.slice(0, max);
}

export function list(x: unknown): unknown[] {
  return Array.isArray(x) ? (x as unknown[]) : [];
}
