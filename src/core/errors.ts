/** A few typed errors with a cause; messages say what to do. */

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

/** The server answered with an error status. */
export class ModelHttpError extends CharlieError {
  constructor(
    readonly status: number,
    readonly url: string,
    readonly body: string,
    options?: { cause?: unknown },
  ) {
    super(`model server answered ${status} for ${url}: ${body.slice(0, 300)}`, options);
  }
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
