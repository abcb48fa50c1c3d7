/**
 * Ingestion through the memory lane: the new items of a source file (calendar events, e-mails,
 * CSV rows, lines of text) become entities, facts and links in the knowledge graph, in batches.
 * Facts cite the source item (`inbox/calendar.ics#event-3`). Only a local model does this.
 */
import { batchBy } from './batches.js';
import type { DistillGraph } from './distill.js';
import { graphInstructions, graphReply, replyJsonSchema, pageMapText, toGraphWrite } from './graph-distill.js';
import { DistillError } from './distill.js';
import type { ChatMessage, LocalChatModel, LogEntry, Logger, PageMapEntry } from '../ports/index.js';
import { gateWrite, gateContext } from './promotion.js';
import { parseToolArguments } from '../turn/tool-args.js';
import { shapeText } from './json-shape.js';
import { formatSensitivity, isSensitive, parseSensitivity, sensitivityOfText, stricter } from '../privacy/sensitivity.js';
import { MAX_VERDICTS, raisedLabels, VERDICT_INSTRUCTION, verdictItem, verdictList, type VerdictItem } from './sensitivity-verdict.js';
import type { TextPrecheck } from '../turn/precheck.js';

export interface SourceItemInput {
  ref: string;
  text: string;
  date?: string;
  /** What the reader knows of the item (a bank export's rows are financial); the rules may add to it. */
  sensitivity?: string;
}

export interface IngestDeps {
  model: LocalChatModel;
  graph: DistillGraph;
  logger: Logger;
  now: Date;
  signal?: AbortSignal;
  /** The lane's word before the related-pages search (which a hosted embedder may answer) sees an item (core/turn/precheck.ts). */
  precheck?: TextPrecheck;
}

const BATCH_ITEMS = 30;

/** The reply: the graph, and the lane's verdict on which items are sensitive (sensitivity-verdict.ts). */
const ingestReply = graphReply.extend({ sensitive: verdictList });
const BATCH_CHARS = 8000;

function batches(items: SourceItemInput[]): SourceItemInput[][] {
  return batchBy(items, (item) => item.text.length, BATCH_CHARS, BATCH_ITEMS);
}

export function ingestPrompt(source: string, entries: LogEntry[], map: PageMapEntry[], taxonomy: readonly string[]): ChatMessage[] {
  const system = [
    `You add what a source file says to a long-term memory of people, places, organisations, events and topics. The source is ${source}. Reply with ONE JSON object and nothing else:`,
    shapeText(replyJsonSchema(ingestReply)),
    'Here "message" is the number of the source item in brackets.',
    ...graphInstructions(taxonomy),
    VERDICT_INSTRUCTION.replace("every new message (a person's or the assistant's)", 'every source item'),
    'Use only what the items say. Routine entries (a coffee purchase, an automated notification) usually give nothing lasting. Empty arrays are fine.',
  ].join('\n');
  const items = entries.map((e, i) => `[${i + 1}] ${e.text}`).join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: `${pageMapText(map)}\n\nSource items:\n${items}` },
  ];
}

/** Sends the items to the memory lane in batches and writes what it returns; returns the facts written or refreshed. */
export async function ingestItems(source: string, items: SourceItemInput[], deps: IngestDeps): Promise<{ facts: number }> {
  let facts = 0;
  for (const batch of batches(items)) {
    // each item as the rules and its reader label it: the lane's verdict can only raise that
    const labelled = batch.map((item) => stricter(item.sensitivity, sensitivityOfText(item.text)));
    // when something is hosted, the lane judges the items first: one it names is no part of the search's question, and stays labelled
    if (deps.precheck?.applies()) {
      const open = batch.map((_item, i) => i).filter((i) => !isSensitive(parseSensitivity(labelled[i])));
      const judged = await deps.precheck.labels(
        open.map((i) => batch[i]!.text),
        deps.signal,
      );
      open.forEach((i, n) => {
        if (isSensitive(judged[n])) labelled[i] = formatSensitivity(judged[n]!);
      });
    }
    const entries: LogEntry[] = batch.map((item, i) => ({
      time: item.date ?? deps.now.toISOString(),
      speaker: source,
      source: `${source}#${item.ref}`,
      text: item.text,
      role: 'user',
      ...(labelled[i] ? parseSensitivity(labelled[i]) : {}),
    }));
    const texts = entries.map((e) => e.text);
    // the related-pages lookup is a search: a sensitive item is not part of its question (a hosted embedder may answer it)
    const askable = batch.filter((_item, i) => !isSensitive(parseSensitivity(labelled[i]))).map((item) => item.text);
    const related = askable.length ? await deps.graph.related(askable.join('\n').slice(0, 2000)).catch(() => []) : [];
    const [map, taxonomy] = await Promise.all([deps.graph.pageMap({ texts, speakers: [], related }), deps.graph.taxonomy()]);
    const schema = replyJsonSchema(ingestReply);
    let text = '';
    for await (const chunk of deps.model.stream({
      messages: ingestPrompt(source, entries, map, taxonomy),
      json: true,
      jsonSchema: schema,
      temperature: 0.2,
      signal: deps.signal,
    })) {
      if (chunk.type === 'text') text += chunk.text;
    }
    const parsed = parseToolArguments(text);
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) throw new DistillError(`ingestion reply is not JSON: ${text.slice(0, 200)}`);
    const v = parsed.value as Record<string, unknown>;
    const list = (x: unknown) => (Array.isArray(x) ? (x as unknown[]) : []);
    const { write, dropped } = toGraphWrite({ entities: list(v.entities), facts: list(v.facts), links: list(v.links) }, entries, [], source);
    // a fact is at least as sensitive as the item it came from (a bank row, a salary e-mail), whatever the model says,
    // and as the lane judged the item (its words may say it in a way the rules do not know)
    const itemSensitivity = new Map(entries.map((e, i) => [e.source, labelled[i]]));
    for (const r of raisedLabels(entries, verdictOf(v.sensitive))) itemSensitivity.set(r.entry.source, formatSensitivity(r.label));
    for (const entity of write.entities)
      for (const f of entity.facts) {
        const s = stricter(stricter(f.sensitivity, sensitivityOfText(f.text)), itemSensitivity.get(f.source));
        if (s) f.sensitivity = s;
      }
    for (const d of dropped) deps.logger.warn({ source, reason: d.reason }, 'memory item dropped');
    let gated = write;
    if (deps.graph.candidates) {
      // the same gate as conversations: a receipt or a notification waits, a lasting fact is written
      const out = await gateWrite(write, entries, await gateContext(deps.now, { ...deps.graph, map, names: [] }), deps.graph.candidates);
      gated = out.write;
      deps.logger.info({ source, promoted: out.report.promoted.length, waiting: out.report.waiting.length, rejected: out.report.rejected.length }, 'promotion gate');
    }
    const report = await deps.graph.write(gated);
    facts += report.factsAdded + report.factsRefreshed;
  }
  return { facts };
}

/** The reply's verdict, item by item: an invalid item is dropped, a missing list is none (untrusted; it can only raise). */
function verdictOf(value: unknown): VerdictItem[] {
  if (!Array.isArray(value)) return [];
  return value
    .flatMap((item) => {
      const ok = verdictItem.safeParse(item);
      return ok.success ? [ok.data] : [];
    })
    .slice(0, MAX_VERDICTS);
}
