/**
 * "Ask in the moment" (issue 40) as the web API sends it: the question a turn asks before an item
 * labelled sensitive goes to a hosted service, and the person's own ledger of answers. Items are
 * named by where they live, their short name and kind (the core's `itemLabel`) — never their
 * content. Types only, for the server and the browser alike.
 */

/** The answers, as the dialog's buttons send them. */
export type ConsentAnswerWire = 'once' | 'always' | 'no';

/** The service the items would go to: its destination kind, its id, and what it is called ("the chat model"). */
export interface ConsentServiceWire {
  kind: string;
  id: string;
  what: string;
}

/** One item of a question or of the ledger, named without its content. */
export interface ConsentItemWire {
  /** e.g. `People/Ann › medication (health)`. */
  label: string;
  /** The kind in words: `health`, `money`, `credential`. */
  kind?: string;
}

/** The `consent` event of a turn's stream; `consent_done { id, answer }` closes it. */
export interface ConsentEventWire {
  id: string;
  items: ConsentItemWire[];
  service: ConsentServiceWire;
  /** How long the person has; then the answer is `no`. */
  timeoutMs: number;
  /** When the question was asked (epoch ms, the server's clock): a page opened later counts down from there. */
  askedAt: number;
}

/** One answer in the signed-in person's ledger (GET /api/privacy/consents). */
export interface ConsentGrantWire {
  id: string;
  item: ConsentItemWire;
  service: ConsentServiceWire;
  answer: 'once' | 'always';
  /** ISO time of the answer. */
  at: string;
  /** ISO time an "always" was revoked. */
  revoked?: string;
  /** An "always" that still stands (it can be revoked). */
  standing: boolean;
}

export interface ConsentLedgerWire {
  mode: 'ask' | 'withhold';
  /** The mode in words, as `/privacy consents` says it. */
  modeLine: string;
  consents: ConsentGrantWire[];
}
