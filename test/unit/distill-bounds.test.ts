import { describe, expect, it } from 'vitest';
import { distillJsonSchema, distillPrompt, parseDistillReply } from '../../src/core/writing/distill.js';
import { toGraphWrite } from '../../src/core/writing/graph-distill.js';
import type { JsonSchema, LogEntry } from '../../src/core/ports/index.js';

type Node = JsonSchema & { properties: Record<string, Node>; items: Node; maxItems?: number; maxLength?: number };

const entries: LogEntry[] = [{ time: '2026-01-01T10:00:00Z', speaker: 'Ann', text: 'We booked the trip to Lisbon.', role: 'user', source: 'log/2026-01.md#1' }];
const schema = distillJsonSchema(true) as Node;
const system = distillPrompt({ summary: '', decisions: [], quotes: [] }, entries, { map: [], taxonomy: ['People'] })[0]!.content as string;

/** The numbers the prompt's line about `field` states, in order ("- facts (at most 16): … (at most 300 characters)"). */
function stated(field: string): number[] {
  const line = system.split('\n').find((l) => l.startsWith(`- ${field}`));
  expect(line, `the prompt has a line about ${field}`).toBeDefined();
  return [...line!.matchAll(/at most (\d+)/g)].map((m) => Number(m[1]));
}

describe('distillation reply bounds: one set for zod, the JSON Schema and the prompt', () => {
  it("the prompt states the JSON Schema's counts and lengths", () => {
    const p = schema.properties;
    expect(stated('summary')).toEqual([p.summary!.maxLength]);
    expect(stated('decisions')).toEqual([p.decisions!.maxItems]);
    expect(stated('quotes')).toEqual([p.quotes!.maxItems]);
    expect(stated('each decision and quote text')).toEqual([p.decisions!.items.properties.text!.maxLength]);
    expect(p.quotes!.items.properties.text!.maxLength).toBe(p.decisions!.items.properties.text!.maxLength);
    expect(stated('entities')).toEqual([p.entities!.maxItems]);
    expect(stated('facts')).toEqual([p.facts!.maxItems, p.facts!.items.properties.text!.maxLength]);
    expect(stated('links')).toEqual([p.links!.maxItems]);
  });

  it("the prompt's reply shape names every field of the schema, and marks the optional ones", () => {
    const shape = system.split('\n')[1]!;
    for (const key of Object.keys(schema.properties)) expect(shape).toContain(`"${key}": `);
    for (const key of Object.keys(schema.properties.facts!.items.properties)) expect(shape).toContain(`"${key}"`);
    expect(shape).toContain('"due"?: string');
    expect(shape).toContain('"text": string');
  });

  it('the validator holds the same bounds: too many or too long items are dropped, with why', () => {
    const max = schema.properties.quotes!.maxItems!;
    const long = 'x'.repeat(schema.properties.decisions!.items.properties.text!.maxLength! + 1);
    const quotes = Array.from({ length: max + 1 }, (_, i) => ({ text: `quote number ${i}`, message: 1 }));
    const { reply, dropped } = parseDistillReply(JSON.stringify({ summary: 'A trip.', decisions: [{ text: long, message: 1 }], quotes }), true);
    expect(reply.quotes).toHaveLength(max);
    expect(reply.decisions).toEqual([]);
    expect(dropped.some((d) => d.startsWith('decisions[0]'))).toBe(true);
    expect(dropped).toContain(`quotes: 1 beyond the ${max} a reply may hold`);
    const tooLongSummary = parseDistillReply(JSON.stringify({ summary: 's'.repeat(schema.properties.summary!.maxLength! + 1), decisions: [], quotes: [] }));
    expect(tooLongSummary.reply.summary).toBeNull();
  });

  it('a graph reply keeps at most the counts the schema allows', () => {
    const maxFacts = schema.properties.facts!.maxItems!;
    const facts = Array.from({ length: maxFacts + 2 }, (_, i) => ({ entity: 'Lisbon', text: `fact ${i}`, message: 1 }));
    const { write, dropped } = toGraphWrite({ entities: [], facts, links: [] }, entries, [], 'test');
    expect(write.entities.flatMap((e) => e.facts)).toHaveLength(maxFacts);
    expect(dropped.filter((d) => d.reason.startsWith('fact beyond'))).toHaveLength(2);
  });
});
