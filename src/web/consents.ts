/**
 * Asking in the moment, in the web app: a turn that would send an item labelled sensitive to a
 * hosted service pushes a `consent` event on its stream (the items named, never their content)
 * and waits; the person who started the turn answers with POST /api/turns/:turn/consent, and the
 * answer (or Stop, or the core's deadline) settles it and pushes `consent_done`. Mirrors the tool
 * confirmations of api-chat.ts.
 */
import { randomUUID } from 'node:crypto';
import { itemLabel, KIND_WORDS, type ConsentAccess, type ConsentAnswer, type ConsentAsk, type ConsentItem, type ConsentService } from '../core/privacy/consent.js';
import { DESTINATIONS } from '../core/privacy/destinations.js';
import type { WebUser } from './auth.js';
import type { ConsentEventWire, ConsentItemWire, ConsentServiceWire } from './shared/consent.js';
import type { TurnHub, WebTurn } from './turns.js';

/** An item as the page names it: its label (where, name, kind), never its content. */
export function itemWire(item: ConsentItem): ConsentItemWire {
  return { label: itemLabel(item), ...(item.kind ? { kind: KIND_WORDS[item.kind] } : {}) };
}

export function serviceWire(service: ConsentService): ConsentServiceWire {
  return { kind: service.kind, id: service.id, what: DESTINATIONS[service.kind].what };
}

/** What an answer did: settled the question, or why not. */
export type ConsentReply = 'answered' | 'not-yours' | 'gone';

export class WebConsents {
  /** Open questions by `turn:id`: who may answer, and how to settle. */
  private readonly waiting = new Map<string, { userId: string; settle: (answer: ConsentAnswer) => void }>();

  /** The consent access a web turn of `user` gets: their person, the page's question, and whether others read the place. */
  access(turn: WebTurn, hub: TurnHub, user: WebUser, shared: boolean): ConsentAccess {
    return { person: { id: user.id, name: user.name, role: user.role }, ask: this.asker(turn, hub, user), shared };
  }

  private asker(turn: WebTurn, hub: TurnHub, user: WebUser): ConsentAsk {
    return (request, signal) =>
      new Promise<ConsentAnswer>((resolve) => {
        if (signal.aborted || turn.controller.signal.aborted) {
          resolve('no');
          return;
        }
        const id = randomUUID().slice(0, 8);
        const key = `${turn.id}:${id}`;
        const settle = (answer: ConsentAnswer) => {
          if (!this.waiting.delete(key)) return;
          hub.push(turn, 'consent_done', { id, answer });
          resolve(answer);
        };
        this.waiting.set(key, { userId: user.id, settle });
        // Stop, the deadline or the turn's end: the question is answered `no`
        const stop = () => settle('no');
        signal.addEventListener('abort', stop, { once: true });
        turn.controller.signal.addEventListener('abort', stop, { once: true });
        const event: ConsentEventWire = { id, items: request.items.map(itemWire), service: serviceWire(request.service), timeoutMs: request.timeoutMs, askedAt: Date.now() };
        hub.push(turn, 'consent', event);
      });
  }

  /** Settles an open question of `turnId`; only the person who started the turn may. */
  answer(turnId: string, id: string, userId: string, answer: ConsentAnswer): ConsentReply {
    const open = this.waiting.get(`${turnId}:${id}`);
    if (!open) return 'gone';
    if (open.userId !== userId) return 'not-yours';
    open.settle(answer);
    return 'answered';
  }
}
