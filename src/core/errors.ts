/** A few typed errors with a cause; messages say what to do. */
import { publicUrl } from './privacy/public-url.js';
import { removeSecrets } from './privacy/secrets.js';

export class CharlieError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * What went wrong with a model call, by property rather than by class (as the Vercel AI SDK's
 * `APICallError` does): callers branch on `kind` and `isRetryable`, never on message text.
 */
export type ModelErrorKind =
  /** Nothing answers at the configured URL. */
  | 'unreachable'
  /** The server accepted the request but stopped making progress. */
  | 'timeout'
  /** The server was answering, then the connection was lost before the reply was done. */
  | 'cut'
  /** The prompt does not fit the model's context window. */
  | 'context_too_long'
  /** The server refused the key (401 / 403). */
  | 'auth'
  /** 429: too many requests. */
  | 'rate_limited'
  /** 5xx: the server failed while answering. */
  | 'server_error'
  /** Not a model reply at all (an HTML page with 200, unreadable JSON). */
  | 'bad_response'
  /** Any other refusal of the request (400 for another reason, 404 unknown model …). */
  | 'refused';

export abstract class ModelError extends CharlieError {
  abstract readonly kind: ModelErrorKind;
  /** What the owner should do when the kind's usual advice (about a model server) does not fit, e.g. an embedded model. */
  readonly remedy?: string;
  /** Whether the same request may succeed if sent again later. */
  get isRetryable(): boolean {
    return this.kind === 'unreachable' || this.kind === 'timeout' || this.kind === 'cut' || this.kind === 'rate_limited' || this.kind === 'server_error';
  }
}

/** No server answered at the configured URL (connection refused, DNS, timeout before any byte). */
export class ModelUnavailableError extends ModelError {
  readonly kind = 'unreachable' as const;
  /** The server's URL without user name, password or query: an error is shown and logged. */
  readonly baseUrl: string;
  constructor(baseUrl: string, options?: { cause?: unknown; detail?: string }) {
    super(`no model server at ${publicUrl(baseUrl)}${options?.detail ? ` (${options.detail})` : ''} — start LM Studio / Ollama or set LLM_BASE_URL`, options);
    this.baseUrl = publicUrl(baseUrl);
  }
}

/** The server was reached and was answering, then the connection dropped mid-reply (not "no server"). */
export class ModelCutError extends ModelError {
  readonly kind = 'cut' as const;
  constructor(
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(`the model server at ${url} stopped in the middle of the reply (the connection was lost)`, options);
  }
}

/**
 * The server answered with an error status; `kind` says what the status and body mean. The
 * message names the status, the URL (without credentials) and the provider's error code when
 * it gave one; never the body, which may echo the request (a DM) or the Authorization header.
 * The body, secrets removed, is on `.body` for debug logs.
 */
export class ModelHttpError extends ModelError {
  readonly kind: ModelErrorKind;
  readonly body: string;
  /** The model server's own message from its error body (secrets removed, one line, at most 300 characters), for the person who asked. */
  readonly modelMessage: string | undefined;
  constructor(
    readonly status: number,
    readonly url: string,
    body: string,
    options?: { cause?: unknown },
  ) {
    super(`model server answered ${status} for ${url}${statusHint(status, body)}`, options);
    this.kind = httpErrorKind(status, body);
    this.body = removeSecrets(body).text;
    this.modelMessage = ownMessage(this.body);
  }
}

/** The message an error body gives (`{"error":{"message":…}}`, `{"error":"…"}`, `{"message"|"detail":…}`, or short plain text). */
export function ownMessage(body: string): string | undefined {
  let text: unknown = body;
  try {
    const json = JSON.parse(body) as { error?: unknown; message?: unknown; detail?: unknown };
    const e = json.error;
    text = typeof e === 'string' ? e : e && typeof e === 'object' && 'message' in e ? e.message : (json.message ?? json.detail);
  } catch {
    if (/[<{]/.test(body)) return undefined; // an HTML page or broken JSON is no message
  }
  if (typeof text !== 'string') return undefined;
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return undefined;
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** A 200 answer that is not a model reply (an HTML login page, a proxy's error page, broken JSON). */
export class ModelBadResponseError extends ModelError {
  readonly kind = 'bad_response' as const;
  constructor(
    readonly url: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`the server at ${url} did not send a model reply (${detail}) — check that LLM_BASE_URL points at the API, usually ending in /v1`, options);
  }
}

/** A short, safe explanation: the provider's error code (a token such as `model_not_found`), or what to check. */
function statusHint(status: number, body: string): string {
  const code = /"(?:code|type)"\s*:\s*"([a-z][a-z0-9_.-]{2,60})"/i.exec(body)?.[1];
  const advice =
    status === 401 || status === 403
      ? 'check the API key'
      : status === 404
        ? 'check the model name and the URL'
        : status === 429
          ? 'rate limited'
          : status >= 500
            ? 'the server failed'
            : status === 200
              ? 'the reply could not be read'
              : 'the server rejected the request';
  return ` (${code ? `${code}; ` : ''}${advice}; details in the debug log)`;
}

/** The model did not finish within the configured timeout. */
export class ModelTimeoutError extends ModelError {
  readonly kind = 'timeout' as const;
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(`model server at ${url} did not answer within ${timeoutMs} ms — is the model loaded? raise LLM_TIMEOUT_MS if it is slow`, options);
  }
}

/**
 * Context overflow as the common servers word it: OpenAI / vLLM ("maximum context length",
 * code `context_length_exceeded`), llama.cpp ("exceeds the available context size",
 * `exceed_context_size_error`), LM Studio ("context length of only N tokens"), Ollama.
 * An HTTP body is all these servers give; there is no shared code to read instead.
 */
const CONTEXT_OVERFLOW = /context[ _-]?(length|size|window|overflow)|exceed_context|maximum context|too many tokens|prompt is too long|too long for (the|this) model|n_ctx|context the overflows/i;

export function httpErrorKind(status: number, body: string): ModelErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limited';
  if (status === 413 || (status >= 400 && CONTEXT_OVERFLOW.test(body))) return 'context_too_long';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server_error';
  if (status < 400) return 'bad_response';
  return 'refused';
}

/** Bad configuration: names the variable and what to do. */
export class ConfigError extends CharlieError {}

/** A path or name from a user that would escape its folder or is otherwise unusable. */
export class UnsafeNameError extends CharlieError {}

/** What a person reads when a turn fails because of the model: what happened, and what to do. */
export function modelErrorReply(error: ModelError): string {
  const status = error instanceof ModelHttpError ? ` (HTTP ${error.status})` : '';
  if (error.remedy && error.kind !== 'context_too_long') return `Sorry — I can't answer right now: ${error.remedy}. Your message is saved.`;
  switch (error.kind) {
    case 'unreachable':
      return "Sorry — I can't reach my model server, so I can't answer. Your message is saved; start the model server (LM Studio, Ollama …) or check LLM_BASE_URL, then try again.";
    case 'cut':
      return 'Sorry — the model server stopped in the middle of my reply. Your message is saved; please try again.';
    case 'timeout':
      return 'Sorry — the model server stopped answering before the reply was done. Your message is saved; the model may be overloaded or still loading — try again in a moment (LLM_TIMEOUT_MS sets how long I wait).';
    case 'context_too_long':
      return "Sorry — this conversation is too long for the model's context, even with less history. Your message is saved; send a shorter message, or load the model with a larger context length.";
    case 'auth':
      return `Sorry — the model server refused my key${status}, so I can't answer. Your message is saved; the owner needs to check LLM_API_KEY.`;
    case 'rate_limited':
      return `Sorry — the model server is rate-limiting me${status}. Your message is saved; please wait a minute and try again.`;
    case 'server_error':
      return `Sorry — the model server failed while answering${status}. Your message is saved; try again in a moment, and if it keeps happening look at the model server's log.`;
    case 'bad_response':
      return 'Sorry — the model server sent something that is not a model reply (for example a web page). Your message is saved; the owner should check that LLM_BASE_URL points at the API (usually ending in /v1).';
    case 'refused':
      return `Sorry — the model server refused the request${status}. Your message is saved; the owner should check LLM_MODEL and the model server's log.`;
  }
}

/** The notice shown before a turn is retried with less history. */
export const CONTEXT_RETRY_NOTICE = "the conversation is too long for this model's context: I'll use less history";

/**
 * Memory that cannot be read or written (a damaged database, a full disk): the message is for
 * the person, names the file, and says what still works and how to recover. A turn that meets
 * it answers with that message instead of a generic apology.
 */
export class MemoryUnavailableError extends CharlieError {}

/** Why a sync did not finish, by property: `timeout` (SYNC_TIMEOUT_MS), `busy` (another sync holds the lock), `engine` (git refused), `setup` (not set up). */
export class SyncError extends CharlieError {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'busy' | 'engine' | 'setup',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
