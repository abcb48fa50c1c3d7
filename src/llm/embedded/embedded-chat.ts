/**
 * ChatModel over the embedded model (llama.cpp in this process). Streams text as it is
 * generated; tool calls come from node-llama-cpp's function calling in the model's own chat
 * template and are yielded whole, after the text. `json` / `jsonSchema` requests are generated
 * under a grammar, so the reply is always JSON (matching the schema) unless the token limit
 * cuts it short (finish reason `length`).
 *
 * Aborting `request.signal` (the turn's deadline, a cancel) stops generation and rejects with
 * the signal's reason, as the server client does; leaving the stream early stops it too.
 */
import { randomUUID } from 'node:crypto';
import type { GbnfJsonSchema, LlamaGrammar } from 'node-llama-cpp';
import type { ChatChunk, ChatModel, ChatRequest, JsonSchema } from '../../core/ports/index.js';
import { abortReason } from '../retry.js';
import { embeddedGenerationError } from './errors.js';
import { toChatHistory, toFunctions, toGrammarSchema } from './history.js';
import type { EmbeddedRuntime, LoadedModel } from './runtime.js';

export interface EmbeddedChatOptions {
  /** Default sampling temperature when a request gives none. */
  temperature: number;
  /** Upper bound on generated tokens when a request gives none. */
  maxTokens?: number;
  newId?: () => string;
}

const STOP_REASONS: Record<string, string> = {
  eogToken: 'stop',
  stopGenerationTrigger: 'stop',
  customStopTrigger: 'stop',
  functionCalls: 'tool_calls',
  maxTokens: 'length',
  abort: 'abort',
};

export class EmbeddedChatModel implements ChatModel<'local'> {
  readonly id: string;
  readonly locality = 'local' as const;
  readonly acceptsImages = false;
  private readonly newId: () => string;
  /** Grammars by schema text: building one costs a few milliseconds, distillation reuses one. */
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();

  constructor(
    readonly runtime: EmbeddedRuntime,
    private readonly options: EmbeddedChatOptions,
  ) {
    this.id = `${runtime.name}@embedded`;
    this.newId = options.newId ?? (() => `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`);
  }

  async *stream(request: ChatRequest): AsyncGenerator<ChatChunk> {
    const stop = new AbortController();
    const signal = request.signal ? AbortSignal.any([request.signal, stop.signal]) : stop.signal;
    const channel = new Channel<ChatChunk>();
    const run = this.runtime.exclusive((loaded) => this.generate(loaded, request, signal, channel), signal);
    run.then(
      () => channel.end(),
      (err: unknown) => channel.fail(signal.aborted ? abortReason(signal) : embeddedGenerationError(err)),
    );
    try {
      yield* channel;
    } finally {
      // The consumer left early (or the stream ended): never keep generating for nobody.
      stop.abort(new DOMException('the stream was closed', 'AbortError'));
      await run.catch(() => undefined);
    }
  }

  private async generate(loaded: LoadedModel, request: ChatRequest, signal: AbortSignal, channel: Channel<ChatChunk>): Promise<void> {
    const grammar = request.jsonSchema || request.json ? await this.grammar(loaded, request.jsonSchema) : undefined;
    const common = {
      signal,
      temperature: request.temperature ?? this.options.temperature,
      onTextChunk: (text: string) => {
        if (text) channel.push({ type: 'text', text });
      },
      // A schema's grammar bounds the reply itself; the default cap would only cut it short.
      maxTokens: request.maxTokens ?? (request.jsonSchema ? undefined : this.options.maxTokens),
    };
    const history = toChatHistory(request.messages);
    const result = grammar
      ? await loaded.chat.generateResponse(history, { ...common, grammar })
      : request.tools?.length
        ? await loaded.chat.generateResponse(history, { ...common, functions: toFunctions(request.tools), documentFunctionParams: true })
        : await loaded.chat.generateResponse(history, common);
    if (signal.aborted) throw abortReason(signal);
    for (const call of result.functionCalls ?? []) {
      // a call without parameters has none at run time, whatever the type says
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      channel.push({ type: 'tool_call', call: { id: this.newId(), name: call.functionName, arguments: JSON.stringify(call.params ?? {}) } });
    }
    const reason = result.metadata.stopReason;
    channel.push({ type: 'done', finishReason: result.functionCalls?.length ? 'tool_calls' : (STOP_REASONS[reason] ?? reason) });
  }

  private grammar(loaded: LoadedModel, schema: JsonSchema | undefined): Promise<LlamaGrammar> {
    const key = schema ? JSON.stringify(schema) : '';
    let grammar = this.grammars.get(key);
    if (!grammar) {
      grammar = schema ? loaded.llama.createGrammarForJsonSchema<GbnfJsonSchema>(toGrammarSchema(schema)) : loaded.llama.getGrammarFor('json');
      this.grammars.set(key, grammar);
      grammar.catch(() => this.grammars.delete(key));
    }
    return grammar;
  }
}

/** A push-to-pull queue: callbacks push, the async generator pulls. */
class Channel<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | null = null;
  private done = false;
  private error: Error | null = null;

  push(item: T): void {
    this.items.push(item);
    this.notify();
  }
  end(): void {
    this.done = true;
    this.notify();
  }
  fail(error: Error): void {
    this.error = error;
    this.done = true;
    this.notify();
  }
  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.error) throw this.error;
      if (this.done) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
