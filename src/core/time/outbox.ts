/**
 * What the scheduler's handlers send, and the port they send it through. The composition root
 * routes a place to the front door that owns it (a Discord channel or DM, the terminal, the web
 * app). A post carries its idempotency key: a front door that can, drops a second post with the
 * same key (Discord: an enforced nonce), so a redelivery after a crash shows once.
 */
import type { Place } from '../place.js';
import { CharlieError } from '../errors.js';

/**
 * No front door that could show this is open yet (the terminal chat before its prompt, the web
 * app with no page open, Discord before it connected). The scheduler does not count it as a
 * failed attempt: the occurrence waits, and is delivered when a door opens.
 */
export class NoDoorOpenError extends CharlieError {
  readonly code = 'no-door' as const;
}

/** Classified by its code, not by class or message. */
export function isNoDoorOpen(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'no-door';
}

/** The buttons a delivered message may carry; a press comes back to `ReminderDesk.act`. */
export type TimeAction = 'snooze' | 'done' | 'not-yet' | 'drop';

export const ACTION_LABELS: Record<TimeAction, string> = { snooze: 'Snooze 10 min', done: 'Done', 'not-yet': 'Not yet', drop: 'Drop' };

export interface OutboxMessage {
  text: string;
  /** The occurrence's idempotency key. */
  key: string;
  jobId: string;
  actions: TimeAction[];
  /** Whom to ping in a channel (a Discord user id), when the job is for someone. */
  mention?: string;
  /** The front door it was asked through, when that is not the place's own (the web app). */
  door?: 'web';
}

export interface Outbox {
  /** Rejects when the place cannot be reached now (the scheduler tries again later); with a NoDoorOpenError when no door for it is open yet. */
  post(place: Place, message: OutboxMessage): Promise<void>;
  /** A door that opens later than it is added (the terminal's prompt, a web page) calls `listener` each time it opens. */
  onOpen?(listener: () => void): void;
}
