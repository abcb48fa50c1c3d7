/** A tool's definition for the model: its parameters as JSON Schema, converted once and never shared. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, toolSpec } from '../../src/core/tools/tool.js';

const tool = defineTool({
  name: 'find',
  description: 'Finds a thing.',
  category: 'memory',
  params: z.object({ query: z.string().min(1).describe('what to find'), limit: z.number().int().max(20).optional() }),
  execute: async () => ({ content: '', summary: '' }),
});

describe('toolSpec', () => {
  it('gives the parameters as JSON Schema without the $schema line', () => {
    const spec = toolSpec(tool);
    expect(spec).toMatchObject({ name: 'find', description: 'Finds a thing.' });
    expect(spec.parameters).toMatchObject({ type: 'object', required: ['query'], properties: { query: { type: 'string', minLength: 1 }, limit: { maximum: 20 } } });
    expect(spec.parameters).not.toHaveProperty('$schema');
  });

  it('a caller that changes one spec does not change the next', () => {
    const first = toolSpec(tool);
    (first.parameters as { properties: Record<string, unknown> }).properties.query = 'changed';
    expect(toolSpec(tool).parameters).toMatchObject({ properties: { query: { type: 'string' } } });
  });
});
