/**
 * Distillation: the model rewrites the summary, adds dated key decisions with their source,
 * and picks recent meaningful quotes — from the archive entries since the last run only.
 * The merge is deterministic; quotes must be words actually said. If the model fails or
 * returns garbage, nothing is written and the cursor stays, so the messages are distilled
 * next time. A hand edit made meanwhile wins over the model.
 */
import { z } from 'zod';
import type { ChatMessage, Decision, JsonSchema, LocalChatModel, LogEntry, Logger, MemoryLayers, NoteDraft, Quote, WriteOutcome } from './ports.js';
import { parseToolArguments } from './tool-args.js';
import { CharlieError } from './errors.js';

export class DistillError extends CharlieError {}

/** What distillation reads and writes: a Markdown project or a private (SQLite) conversation. */
export interface DistillTarget {
  label: string;
  pending(): Promise<{ entries: LogEntry[]; commit(): Promise<void> }>;
  readLayers(): Promise<{ layers: MemoryLayers; versions: Record<string, string> }>;
  writeLayers(layers: MemoryLayers, versions: Record<string, string>): Promise<WriteOutcome>;
  /** Entity pages; absent for private conversations. */
  saveEntity?(draft: NoteDraft): Promise<void>;
}

export const MAX_QUOTES = 12;
const MAX_MESSAGE_CHARS = 1500;

const index = z.coerce.number().int().min(1);
const replySchema = z.object({
  summary: z.string(),
  decisions: z.array(z.object({ text: z.string().min(3), message: index })).default([]),
  quotes: z.array(z.object({ text: z.string().min(3), message: index })).default([]),
  entities: z
    .array(z.object({ title: z.string().min(1).max(120), category: z.string().max(60).optional(), facts: z.string().min(3) }))
    .default([]),
});
type DistillReply = z.infer<typeof replySchema>;

/**
 * The reply's shape as a JSON Schema, for grammar-constrained generation. Lengths and counts
 * are bounded so a constrained reply always finishes well inside the token limit.
 */
export function distillJsonSchema(withEntities: boolean): JsonSchema {
  const cited = (maxItems: number) => ({
    type: 'array',
    maxItems,
    items: { type: 'object', properties: { text: { type: 'string', minLength: 3, maxLength: 200 }, message: { type: 'integer' } }, required: ['text', 'message'] },
  });
  const properties: Record<string, unknown> = { summary: { type: 'string', minLength: 1, maxLength: 1500 }, decisions: cited(5), quotes: cited(3) };
  if (withEntities) {
    properties.entities = {
      type: 'array',
      maxItems: 5,
      items: {
        type: 'object',
        properties: { title: { type: 'string', minLength: 1, maxLength: 120 }, category: { enum: ['People', 'Places', 'Topics', 'Things'] }, facts: { type: 'string', minLength: 3, maxLength: 300 } },
        required: ['title', 'category', 'facts'],
      },
    };
  }
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

export function distillPrompt(layers: MemoryLayers, entries: LogEntry[], withEntities: boolean): ChatMessage[] {
  const numbered = entries
    .map((e, i) => {
      const text = e.text.length > MAX_MESSAGE_CHARS ? `${e.text.slice(0, MAX_MESSAGE_CHARS)} …` : e.text;
      return `[${i + 1}] ${e.time.slice(0, 16).replace('T', ' ')} ${e.speaker}${e.role === 'assistant' ? ' (assistant)' : ''}: ${text}`;
    })
    .join('\n');
  const system = [
    'You maintain the long-term memory of a conversation. Reply with ONE JSON object and nothing else:',
    '{"summary": string, "decisions": [{"text": string, "message": number}], "quotes": [{"text": string, "message": number}]' +
      (withEntities ? ', "entities": [{"title": string, "category": "People"|"Places"|"Topics"|"Things", "facts": string}]' : '') +
      '}',
    '- summary: rewrite the whole summary (at most ~200 words) so it covers the old summary plus the new messages: goals, state, open questions.',
    '- decisions: only NEW decisions or commitments made in the new messages (not ones already listed), each with the number of the message that made it. Usually none.',
    '- quotes: at most 3 short, meaningful sentences copied word for word from the new messages of people (not the assistant), with the message number.',
    ...(withEntities ? ['- entities: people, places or things the new messages say something lasting about, with those facts in one or two sentences. Usually few or none.'] : []),
    'Use only what the messages say. Empty arrays are fine.',
  ].join('\n');
  const user = [
    `Current summary:\n${layers.summary.trim() || '(empty)'}`,
    `Decisions already recorded:\n${layers.decisions.map((d) => `- ${d.date}: ${d.text}`).join('\n') || '(none)'}`,
    `New messages:\n${numbered}`,
  ].join('\n\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

function norm(text: string): string {
  return text
    .toLowerCase()
    .replace(/[“”"'‘’`]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function parseDistillReply(raw: string): DistillReply {
  const parsed = parseToolArguments(raw);
  // The reply may restate private messages: its text never goes into the error (logged at info).
  if (!parsed.ok) throw new DistillError(`distillation reply is not JSON (${raw.length} characters of prose; the reply is logged at debug)`);
  const reply = replySchema.safeParse(parsed.value);
  if (!reply.success) throw new DistillError(`distillation reply does not fit the schema: ${reply.error.issues.map((i) => i.message).join('; ')}`);
  if (!reply.data.summary.trim()) throw new DistillError('distillation reply has an empty summary');
  return reply.data;
}

/** Deterministic merge of a reply into layers; `keepSummary` when a person edited it meanwhile. */
export function mergeLayers(current: MemoryLayers, reply: DistillReply, entries: LogEntry[], keepSummary = false): MemoryLayers {
  const at = (n: number): LogEntry | undefined => entries[n - 1];
  const seen = new Set(current.decisions.map((d) => norm(d.text)));
  const decisions: Decision[] = [...current.decisions];
  for (const d of reply.decisions) {
    const entry = at(d.message);
    if (!entry || seen.has(norm(d.text))) continue;
    seen.add(norm(d.text));
    decisions.push({ date: entry.time.slice(0, 10), text: d.text.trim(), source: entry.source });
  }
  const quotes: Quote[] = [...current.quotes];
  const quoted = new Set(quotes.map((q) => norm(q.text)));
  for (const q of reply.quotes) {
    const entry = at(q.message);
    // A quote must be words that were actually said, by a person, in that message.
    if (!entry || entry.role !== 'user' || !norm(entry.text).includes(norm(q.text)) || quoted.has(norm(q.text))) continue;
    quoted.add(norm(q.text));
    quotes.push({ date: entry.time.slice(0, 10), speaker: entry.speaker, text: q.text.trim().replace(/^["“]|["”]$/g, ''), source: entry.source });
  }
  return {
    summary: keepSummary ? current.summary : reply.summary.trim(),
    decisions,
    quotes: quotes.slice(-MAX_QUOTES),
  };
}

export interface DistillDeps {
  model: LocalChatModel;
  logger: Logger;
}

/** Runs one distillation of a target. Returns how many messages were distilled. */
export async function distill(target: DistillTarget, deps: DistillDeps, signal?: AbortSignal): Promise<number> {
  const { entries, commit } = await target.pending();
  if (entries.length === 0) return 0;
  const before = await target.readLayers();
  let text = '';
  const withEntities = !!target.saveEntity;
  const request = { messages: distillPrompt(before.layers, entries, withEntities), json: true, jsonSchema: distillJsonSchema(withEntities), temperature: 0.2, signal };
  for await (const chunk of deps.model.stream(request)) {
    if (chunk.type === 'text') text += chunk.text;
  }
  deps.logger.debug({ target: target.label, reply: text }, 'distillation reply');
  const reply = parseDistillReply(text);
  let outcome = await target.writeLayers(mergeLayers(before.layers, reply, entries), before.versions);
  if (!outcome.ok && outcome.reason === 'conflict') {
    // Someone edited the memory by hand while we were thinking: merge onto their version.
    const fresh = await target.readLayers();
    const humanEditedSummary = fresh.layers.summary.trim() !== before.layers.summary.trim();
    outcome = await target.writeLayers(mergeLayers(fresh.layers, reply, entries, humanEditedSummary), fresh.versions);
  }
  if (!outcome.ok) throw new DistillError(`memory not written (${outcome.reason}): ${outcome.message}`);
  if (target.saveEntity) {
    for (const e of reply.entities.slice(0, 5)) {
      const source = entries[entries.length - 1]!.source;
      await target.saveEntity({ title: e.title, category: e.category, body: e.facts, source }).catch((err: unknown) => {
        deps.logger.warn({ target: target.label, err: String(err) }, 'entity page not saved');
      });
    }
  }
  await commit();
  deps.logger.info({ target: target.label, messages: entries.length, decisions: reply.decisions.length, quotes: reply.quotes.length }, 'distilled');
  return entries.length;
}
