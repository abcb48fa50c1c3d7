/**
 * Asking in the moment: before an item labelled sensitive goes to a hosted service, the person
 * it is about decides. This file is the contract between the turn (which finds the items and
 * pauses, core/privacy/consent-turn.ts), the front doors (which ask: a y/N, Discord buttons, a
 * web dialog) and the ledger (which keeps every answer across restarts, in private.db).
 *
 * The question names items by page, record name and kind — never their content — and the
 * service by its destination kind and id. It is never sent to the hosted model.
 */
import type { DestinationKind } from './destinations.js';
import type { SensitiveKind } from './sensitive-words.js';
import { may, type Role } from '../roles.js';
import { nameTokens } from '../names.js';

/** Which way Charlie goes when a turn would need a sensitive item at a hosted service. */
export const CONSENT_MODES = ['withhold', 'ask'] as const;
export type ConsentMode = (typeof CONSENT_MODES)[number];

/** The person's answer. No answer within the deadline is `no`. */
export const CONSENT_ANSWERS = ['once', 'always', 'no'] as const;
export type ConsentAnswer = (typeof CONSENT_ANSWERS)[number];

/** What a kind is called in a question. */
export const KIND_WORDS: Record<SensitiveKind, string> = { phi: 'health', financial: 'money', credential: 'credential' };

/** One labelled item a turn would send, named without its content. */
export interface ConsentItem {
  /** Stable across turns and restarts: a record's block id (`r-…`), `page:<path>`, `<file>#<hash>`. */
  id: string;
  /** Where it lives, as a person reads it: `People/Bob`, `Users/Ann/USER`, `your private memory`. */
  where: string;
  /** The record's short name when it has one (its attribute or page title), never its statement. */
  name?: string;
  /** Health, money, credential; absent: sensitive without a kind. */
  kind?: SensitiveKind;
  /**
   * Whose item it is, when it is about one person: their id (a private conversation's owner) or
   * their name (a person's page, the speaker of an archived message). Absent: a shared project item.
   */
  subject?: string;
}

/** The service the items would go to. */
export interface ConsentService {
  kind: DestinationKind;
  /** e.g. `gpt-4o@api.openai.com`, `edge-tts`, a tool server's name. */
  id: string;
}

/** Who answers: the person whose turn it is, and their role in a shared project. */
export interface ConsentPerson {
  id: string;
  name: string;
  role: Role;
}

export interface ConsentRequest {
  /** Who is asked: the person whose turn it is. */
  asker: { id: string; name: string };
  /** Only items this person may consent for (`mayConsent`), each named without its content. */
  items: ConsentItem[];
  service: ConsentService;
  /** The turn runs in a place others read (a shared channel): the door asks privately. */
  shared: boolean;
  /** How long the person has; then the answer is `no`. */
  timeoutMs: number;
}

/**
 * A front door's way of asking. Resolves to the answer; `no` when refused, unanswered within the
 * deadline, or stopped (the signal). Absent on a door: the turn withholds, as in `withhold` mode.
 */
export type ConsentAsk = (request: ConsentRequest, signal: AbortSignal) => Promise<ConsentAnswer>;

/** What a front door gives a turn so that it can ask (HandleOptions.consent). */
export interface ConsentAccess {
  person: ConsentPerson;
  ask: ConsentAsk;
  /** Others read the place (a shared Discord channel, a shared web project). */
  shared: boolean;
}

/** One answer in the ledger: a yes for once, or a standing "always" until revoked. */
export interface ConsentGrant {
  id: string;
  /** Who answered. */
  userId: string;
  item: ConsentItem;
  service: ConsentService;
  answer: Exclude<ConsentAnswer, 'no'>;
  /** ISO time of the answer. */
  at: string;
  /** ISO time an "always" was revoked; absent while it stands. */
  revoked?: string;
}

/** The ledger of consents, kept where the private memory lives. Owned by the core; SQLite implements it. */
export interface ConsentLedger {
  /** Every answer of one person, newest first (standing, used once, and revoked). */
  list(userId: string): Promise<ConsentGrant[]>;
  record(userId: string, item: ConsentItem, service: ConsentService, answer: ConsentGrant['answer'], at: string): Promise<ConsentGrant>;
  /** Ends a standing "always" by id; false when the person has no standing grant of that id. Takes effect on the next turn. */
  revoke(userId: string, grantId: string, at: string): Promise<boolean>;
  /** Whether `userId` always allows `itemId` at this service (a standing, unrevoked grant). */
  allows(userId: string, itemId: string, service: ConsentService): Promise<boolean>;
}

const sameName = (a: string, b: string) => {
  const x = nameTokens(a).join(' ');
  return x.length > 0 && x === nameTokens(b).join(' ');
};

/**
 * Whose data it is: a person consents for an item about themselves (by id or name), or, for a
 * shared project item, when their role may change shared memory. Nobody consents for an item
 * about someone else.
 */
export function mayConsent(person: ConsentPerson, item: ConsentItem): boolean {
  if (item.subject !== undefined) return item.subject === person.id || sameName(item.subject, person.name);
  return may(person.role, 'edit-memory');
}

/** How an item is named in a question or a list: where, its name, its kind — never its content. */
export function itemLabel(item: ConsentItem): string {
  const kind = item.kind ? ` (${KIND_WORDS[item.kind]})` : '';
  return `${item.where}${item.name ? ` › ${item.name}` : ''}${kind}`;
}
