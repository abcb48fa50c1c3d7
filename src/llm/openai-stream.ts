/**
 * Decodes a `/chat/completions` response body — an SSE stream of chunks, or a plain JSON
 * completion from a server that ignored `stream` — into ChatChunks: text deltas as they
 * arrive, whole tool calls (structured deltas assembled by index, or recovered from the
 * text), then one `done`.
 */
import { ModelBadResponseError, ModelHttpError } from '../core/errors.js';
import type { ChatChunk, Logger, ToolCall } from '../core/ports/index.js';
import { SseDecoder } from './sse.js';
import { TextToolCallFilter, type TextPiece } from './text-tool-calls.js';
import { ToolCallAssembler } from './tool-call-deltas.js';

export interface DecodeOptions {
  url: string;
  /** Names of the offered tools, or null when none were offered. */
  toolNames: ReadonlySet<string> | null;
  newId: () => string;
  logger: Logger;
  /** Called whenever real progress arrives (a data event, or bytes of a JSON body). */
  onProgress: () => void;
  /** Whether the body was cut at the response size limit (the reply then ends with finish reason `length`). */
  wasCut?: () => boolean;
}

/** An error object sent inside a 200 response (`data: {"error": {...}}`). */
export class StreamedError extends ModelHttpError {}

export async function* decodeCompletion(body: AsyncIterable<string>, contentType: string, options: DecodeOptions): AsyncGenerator<ChatChunk> {
  const state = new ReplyState(options);
  if (contentType.includes('text/event-stream')) {
    yield* decodeSse(body, state, options);
  } else {
    // a JSON body, or SSE behind a wrong content type: read it all, then sniff
    let text = '';
    for await (const piece of body) {
      text += piece;
      options.onProgress();
    }
    if (/^\s*(data|event|:)/.test(text)) yield* decodeSse([text], state, options);
    else yield* state.payload(parseJson(text, options), true);
  }
  if (options.wasCut?.()) {
    options.logger.warn({ url: options.url }, 'the model reply exceeded the response size limit; it was cut');
    state.finishReason = 'length';
  }
  yield* state.finish();
}

async function* decodeSse(body: AsyncIterable<string> | Iterable<string>, state: ReplyState, options: DecodeOptions): AsyncGenerator<ChatChunk> {
  const decoder = new SseDecoder();
  const handle = function* (data: string): Generator<ChatChunk, boolean> {
    if (data.trim() === '[DONE]') return true;
    for (const payload of parseSseData(data, options)) {
      yield* state.payload(payload, false);
      if (state.finishReason !== undefined) return true;
    }
    return false;
  };
  for await (const piece of body) {
    const events = decoder.push(piece);
    if (events.length) options.onProgress();
    for (const event of events) if (yield* handle(event.data)) return;
  }
  for (const event of decoder.end()) if (yield* handle(event.data)) return;
}

/** One event's data; a server that forgot blank lines between events is split per line. */
function parseSseData(data: string, options: DecodeOptions): unknown[] {
  try {
    return [JSON.parse(data)];
  } catch {
    const out: unknown[] = [];
    for (const line of data.split('\n')) {
      if (!line.trim() || line.trim() === '[DONE]') continue;
      try {
        out.push(JSON.parse(line.replace(/^data:\s?/, '')));
      } catch {
        options.logger.warn({ url: options.url, length: line.length }, 'skipping an unreadable stream event');
      }
    }
    return out;
  }
}

function parseJson(text: string, options: DecodeOptions): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    const what = options.wasCut?.() ? 'a JSON reply too large to read' : `neither an event stream nor JSON: ${JSON.stringify(text.slice(0, 120))}`;
    throw new ModelBadResponseError(options.url, what, { cause });
  }
}

class ReplyState {
  /** undefined until the server sends a finish_reason. */
  finishReason: string | null | undefined = undefined;
  private readonly text: TextToolCallFilter;
  private readonly deltas = new ToolCallAssembler();
  private readonly usedIds = new Set<string>();
  private calls = 0;
  private finished = false;

  constructor(private readonly options: DecodeOptions) {
    this.text = new TextToolCallFilter({ toolNames: options.toolNames, newId: options.newId });
  }

  *payload(raw: unknown, whole: boolean): Generator<ChatChunk> {
    if (!raw || typeof raw !== 'object') return;
    const payload = raw as { error?: unknown; choices?: unknown };
    if (payload.error) throw streamedError(payload.error, this.options.url);
    const choice = Array.isArray(payload.choices) ? (payload.choices[0] as Record<string, unknown> | undefined) : undefined;
    if (!choice || typeof choice !== 'object') return;
    const delta = (whole ? (choice.message ?? choice.delta) : (choice.delta ?? choice.message)) as Record<string, unknown> | undefined;
    if (delta && typeof delta.content === 'string' && delta.content !== '') yield* this.pieces(this.text.push(delta.content));
    if (delta?.tool_calls) this.deltas.add(delta.tool_calls);
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') this.finishReason = choice.finish_reason;
  }

  *finish(): Generator<ChatChunk> {
    if (this.finished) return;
    this.finished = true;
    yield* this.pieces(this.text.end());
    const { calls, dropped } = this.deltas.finish(this.options.newId);
    if (dropped) this.options.logger.warn({ dropped }, 'ignored tool-call fragments without a name');
    for (const call of calls) yield* this.call(call);
    let reason = this.finishReason ?? null;
    if (this.calls > 0 && (reason === null || reason === 'stop')) reason = 'tool_calls';
    yield { type: 'done', finishReason: reason };
  }

  private *pieces(pieces: TextPiece[]): Generator<ChatChunk> {
    for (const piece of pieces) {
      if (piece.type === 'text') yield piece;
      else yield* this.call(piece.call);
    }
  }

  private *call(call: ToolCall): Generator<ChatChunk> {
    if (this.usedIds.has(call.id)) call = { ...call, id: this.options.newId() };
    this.usedIds.add(call.id);
    this.calls++;
    this.options.logger.debug({ tool: call.name, id: call.id, argumentChars: call.arguments.length }, 'tool call');
    yield { type: 'tool_call', call };
  }
}

function streamedError(error: unknown, url: string): StreamedError {
  const e = (typeof error === 'object' && error ? error : { message: String(error) }) as { message?: unknown; code?: unknown; status?: unknown };
  const status = [e.status, e.code].find((v): v is number => typeof v === 'number' && v >= 400 && v < 600) ?? 500;
  return new StreamedError(status, url, typeof e.message === 'string' ? e.message : JSON.stringify(error));
}
