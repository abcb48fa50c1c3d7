import { CharlieError } from '../../core/errors.js';

/** A speech engine failed; the message says what to do. */
export class TtsError extends CharlieError {}

/** The engine did not answer in time. */
export class TtsTimeoutError extends TtsError {
  constructor(
    readonly engine: string,
    readonly timeoutMs: number,
  ) {
    super(`${engine} did not answer within ${timeoutMs} ms — check the network, raise TTS_TIMEOUT_MS, or set TTS=local`);
  }
}
