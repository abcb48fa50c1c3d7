/**
 * Every call that leaves the process has a deadline, from this one table: the service, the
 * setting that changes it (src/config.ts reads it, its default is the table's) and how long.
 * `withDeadline` runs one call under its service's deadline with an AbortSignal that ends when
 * the deadline passes (or the caller's own signal aborts): a call past its deadline rejects with
 * a `DeadlineError` that names the service and how long, and is logged. The deadline is a total
 * one, not an idle one: a server that trickles a byte every two seconds ends on time too.
 * SSH and sync are listed before their adapters exist, so they start from the same table.
 */
import { CharlieError } from '../errors.js';
import type { Logger } from './logger.js';

export const DEADLINE_TABLE = {
  model: { setting: 'LLM_TIMEOUT_MS', ms: 120_000, label: 'the model server' },
  embedder: { setting: 'EMBEDDING_TIMEOUT_MS', ms: 60_000, label: 'the embeddings server' },
  stt: { setting: 'STT_TIMEOUT_MS', ms: 60_000, label: 'speech to text' },
  tts: { setting: 'TTS_TIMEOUT_MS', ms: 8000, label: 'text to speech' },
  calendar: { setting: 'CALENDAR_TIMEOUT_MS', ms: 20_000, label: 'the calendar server (CalDAV or .ics)' },
  mcp: { setting: 'MCP_CALL_TIMEOUT_MS', ms: 60_000, label: 'the MCP tool server' },
  ssh: { setting: 'SSH_TIMEOUT_MS', ms: 30_000, label: 'the SSH host' },
  sync: { setting: 'SYNC_TIMEOUT_MS', ms: 300_000, label: 'the sync engine' },
} as const satisfies Record<string, { setting: string; ms: number; label: string }>;

/** A service that is outside the process. */
export type OutsideService = keyof typeof DEADLINE_TABLE;

export const OUTSIDE_SERVICES = Object.keys(DEADLINE_TABLE) as OutsideService[];

/** How long each service gets, as the settings say (config.deadlines). */
export type Deadlines = Record<OutsideService, number>;

export const DEFAULT_DEADLINES: Deadlines = Object.fromEntries(OUTSIDE_SERVICES.map((s) => [s, DEADLINE_TABLE[s].ms])) as Deadlines;

/** A call to an outside service (or a scheduled job) ran past its deadline. Classified by `code`, not by message. */
export class DeadlineError extends CharlieError {
  readonly code = 'deadline' as const;
  readonly isRetryable = true;
  constructor(
    /** The service (a key of DEADLINE_TABLE) or the job kind that ran out of time. */
    readonly service: string,
    readonly ms: number,
    what?: string,
    /** The setting that set `ms`, when it is not the service's own (an inbox batch: DISTILL_DEADLINE_MS). */
    setting?: string,
  ) {
    const row = service in DEADLINE_TABLE ? DEADLINE_TABLE[service as OutsideService] : null;
    const knob = setting ?? row?.setting;
    super(`${row?.label ?? service}${what ? ` (${what})` : ''} did not finish within ${ms} ms${knob ? ` — is it up? raise ${knob} if it is only slow` : ''}`);
  }
}

export function isDeadlineError(err: unknown): err is DeadlineError {
  return err instanceof DeadlineError;
}

export interface DeadlineOptions {
  /** The caller's own signal (a turn's): aborting it aborts the call too. */
  signal?: AbortSignal;
  /** Where a missed deadline is logged (warn, with service and ms). */
  logger?: Logger;
  /** What the call was, for the message and the log ("poll", "fetch events"); never user text. */
  what?: string;
  /** The setting that chose `ms`, when not the service's own. */
  setting?: string;
}

/**
 * Runs `work` with a signal that aborts after `ms`; rejects with a DeadlineError at `ms` even if
 * `work` ignores its signal (the call's promise is then left to settle on its own).
 */
export async function withDeadline<T>(service: string, ms: number, work: (signal: AbortSignal) => Promise<T>, options: DeadlineOptions = {}): Promise<T> {
  const controller = new AbortController();
  const timeout = AbortSignal.timeout(ms);
  const signals = options.signal ? [timeout, options.signal] : [timeout];
  let onAbort = (): void => {};
  const ended = new Promise<never>((_resolve, reject) => {
    onAbort = () => {
      const reason: unknown = timeout.aborted ? new DeadlineError(service, ms, options.what, options.setting) : options.signal?.reason;
      controller.abort(reason);
      reject(reason instanceof Error ? reason : new CharlieError(`${service}: aborted`, { cause: reason }));
    };
    for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
  });
  try {
    if (options.signal?.aborted) onAbort();
    return await Promise.race([work(controller.signal), ended]);
  } catch (err) {
    const late = isDeadlineError(err) ? err : timeout.aborted ? new DeadlineError(service, ms, options.what, options.setting) : null;
    if (late) {
      options.logger?.warn({ service, ms, what: options.what }, 'an outside call ran past its deadline');
      throw late;
    }
    throw err;
  } finally {
    for (const s of signals) s.removeEventListener('abort', onAbort);
    ended.catch(() => {});
  }
}
