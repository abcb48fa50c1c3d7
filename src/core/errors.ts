/** A few typed errors with a cause; messages say what to do. */
import { removeSecrets } from './secrets.js';

export class CharlieError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** No server answered at the configured URL (connection refused, DNS, timeout before any byte). */
export class ModelUnavailableError extends CharlieError {
  constructor(
    readonly baseUrl: string,
    options?: { cause?: unknown; detail?: string },
  ) {
    super(
      `no model server at ${baseUrl}${options?.detail ? ` (${options.detail})` : ''} — start LM Studio / Ollama or set LLM_BASE_URL`,
      options,
    );
  }
}

/**
 * The server answered with an error status. The message names the status, the URL (without
 * credentials) and the provider's error code when it gave one; never the body, which may echo
 * the request (a DM) or the Authorization header. The body, secrets removed, is on `.body`
 * for debug logs.
 */
export class ModelHttpError extends CharlieError {
  readonly body: string;
  constructor(
    readonly status: number,
    readonly url: string,
    body: string,
    options?: { cause?: unknown },
  ) {
    super(`model server answered ${status} for ${url}${statusHint(status, body)}`, options);
    this.body = removeSecrets(body).text;
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
export class ModelTimeoutError extends CharlieError {
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(`model server at ${url} did not answer within ${timeoutMs} ms — is the model loaded? raise LLM_TIMEOUT_MS if it is slow`, options);
  }
}

/** Bad configuration: names the variable and what to do. */
export class ConfigError extends CharlieError {}

/** A path or name from a user that would escape its folder or is otherwise unusable. */
export class UnsafeNameError extends CharlieError {}
