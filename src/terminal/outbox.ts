/**
 * The terminal chat's outbox: the scheduler's deliveries printed between turns, with the
 * `/remind` commands that answer them.
 */
import type { Place } from '../core/place.js';
import type { Outbox, OutboxMessage } from '../core/time/outbox.js';
import { NoDoorOpenError } from '../core/time/outbox.js';

/** What the terminal asks the job store about an occurrence's key (it has no nonce of its own). */
export interface ShownKeys {
  /** It was printed (and marked) already. */
  was(key: string): boolean;
  /** It has just been printed. */
  mark(key: string): void;
}

/**
 * Prints deliveries while a terminal chat is open; while none is it rejects with NoDoorOpenError
 * (the occurrence waits, not counted as an attempt) and says when it opens, so a reminder missed
 * while Charlie was down shows at the first prompt.
 * With `shown` (the job store's), an occurrence already printed is not printed again after a
 * restart, and one is marked the moment it is printed: a kill -9 then leaves only the
 * microseconds between the print and the mark's write to the database file.
 */
export class TerminalOutbox implements Outbox {
  private write: ((s: string) => void) | null = null;
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly shown?: ShownKeys) {}

  onOpen(listener: () => void): void {
    this.listeners.push(listener);
  }

  open(write: (s: string) => void): () => void {
    this.write = write;
    for (const l of this.listeners) l();
    return () => {
      if (this.write === write) this.write = null;
    };
  }

  async post(_place: Place, message: OutboxMessage): Promise<void> {
    if (!this.write) throw new NoDoorOpenError('the terminal chat is not open');
    if (this.shown?.was(message.key)) return;
    const hint = message.actions.length ? `\n  (${message.actions.map((a) => `/remind ${a} ${message.jobId}`).join(' · ')})` : '';
    this.write(`\n${message.text}${hint}\n`);
    this.shown?.mark(message.key);
  }
}
