/**
 * Conformance results kept per model under DATA_DIR (`conformance.json`), so start-up can say
 * "qwen2.5-7b: tools ok, JSON ok, 32k context" — a degraded model is visible without the doctor.
 * Derived and disposable like the rest of data/: the doctor writes it, nothing else.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '../files/atomic-write.js';
import { publicUrl } from '../llm/locality.js';

const recordSchema = z.object({
  model: z.string(),
  baseUrl: z.string(),
  checkedAt: z.string(),
  streaming: z.enum(['ok', 'ignored']).optional(),
  tools: z.enum(['ok', 'partial', 'none']).optional(),
  json: z.enum(['ok', 'schema', 'broken']).optional(),
  contextTokens: z.number().optional(),
  images: z.enum(['ok', 'no', 'off']).optional(),
});

export type ConformanceRecord = z.infer<typeof recordSchema>;

const fileSchema = z.object({ schema: z.literal(1), models: z.record(z.string(), recordSchema) });

export function conformanceFile(dataDir: string): string {
  return join(dataDir, 'conformance.json');
}

function key(model: string, baseUrl: string): string {
  return `${model}@${publicUrl(baseUrl)}`;
}

function readAll(dataDir: string): Record<string, ConformanceRecord> {
  try {
    const parsed = fileSchema.safeParse(JSON.parse(readFileSync(conformanceFile(dataDir), 'utf8')));
    return parsed.success ? parsed.data.models : {};
  } catch {
    return {};
  }
}

export function saveConformance(dataDir: string, record: ConformanceRecord): void {
  const models = { ...readAll(dataDir), [key(record.model, record.baseUrl)]: record };
  const file = conformanceFile(dataDir);
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomicSync(file, `${JSON.stringify({ schema: 1, models }, null, 2)}\n`);
}

export function loadConformance(dataDir: string, model: string, baseUrl: string): ConformanceRecord | undefined {
  return readAll(dataDir)[key(model, baseUrl)];
}

function contextWords(tokens: number | undefined): string | undefined {
  if (tokens === undefined) return undefined;
  return tokens >= 1024 ? `${String(Math.round(tokens / 1024))}k context` : `${String(tokens)}-token context`;
}

/** One line, e.g. "qwen2.5-7b: tools ok, JSON ok, 32k context, streaming ignored". */
export function conformanceSummary(record: ConformanceRecord): string {
  const words: string[] = [];
  if (record.tools !== undefined) words.push(record.tools === 'ok' ? 'tools ok' : record.tools === 'partial' ? 'tools partly' : 'NO tool calls');
  if (record.json !== undefined) words.push(record.json === 'ok' ? 'JSON ok' : record.json === 'schema' ? 'JSON off-schema' : 'BROKEN JSON');
  const context = contextWords(record.contextTokens);
  if (context !== undefined) words.push(context);
  if (record.streaming === 'ignored') words.push('streaming ignored');
  if (record.images === 'ok') words.push('images ok');
  if (record.images === 'no') words.push('images NOT understood');
  return `${record.model}: ${words.length > 0 ? words.join(', ') : 'not checked'} (npm run doctor, ${record.checkedAt.slice(0, 10)})`;
}

/** What start-up shows about the model: the last conformance result, or how to get one. */
export function conformanceStartLine(dataDir: string, model: string, baseUrl: string): string {
  const record = loadConformance(dataDir, model, baseUrl);
  return record ? conformanceSummary(record) : `${model}: not checked yet — \`npm run doctor\` tells whether it can call tools and return JSON`;
}
