/**
 * Asking in the moment: before an item labelled sensitive goes to a hosted service, the person
 * it is about decides. This file is the contract between the turn (which finds the items and
 * pauses), the front doors (which ask: a y/N, Discord buttons, a web dialog, a spoken question)
 * and the ledger (which remembers "always" across restarts, in the private store).
 *
 * The question names items by page, record name and kind — never their content — and the
 * service by its destination kind and id. It is never sent to the hosted model.
 */
import type { DestinationKind } from './destinations.js';
import type { SensitiveKind } from './sensitive-words.js';

/** Which way Charlie goes when a turn would need a sensitive item at a hosted service. */
export const CONSENT_MODES = ['withhold', 'ask'] as const;
export type ConsentMode = (typeof CONSENT_MODES)[number];

/** The person's answer. No answer within the deadline is `no`. */
export const CONSENT_ANSWERS = ['once', 'always', 'no'] as const;
export type ConsentAnswer = (typeof CONSENT_ANSWERS)[number];

/** One labelled item a turn would send, named without its content. */
export interface ConsentItem {
  /** Stable across turns and restarts: a record's block id (`^r-…`), a page path, `user:<id>`, `dm:<id>`. */
  id: string;
  /** Where it lives, as a person reads it: `People/Bob`, `your USER.md`, `your private memory`. */
  where: string;
  /** The record's short name when it has one (its attribute or page title), never its statement. */
  name?: string;
  /** Health, money, credential; absent: sensitive without a kind. */
  kind?: SensitiveKind;
  /** Whose item it is: the person's id when the item is about one person; absent: a shared project item. */
  subject?: string;
}

/** The service the items would go to. */
export interface ConsentService {
  kind: DestinationKind;
  /** e.g. `gpt-4o@api.openai.com`, `edge-tts`, a tool server's name. */
  id: string;
}

export interface ConsentRequest {
  /** Who is asked: the person whose turn it is. */
  asker: { id: string; name: string };
  /** Only items this person may consent for (the turn filters by `mayConsent` before asking). */
  items: ConsentItem[];
  service: ConsentService;
  /** The turn runs in a place others read (a shared channel): the door asks privately. */
  shared: boolean;
}

/**
 * A front door's way of asking. Resolves to the answer; `no` when refused, unanswered within the
 * deadline, or stopped (the signal). Absent on a door: the turn withholds, as in `withhold` mode.
 */
export type ConsentAsk = (request: ConsentRequest, signal?: AbortSignal) => Promise<ConsentAnswer>;

/** One standing "always" in the ledger. */
export interface ConsentGrant {
  id: string;
  /** Who granted it. */
  userId: string;
  item: ConsentItem;
  service: ConsentService;
  /** ISO time of the answer. */
  at: string;
}

/** The ledger of standing consents, kept where the private memory lives. Owned by the core; SQLite implements it. */
export interface ConsentLedger {
  /** Standing grants of one person, newest first. */
  list(userId: string): Promise<ConsentGrant[]>;
  grant(userId: string, item: ConsentItem, service: ConsentService, at: string): Promise<ConsentGrant>;
  /** Removes one grant by id; false when the person has no grant of that id. Takes effect on the next turn. */
  revoke(userId: string, grantId: string): Promise<boolean>;
  /** Whether `userId` always allows `itemId` at this service. */
  allows(userId: string, itemId: string, service: ConsentService): Promise<boolean>;
}
