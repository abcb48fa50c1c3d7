/**
 * Distillation: the model rewrites the summary, adds dated key decisions with their source,
 * and picks recent meaningful quotes — from the archive entries since the last run only.
 * A long backlog is distilled in batches that fit the model (smaller ones when the model says
 * its context is too small), and the cursor moves after each batch. The reply is validated
 * item by item: valid items are kept, the rest logged and dropped. The merge is deterministic;
 * quotes must be words actually said. If the model fails or returns no usable summary, nothing
 * is written for that batch and its messages are distilled next time. A hand edit made
 * meanwhile wins over the model.
 */
import { z } from 'zod';
import { systemClock } from '../ports/index.js';
import type {
  ChatMessage,
  Clock,
  Decision,
  GraphWrite,
  GraphWriteReport,
  JsonSchema,
  LocalChatModel,
  LogEntry,
  Logger,
  MemoryLayers,
  PageMapEntry,
  PageMapRequest,
  Quote,
  WriteOutcome,
} from '../ports/index.js';
import { gateContext, gateWrite, type GateSources } from './promotion.js';
import { type CandidateStore } from '../records/candidates.js';
import { graphInstructions, graphReply, replyJsonSchema, pageMapText, toGraphWrite, type GraphItems, type Speaker } from './graph-distill.js';
import { parseToolArguments } from '../turn/tool-args.js';
import { shapeText } from './json-shape.js';
import { capped, list, validItems } from './reply-items.js';
import { CharlieError, ModelError } from '../errors.js';
import { classifyText, formatSensitivity, isSensitive, labelOf, markedSensitivity, strictest, type SensitivityValue } from '../privacy/sensitivity.js';
import { MAX_VERDICTS, raisedLabels, VERDICT_INSTRUCTION, verdictItem, verdictList, withRaised, type RaisedLabel, type VerdictItem } from './sensitivity-verdict.js';

export class DistillError extends CharlieError {}

/** What distillation reads and writes: a Markdown project or a private (SQLite) conversation. */
export interface DistillTarget {
  label: string;
  /** The entries waiting; `commit(n)` marks the first `n` of them distilled. */
  pending(): Promise<{ entries: LogEntry[]; commit: (count: number) => Promise<void> }>;
  readLayers(): Promise<{ layers: MemoryLayers; versions: Record<string, string> }>;
  /** `distilled`: how many of the pending entries these layers cover (a target may move its cursor with them). */
  writeLayers(layers: MemoryLayers, versions: Record<string, string>, distilled: number): Promise<WriteOutcome>;
  /** The knowledge graph (page map and writes); a private conversation's records, or absent: no entity facts. */
  graph?: DistillGraph;
  /** Stores the labels the memory lane's verdict raised (`index`: in the pending entries), where the messages are kept. */
  raiseLabels?(raised: readonly RaisedLabel[]): Promise<void>;
}

/** `known` and `lastReflection`: what the gate reads of the graph (promotion.ts GateSources). */
export interface DistillGraph extends Pick<GateSources, 'known' | 'lastReflection'> {
  taxonomy(): Promise<readonly string[]>;
  pageMap(request: PageMapRequest): Promise<PageMapEntry[]>;
  write(write: GraphWrite): Promise<GraphWriteReport>;
  /** Note pages recall finds for a text (paths like `notes/People/Ann.md`), best first; `tainted`: the text holds something labelled sensitive. */
  related(text: string, tainted?: boolean): Promise<string[]>;
  /** Where the promotion gate keeps what waits; absent = every valid fact is written (no gate). */
  candidates?: CandidateStore;
}

/** The graph the model is shown: the page map and the project's taxonomy. */
export interface GraphView {
  map: PageMapEntry[];
  taxonomy: readonly string[];
}

export const MAX_QUOTES = 12;
const MAX_MESSAGE_CHARS = 1500;

const index = z.coerce.number().int().min(1);
/** The one set of bounds of a reply's summary, decisions and quotes (zod, JSON Schema and prompt read them). llama.cpp refuses a grammar with a 2000-character string: keep the summary at 1500. */
export const DISTILL_BOUNDS = { summaryChars: 1500, decisions: 5, quotes: 3, itemChars: 300 } as const;
const cited = z.object({ text: z.string().trim().min(3).max(DISTILL_BOUNDS.itemChars), message: index });
const decisionItem = cited;
const quoteItem = cited;
const summaryText = z.string().trim().min(1).max(DISTILL_BOUNDS.summaryChars);
const layersReply = z.object({
  summary: summaryText,
  decisions: z.array(decisionItem).max(DISTILL_BOUNDS.decisions),
  quotes: z.array(quoteItem).max(DISTILL_BOUNDS.quotes),
});
export interface DistillReply {
  /** null: the model gave no usable summary (the current one is kept). */
  summary: string | null;
  decisions: z.infer<typeof decisionItem>[];
  quotes: z.infer<typeof quoteItem>[];
  /** The messages the model judged sensitive (sensitivity-verdict.ts); absent or empty: none. */
  sensitive?: VerdictItem[];
  /** The verdict is a list with every item valid and none beyond the cap: the lane judged every message (it may settle a provisional label). */
  verdictWhole?: boolean;
  /** Graph mode: entities, facts and links as given, validated one by one in toGraphWrite. */
  graph: GraphItems;
}

/**
 * The reply's shape as a JSON Schema, for grammar-constrained generation, derived from the zod
 * schemas that validate it. Lengths and counts are bounded so a constrained reply always
 * finishes well inside the token limit.
 */
export function distillJsonSchema(graph = false): JsonSchema {
  const layers = layersReply.extend({ sensitive: verdictList });
  return { ...replyJsonSchema(graph ? layers.extend(graphReply.shape) : layers), additionalProperties: false };
}

export function distillPrompt(layers: MemoryLayers, entries: LogEntry[], graph?: GraphView): ChatMessage[] {
  const numbered = entries.map((e, i) => `[${i + 1}] ${promptLine(e)}`).join('\n');
  const system = [
    'You maintain the long-term memory of a conversation. Reply with ONE JSON object and nothing else:',
    shapeText(distillJsonSchema(!!graph)),
    `- summary: rewrite the whole summary (at most ${DISTILL_BOUNDS.summaryChars} characters) so it covers the old summary plus the new messages: goals, state, open questions.`,
    `- decisions: only NEW decisions or commitments made in the new messages (not ones already listed), at most ${DISTILL_BOUNDS.decisions}, each with the number of the message that made it. Usually none.`,
    `- quotes: at most ${DISTILL_BOUNDS.quotes} short, meaningful sentences copied word for word from the new messages of people (not the assistant), with the message number.`,
    `- each decision and quote text: at most ${DISTILL_BOUNDS.itemChars} characters.`,
    VERDICT_INSTRUCTION,
    ...(graph ? graphInstructions(graph.taxonomy) : []),
    'Use only what the messages say. Empty arrays are fine.',
  ].join('\n');
  const user = [
    `Current summary:\n${layers.summary.trim() || '(empty)'}`,
    `Decisions already recorded:\n${layers.decisions.map((d) => `- ${d.date}: ${d.text}`).join('\n') || '(none)'}`,
    ...(graph ? [pageMapText(graph.map)] : []),
    `New messages:\n${numbered}`,
  ].join('\n\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

function promptLine(e: LogEntry): string {
  const text = e.text.length > MAX_MESSAGE_CHARS ? `${e.text.slice(0, MAX_MESSAGE_CHARS)} …` : e.text;
  return `${e.time.slice(0, 16).replace('T', ' ')} ${e.speaker}${e.role === 'assistant' ? ' (assistant)' : ''}: ${text}`;
}

/** How many entries from `from` fit in `maxChars` of prompt (at least one). */
export function batchSize(entries: readonly LogEntry[], from: number, maxChars: number): number {
  let used = 0;
  let n = 0;
  for (let i = from; i < entries.length; i++) {
    const entry = entries[i];
    if (!entry) break;
    used += promptLine(entry).length + 8;
    if (n > 0 && used > maxChars) break;
    n++;
  }
  return n;
}

function norm(text: string): string {
  return text
    .toLowerCase()
    .replace(/[“”"'‘’`]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Validates a distillation reply item by item. Throws only when the reply is not a JSON object
 * at all; an unusable summary becomes null and bad items are dropped (listed in `dropped`).
 */
export function parseDistillReply(raw: string, graph = false): { reply: DistillReply; dropped: string[] } {
  const parsed = parseToolArguments(raw);
  // The reply may restate private messages: its text never goes into the error (logged at info).
  if (!parsed.ok) throw new DistillError(`distillation reply is not JSON (${raw.length} characters of prose; the reply is logged at debug)`);
  const value = parsed.value as Record<string, unknown>;
  const dropped: string[] = [];
  const parsedSummary = summaryText.safeParse(value.summary);
  const summary = parsedSummary.success ? parsedSummary.data : null;
  if (summary === null)
    dropped.push(
      value.summary === undefined || (typeof value.summary === 'string' && !value.summary.trim()) ? 'summary: missing or empty' : `summary: ${parsedSummary.error?.issues[0]?.message ?? 'not text'}`,
    );
  const reply: DistillReply = {
    summary,
    decisions: capped(validItems(value.decisions, decisionItem, 'decisions', dropped), DISTILL_BOUNDS.decisions, 'decisions', dropped),
    quotes: capped(validItems(value.quotes, quoteItem, 'quotes', dropped), DISTILL_BOUNDS.quotes, 'quotes', dropped),
    // untrusted like the rest: an invalid item is dropped, a missing list is none (it can only raise a label)
    sensitive: capped(validItems(value.sensitive, verdictItem, 'sensitive', dropped), MAX_VERDICTS, 'sensitive', dropped),
    // whole: a list with nothing of it dropped (no invalid item, none beyond the cap)
    verdictWhole: Array.isArray(value.sensitive) && !dropped.some((d) => d.startsWith('sensitive')),
    graph: graph ? { entities: list(value.entities), facts: list(value.facts), links: list(value.links) } : { entities: [], facts: [], links: [] },
  };
  return { reply, dropped };
}

/**
 * Deterministic merge of a reply into layers; `keepSummary` when a person edited it meanwhile.
 * Items that cite a message outside the batch, and quotes that are not a person's words in the
 * message they cite, are left out and listed in `dropped` (by position, never by their text:
 * the reply may restate private messages). Repeats of kept items are skipped silently.
 */
/** `text` with the strictest label of the entries it was made from (and `also`) as a marker, when that is sensitive and the text has none. */
function carryLabel(text: string, from: readonly LogEntry[], also: SensitivityValue | null = null, sep = ' '): string {
  const label = from.reduce<SensitivityValue | null>((best, e) => strictest(best, labelOf(e)), also);
  if (!text || !isSensitive(label) || isSensitive(markedSensitivity(text))) return text;
  return `${text}${sep}[sensitivity:: ${formatSensitivity(label!)}]`;
}

export function mergeLayers(current: MemoryLayers, reply: DistillReply, entries: LogEntry[], keepSummary = false, dropped: string[] = []): MemoryLayers {
  const at = (n: number): LogEntry | undefined => entries[n - 1];
  // what the model was shown besides the batch: the summary and the decisions already recorded (a new decision may restate them)
  const shown = current.decisions.reduce<SensitivityValue | null>((best, d) => strictest(best, markedSensitivity(d.text)), markedSensitivity(current.summary));
  const seen = new Set(current.decisions.map((d) => norm(d.text)));
  const decisions: Decision[] = [...current.decisions];
  for (const [i, d] of reply.decisions.entries()) {
    const entry = at(d.message);
    if (!entry) dropped.push(`decisions[${String(i)}]: cites message ${String(d.message)}, which is not in this batch of ${String(entries.length)}`);
    if (!entry || seen.has(norm(d.text))) continue;
    seen.add(norm(d.text));
    // a decision is the model's reading of the whole batch and of the layers it was shown, whichever message it cites (a
    // model may cite the harmless neighbour of the sensitive message it restates): it carries their strictest label and its own words'
    decisions.push({ date: entry.time.slice(0, 10), text: carryLabel(d.text.trim(), entries, strictest(classifyText(d.text), shown)), source: entry.source });
  }
  const quotes: Quote[] = [...current.quotes];
  const quoted = new Set(quotes.map((q) => norm(q.text)));
  for (const [i, q] of reply.quotes.entries()) {
    const entry = at(q.message);
    // A quote must be words that were actually said, by a person, in that message.
    const said = !!entry && entry.role === 'user' && norm(entry.text).includes(norm(q.text));
    if (!said) dropped.push(`quotes[${String(i)}]: not the words of a person in message ${String(q.message)}`);
    if (!entry || !said || quoted.has(norm(q.text))) continue;
    quoted.add(norm(q.text));
    quotes.push({ date: entry.time.slice(0, 10), speaker: entry.speaker, text: carryLabel(q.text.trim().replace(/^["“]|["”]$/g, ''), [entry]), source: entry.source });
  }
  // a summary rewritten from a sensitive message (or from a summary marked so) carries that label as a line of its own
  const rewritten = reply.summary === null ? '' : reply.summary.trim();
  const summary = keepSummary || reply.summary === null ? current.summary : carryLabel(rewritten, entries, markedSensitivity(current.summary), '\n\n');
  return {
    summary,
    decisions,
    quotes: quotes.slice(-MAX_QUOTES),
  };
}

export interface DistillDeps {
  model: LocalChatModel;
  logger: Logger;
  /** Characters of messages per batch (about); a batch the model finds too long is halved. */
  batchChars: number;
  /** Speaker name → Discord id, for the speakers' own pages. */
  speakerIds?: ReadonlyMap<string, string>;
  /** The promotion gate's "now" (recency, expiry). */
  clock?: Clock;
}

function speakersOf(entries: LogEntry[], ids: ReadonlyMap<string, string> | undefined): Speaker[] {
  const names = [...new Set(entries.filter((e) => e.role === 'user').map((e) => e.speaker))];
  return names.map((name) => {
    const id = ids?.get(name);
    // a message from the web app (source `web:…`) names its speaker by their web sign-in
    const web = entries.some((e) => e.role === 'user' && e.speaker === name && e.source.startsWith('web:'));
    return { name, ...(id ? { discordId: id } : {}), ...(web ? { webUser: name } : {}) };
  });
}

/** The deterministic part before the model call: the page map (speakers, names, recall) and the taxonomy. */
export async function graphView(graph: DistillGraph, entries: LogEntry[], speakers: Speaker[]): Promise<GraphView> {
  const texts = entries.map((e) => e.text);
  // made from labelled messages, the question gets no hosted vector (the distillation lane is local; the embedder may not be)
  const related = await graph
    .related(
      texts.join('\n').slice(0, 2000),
      entries.some((e) => isSensitive(labelOf(e))),
    )
    .catch(() => []);
  const [map, taxonomy] = await Promise.all([graph.pageMap({ texts, speakers, related }), graph.taxonomy()]);
  return { map, taxonomy };
}

/**
 * Distils everything pending, batch by batch; `signal` bounds the whole run. Returns how many
 * messages were distilled. A failure keeps what earlier batches wrote and throws.
 */
export async function distill(target: DistillTarget, deps: DistillDeps, signal?: AbortSignal): Promise<number> {
  const { entries, commit } = await target.pending();
  let done = 0;
  let limit = deps.batchChars;
  let maxEntries = entries.length;
  const raised: RaisedLabel[] = [];
  try {
    while (done < entries.length) {
      const size = Math.min(maxEntries, batchSize(entries, done, limit));
      const batch = entries.slice(done, done + size);
      try {
        const from = done;
        raised.push(...(await distilBatch(target, batch, done + size, deps, signal)).map((r) => ({ ...r, index: r.index + from })));
      } catch (error) {
        if (error instanceof ModelError && error.kind === 'context_too_long' && size > 1) {
          maxEntries = Math.max(1, Math.floor(size / 2));
          limit = Math.max(1, Math.floor(limit / 2));
          deps.logger.warn({ target: target.label, messages: size, next: maxEntries }, 'a distillation batch was too long for the model; trying smaller batches');
          continue;
        }
        if (done > 0) deps.logger.warn({ target: target.label, distilled: done, waiting: entries.length - done }, 'distillation stopped part-way; the rest stays pending');
        throw error;
      }
      done += size;
      await commit(done);
    }
  } finally {
    // after the cursor moved (a label line changes the archive's byte offsets): the messages keep the labels the lane raised
    if (raised.length && target.raiseLabels) {
      await target.raiseLabels(raised).then(
        () => deps.logger.info({ target: target.label, count: raised.length }, 'the memory lane labelled messages the rules missed'),
        (err: unknown) => deps.logger.warn({ target: target.label, err, count: raised.length }, 'labels the memory lane raised were not stored'),
      );
    }
  }
  return done;
}

/** One batch; returns the labels the lane's verdict raised in it (`index` in the batch). */
async function distilBatch(target: DistillTarget, batch: LogEntry[], through: number, deps: DistillDeps, signal: AbortSignal | undefined): Promise<RaisedLabel[]> {
  let entries = batch;
  const before = await target.readLayers();
  const speakers = speakersOf(entries, deps.speakerIds);
  const view = target.graph ? await graphView(target.graph, entries, speakers) : undefined;
  let text = '';
  const request = { messages: distillPrompt(before.layers, entries, view), json: true, jsonSchema: distillJsonSchema(!!view), temperature: 0.2, signal };
  for await (const chunk of deps.model.stream(request)) {
    if (chunk.type === 'text') text += chunk.text;
  }
  deps.logger.debug({ target: target.label, reply: text }, 'distillation reply');
  const { reply, dropped } = parseDistillReply(text, !!view);
  if (dropped.length) deps.logger.warn({ target: target.label, dropped: dropped.slice(0, 20), count: dropped.length }, 'dropped invalid items of a distillation reply');
  // the stricter of rules and verdict: what this batch makes from a raised message carries its new label
  const raised = raisedLabels(batch, reply.sensitive ?? [], reply.verdictWhole === true);
  entries = withRaised(batch, raised);
  const graphItems = reply.graph.entities.length + reply.graph.facts.length + reply.graph.links.length;
  if (reply.summary === null && reply.decisions.length + reply.quotes.length + graphItems === 0) {
    throw new DistillError('distillation reply has nothing usable (no summary, no valid items)');
  }
  let ungrounded: string[] = [];
  let outcome = await target.writeLayers(mergeLayers(before.layers, reply, entries, false, ungrounded), before.versions, through);
  if (!outcome.ok && outcome.reason === 'conflict') {
    // Someone edited the memory by hand while we were thinking: merge onto their version.
    const fresh = await target.readLayers();
    const humanEditedSummary = fresh.layers.summary.trim() !== before.layers.summary.trim();
    ungrounded = [];
    outcome = await target.writeLayers(mergeLayers(fresh.layers, reply, entries, humanEditedSummary, ungrounded), fresh.versions, through);
  }
  if (!outcome.ok) throw new DistillError(`memory not written (${outcome.reason}): ${outcome.message}`);
  if (ungrounded.length) deps.logger.warn({ target: target.label, dropped: ungrounded.slice(0, 20), count: ungrounded.length }, 'dropped distillation items not grounded in the messages');
  if (target.graph) {
    const proposed = toGraphWrite(reply.graph, entries, speakers, 'distillation');
    for (const d of proposed.dropped) deps.logger.warn({ target: target.label, reason: d.reason }, 'memory item dropped');
    let write = proposed.write;
    const graph = target.graph;
    if (graph.candidates) {
      const ctx = await gateContext((deps.clock ?? systemClock).now(), { ...graph, map: view?.map ?? [], names: speakers.map((s) => s.name) });
      const gated = await gateWrite(write, entries, ctx, graph.candidates);
      write = gated.write;
      const r = gated.report;
      deps.logger.info({ target: target.label, promoted: r.promoted.length, waiting: r.waiting.length, rejected: r.rejected.length }, 'promotion gate');
    }
    const report = await graph.write(write);
    deps.logger.info(
      {
        target: target.label,
        created: report.created.length,
        updated: report.updated.length,
        facts: report.factsAdded,
        refreshed: report.factsRefreshed,
        links: report.linksAdded,
        refused: report.refused.length,
      },
      'knowledge graph updated',
    );
  }
  deps.logger.info({ target: target.label, messages: entries.length, decisions: reply.decisions.length, quotes: reply.quotes.length }, 'distilled');
  return raised;
}
