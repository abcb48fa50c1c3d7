/**
 * ChatModel over any OpenAI-compatible `/chat/completions` server (LM Studio, Ollama,
 * llama.cpp, vLLM, hosted APIs). Always streams; copes with servers that do not.
 *
 * Failures are ModelErrors classified by `kind`: nothing listening → ModelUnavailableError; the
 * connection lost after the server answered → ModelCutError;
 * no progress within `timeoutMs` → ModelTimeoutError; error status → ModelHttpError (auth,
 * context too long, rate-limited …); a 200 that is not a model reply → ModelBadResponseError.
 * Retryable statuses (429, 5xx) are retried with backoff (only before anything was yielded);
 * `request.signal` aborts everything at once. Every request carries `max_tokens`, and no more
 * than `maxResponseChars` of a response body is ever read, whatever the server sends.
 */
import { randomUUID } from 'node:crypto';
import { CharlieError, ModelBadResponseError, ModelCutError, ModelHttpError, ModelTimeoutError, ModelUnavailableError } from '../core/errors.js';
import { silentLogger, type ChatChunk, type ChatModel, type ChatRequest, type Locality, type Logger } from '../core/ports/index.js';
import { decodeCompletion } from './openai-stream.js';
import { toWireRequest, type WireRequest } from './openai-wire.js';
import { abortReason, backoffDelay, parseRetryAfter, sleep } from './retry.js';
import { tcpProbe, type ReachabilityProbe } from './tcp-probe.js';
import { publicUrl } from './locality.js';

export { publicUrl };

export interface OpenAIChatModelOptions<L extends Locality = Locality> {
  /** e.g. `http://localhost:1234/v1` (LM Studio), `http://localhost:11434/v1` (Ollama). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  locality: L;
  acceptsImages: boolean;
  /** No progress (no bytes, no stream event) for this long → ModelTimeoutError. */
  timeoutMs: number;
  /** No response within this long and nothing accepting connections → ModelUnavailableError. */
  connectTimeoutMs: number;
  maxRetries: number;
  temperature: number;
  /** Sent as `max_tokens` unless a request sets its own. */
  maxTokens: number;
  /** Stop reading a response body after this many characters (memory bound). Default 4,000,000. */
  maxResponseChars?: number;
  logger?: Logger;
  fetch?: typeof fetch;
  /** First backoff step (doubles per retry, with jitter). Default 500 ms. */
  retryBaseMs?: number;
  /** Cap for any retry delay, Retry-After included. Default 20 s. */
  maxRetryDelayMs?: number;
  random?: () => number;
  /** Tells "nothing there" from "slow to answer" when no response came within connectTimeoutMs. */
  probe?: ReachabilityProbe;
  newId?: () => string;
}

type Cause = 'connect' | 'timeout' | 'user';

export class OpenAIChatModel<L extends Locality = Locality> implements ChatModel<L> {
  readonly id: string;
  readonly locality: L;
  readonly acceptsImages: boolean;
  private readonly baseUrl: string;
  private readonly endpoint: string;
  /** `endpoint` without credentials, for errors and logs. */
  private readonly publicEndpoint: string;
  private readonly log: Logger;
  private readonly fetchImpl: typeof fetch;
  private readonly probe: ReachabilityProbe;
  private readonly newId: () => string;
  /** Set once the server said it does not know `response_format` json_object; later JSON requests leave it out. */
  private jsonModeUnsupported = false;
  /** Set once the server rejected a json_schema; later schema requests ask for json_object (JSON mode stays on). */
  private jsonSchemaUnsupported = false;

  constructor(private readonly options: OpenAIChatModelOptions<L>) {
    this.baseUrl = publicUrl(options.baseUrl);
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.publicEndpoint = `${this.baseUrl}/chat/completions`;
    this.id = `${options.model}@${this.baseUrl}`;
    this.locality = options.locality;
    this.acceptsImages = options.acceptsImages;
    this.log = (options.logger ?? silentLogger).child({ component: 'llm', model: this.id });
    this.fetchImpl = options.fetch ?? fetch;
    this.probe = options.probe ?? tcpProbe;
    this.newId = options.newId ?? (() => `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`);
  }

  async *stream(request: ChatRequest): AsyncGenerator<ChatChunk> {
    const toolNames = request.tools?.length ? new Set(request.tools.map((t) => t.name)) : null;
    const body = toWireRequest(
      { ...request, maxTokens: request.maxTokens ?? this.options.maxTokens },
      {
        model: this.options.model,
        temperature: this.options.temperature,
        acceptsImages: this.acceptsImages,
        jsonModeUnsupported: this.jsonModeUnsupported,
        jsonSchemaUnsupported: this.jsonSchemaUnsupported,
      },
    );
    this.log.debug({ messages: body.messages.length, tools: body.tools?.length ?? 0, json: !!body.response_format }, 'chat request');
    let retries = 0;
    let jsonFallback = false;
    let schemaFallback = false;
    for (;;) {
      if (request.signal?.aborted) throw abortReason(request.signal);
      const info: { retryAfterMs?: number } = {};
      let yielded = false;
      try {
        for await (const chunk of this.attempt(body, request.signal, toolNames, info)) {
          yielded = true;
          yield chunk;
        }
        return;
      } catch (err) {
        if (yielded || !(err instanceof ModelHttpError)) throw err;
        if (err.status === 400 && err.kind === 'refused' && body.response_format?.type === 'json_schema' && !schemaFallback) {
          // a server that refuses a schema still gets JSON mode (json_object), for this request and later ones
          schemaFallback = true;
          this.jsonSchemaUnsupported = true;
          if (this.jsonModeUnsupported) delete body.response_format;
          else body.response_format = { type: 'json_object' };
          this.log.warn({ status: err.status }, 'the model server rejected a JSON schema; asking for plain JSON instead');
          continue;
        }
        if (err.status === 400 && err.kind === 'refused' && body.response_format && !jsonFallback) {
          // Only a 400 that names response_format turns JSON mode off for later requests; any
          // other 400 is retried once without it, for this request alone.
          jsonFallback = true;
          if (JSON_MODE_REJECTED.test(err.body)) this.jsonModeUnsupported = true;
          delete body.response_format;
          this.log.warn({ status: err.status, remembered: this.jsonModeUnsupported }, 'the model server rejected a JSON-mode request; asking for JSON without response_format');
          continue;
        }
        if (!err.isRetryable || retries >= this.options.maxRetries) throw err;
        const delayMs = backoffDelay(retries, info.retryAfterMs, {
          baseMs: this.options.retryBaseMs ?? 500,
          maxMs: this.options.maxRetryDelayMs ?? 20_000,
          random: this.options.random,
        });
        retries++;
        this.log.warn({ status: err.status, kind: err.kind, retry: retries, of: this.options.maxRetries, delayMs }, 'model server busy or failing; retrying');
        await sleep(delayMs, request.signal);
      }
    }
  }

  /** One HTTP exchange, with the connect watchdog and the inactivity timer. */
  private async *attempt(body: WireRequest, signal: AbortSignal | undefined, toolNames: ReadonlySet<string> | null, info: { retryAfterMs?: number }): AsyncGenerator<ChatChunk> {
    const controller = new AbortController();
    const state: { cause?: Cause; answered: boolean } = { answered: false };
    const stop = (cause: Cause) => {
      state.cause ??= cause;
      controller.abort();
    };
    const onAbort = () => stop('user');
    signal?.addEventListener('abort', onAbort, { once: true });
    const connectTimer = setTimeout(() => void this.watchConnect(state, stop), this.options.connectTimeoutMs);
    let idleTimer: NodeJS.Timeout | undefined;
    const progress = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => stop('timeout'), this.options.timeoutMs);
    };
    progress();
    try {
      let res: Response;
      try {
        res = await this.fetchImpl(this.endpoint, { method: 'POST', headers: this.headers(), body: JSON.stringify(body), signal: controller.signal });
      } catch (err) {
        throw this.failure(err, state.cause, signal, false);
      }
      state.answered = true;
      clearTimeout(connectTimer);
      progress();
      if (!res.ok) {
        let text = '';
        try {
          text = await res.text();
        } catch (err) {
          if (state.cause) throw this.failure(err, state.cause, signal, true);
        }
        info.retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
        const error = new ModelHttpError(res.status, this.publicEndpoint, text);
        this.log.debug({ status: res.status, body: error.body }, 'model server error body');
        throw error;
      }
      const contentType = res.headers.get('content-type') ?? '';
      if (/text\/html/i.test(contentType)) throw await this.htmlAnswer(res);
      const limit = { max: this.options.maxResponseChars ?? MAX_RESPONSE_CHARS, cut: false };
      try {
        yield* decodeCompletion(bodyText(res, limit), contentType, {
          url: this.publicEndpoint,
          toolNames,
          newId: this.newId,
          logger: this.log,
          onProgress: progress,
          wasCut: () => limit.cut,
        });
      } catch (err) {
        throw this.failure(err, state.cause, signal, true);
      }
    } finally {
      clearTimeout(connectTimer);
      clearTimeout(idleTimer);
      signal?.removeEventListener('abort', onAbort);
      controller.abort();
    }
  }

  /** A 200 with a web page (a proxy, a login page, the server's UI at the wrong path). */
  private async htmlAnswer(res: Response): Promise<ModelBadResponseError> {
    let head = '';
    for await (const piece of bodyText(res, { max: 2000, cut: false })) head += piece;
    const title = /<title[^>]*>([^<]{0,120})/i.exec(head)?.[1]?.trim();
    return new ModelBadResponseError(this.publicEndpoint, `an HTML page${title ? ` titled "${title}"` : ''} with status ${res.status}`);
  }

  /** No response yet after connectTimeoutMs: give up only if nothing accepts connections. */
  private async watchConnect(state: { cause?: Cause; answered: boolean }, stop: (cause: Cause) => void): Promise<void> {
    if (state.answered || state.cause) return;
    const reachable = await this.probe(this.options.baseUrl, Math.min(this.options.connectTimeoutMs, 5000)).catch(() => false);
    // both are set by the request running meanwhile, which the type narrowing cannot see
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    if (state.answered || state.cause) return;
    if (reachable) this.log.info({ waitedMs: this.options.connectTimeoutMs }, 'the model server accepted the connection but has not answered yet (loading the model?)');
    else stop('connect');
  }

  private failure(err: unknown, cause: Cause | undefined, signal: AbortSignal | undefined, afterHeaders: boolean): Error {
    if (cause === 'user' && signal) return abortReason(signal);
    if (cause === 'timeout') return new ModelTimeoutError(this.publicEndpoint, this.options.timeoutMs, { cause: err });
    if (cause === 'connect') return new ModelUnavailableError(this.baseUrl, { cause: err, detail: `no answer within ${this.options.connectTimeoutMs} ms` });
    if (err instanceof CharlieError) return err;
    if (err instanceof TypeError || hasCode(err)) {
      // the server answered, so it is there: the reply was cut, which is not "no model server"
      if (afterHeaders) return new ModelCutError(this.publicEndpoint, { cause: err });
      return new ModelUnavailableError(this.baseUrl, { cause: err, detail: errorCode(err) ?? 'connection failed' });
    }
    return err instanceof Error ? err : new Error(String(err));
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream, application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    return headers;
  }
}

/** Upper bound on the characters read from one response body (about 4 MB). */
export const MAX_RESPONSE_CHARS = 4_000_000;

/** A 400 that says the server does not support JSON mode (LM Studio: "'response_format.type' must be 'json_schema'"). */
const JSON_MODE_REJECTED = /response_format|json_object|json_schema/i;

/**
 * The response body as text pieces, decoded as UTF-8 across chunk boundaries; stops (and sets
 * `limit.cut`) after `limit.max` characters, so a server that never stops cannot fill memory.
 */
async function* bodyText(res: Response, limit: { max: number; cut: boolean }): AsyncGenerator<string> {
  if (!res.body) return;
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let text = decoder.decode(value, { stream: true });
      if (total + text.length > limit.max) {
        text = text.slice(0, Math.max(0, limit.max - total));
        limit.cut = true;
      }
      total += text.length;
      if (text) yield text;
      if (limit.cut) {
        await reader.cancel().catch(() => {});
        return;
      }
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    reader.releaseLock();
  }
}

function hasCode(err: unknown): boolean {
  return errorCode(err) !== undefined;
}

/** ECONNREFUSED, ENOTFOUND, … from the error or its cause chain. */
function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}
