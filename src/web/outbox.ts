/**
 * The web app's front door for the scheduler: a reminder due for the web is pushed to every open
 * page of the people it is for (a private one: its owner's pages; a project's: every signed-in
 * page), which shows it in the page and as a system notification. With no page open it rejects
 * with NoDoorOpenError, and the scheduler (or the router, to the place's own front door) tries
 * again when a page opens. A second
 * post with a key already shown (a redelivery after a crash) is dropped; the page drops it too.
 */
import type { Place } from '../core/place.js';
import type { Outbox, OutboxMessage, TimeAction } from '../core/time/outbox.js';
import { NoDoorOpenError } from '../core/time/outbox.js';

/** What a page receives for one delivered reminder or follow-up. */
export interface WebDelivery {
  key: string;
  jobId: string;
  text: string;
  actions: TimeAction[];
}

interface Page {
  userId: string;
  send(delivery: WebDelivery): void;
}

const KEPT_KEYS = 500;

export class WebTimeOutbox implements Outbox {
  private readonly pages = new Set<Page>();
  private readonly shown: string[] = [];
  private readonly listeners: (() => void)[] = [];

  onOpen(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** A page of `userId` is open and listening; the returned function closes it. */
  listen(userId: string, send: (delivery: WebDelivery) => void): () => void {
    const page = { userId, send };
    this.pages.add(page);
    for (const l of this.listeners) l();
    return () => this.pages.delete(page);
  }

  post(place: Place, message: OutboxMessage): Promise<void> {
    if (this.shown.includes(message.key)) return Promise.resolve();
    const targets = [...this.pages].filter((p) => place.kind === 'project' || p.userId === place.userId);
    if (targets.length === 0) return Promise.reject(new NoDoorOpenError('no page of the web app is open for this reminder'));
    const delivery: WebDelivery = { key: message.key, jobId: message.jobId, text: message.text, actions: message.actions };
    for (const page of targets) page.send(delivery);
    this.shown.push(message.key);
    if (this.shown.length > KEPT_KEYS) this.shown.shift();
    return Promise.resolve();
  }
}
