/**
 * The promotion gate's four factors and its fixed rules, in plain code (DESIGN.md: recency ·
 * salience · identity overlap · source confidence). Each factor is 0–1:
 *   recency   1 for a message since the last reflection, halving every RECENCY_HALF_LIFE_DAYS
 *             it lies before it (an old archive re-read is less pressing than today's talk);
 *   salience  how lasting the kind of fact is (identity, relationship, rule ≫ episode ≫ untyped; an
 *             untyped fact by the kind its statement reads as), 1 for what earns a record at first
 *             mention (gate-significance.ts: plans, trips, dated commitments and events,
 *             relationships, lasting preferences),
 *             lowered when the message hedges ("I think", "maybe") or the fact is a passing state
 *             ("is tired today") or the item is routine (a receipt, a card payment);
 *   identity  the entity is a tracked page or a speaker (1), named in the message (0.6), or
 *             neither (0.2);
 *   source    ingest 1 ≫ typed 0.7 ≫ voice 0.5, halved for a passing mention (the message does not
 *             name the entity or say most of the fact).
 * The weights and the threshold were chosen on the labelled set in test/fixtures/gate/
 * (`npm run tune:gate` prints the sweep); the gate test prints precision and recall on it.
 */
import { comparable as norm } from '../comparable.js';
import { kindOf, significance } from './gate-significance.js';
import type { GraphFact, LogEntry } from '../ports/index.js';
import type { ScoreParts } from '../records/candidates.js';

export type GateWeights = ScoreParts;

/** Chosen on the dev conversations of test/fixtures/gate/ (see scripts/tune-gate.ts). */
export const GATE_WEIGHTS: GateWeights = { recency: 0.1, salience: 0.5, identity: 0.35, source: 0.05 };
export const PROMOTE_AT = 0.82;
const RECENCY_HALF_LIFE_DAYS = 7;
const DAY_MS = 86_400_000;

const SYSTEM = /^(?:system|tool|charlie|assistant)$/i;
const SALIENT = /(?:\bremember (?:that|this)\b|\bdon'?t forget\b|\bnote (?:that|this)\b|\bkeep in mind\b|📌)/i;
const CHIT_CHAT =
  /^(?:(?:hi|hey|hello|yo|hiya|good (?:morning|afternoon|evening|night)|thanks?(?: you)?|thx|ty|ok(?:ay)?|cool|nice|great|lol|haha+|bye|see you|cheers|sure|yes|no|yep|nope|np|how are you|what'?s up|sup|gn|gm)[\s!.,?:)😀-🙏]*)+$/iu;
/** A fact that is about greeting, thanking or small talk rather than about the entity. */
const SMALL_TALK_FACT = /^(?:says?|said|greets?|greeted|waves?|thanks?|thanked|is thankful|says? (?:hi|hello|good (?:morning|night)|thanks|bye))\b/i;
const WEATHER = /\b(?:weather|rain(?:s|ed|ing|y)?|sunny|snow(?:s|ed|ing|y)?|forecast|temperatures?|humid|cloudy|windy|foggy|degrees|heatwave|drizzl\w*|storm(?:s|y)?|cold out|hot out|freezing)\b/i;
/** Pasted or relayed tool output: a code block, a JSON value, a shell prompt, a stack trace. */
const TOOL_OUTPUT = /^\s*(?:```|[[{][\s\S]*[\]}]\s*$|\$ |> \w+|Traceback|(?:Error|Exception|WARN|INFO|DEBUG)\b[:\]])|\n\s+at \S+ \(/;
const HEDGE = /\b(?:i think|i guess|i believe|maybe|perhaps|probably|might|apparently|not sure|something about|or something|i heard|rumou?r|supposedly|kind of|sort of|possibly|could be)\b/i;
const PASSING_STATE =
  /\b(?:today|tonight|right now|this (?:morning|afternoon|evening)|at the moment|just now|minutes? away|on (?:my|the|our) way|(?:is|am|are) leaving now|heading (?:out|home|off)|just got (?:home|back|in|up))\b|\b(?:is|was|am|i'm|feels?|felt|seems?|got) (?:a bit |so |very |really )?(?:tired|hungry|sleepy|bored|busy|late|grumpy|stuck in traffic|running late|cold|in a hurry)\b/i;

/** Machine-sent, routine items: receipts, shipping and login notices, card payments, newsletters. */
const ROUTINE =
  /\b(?:receipt|order #|order (?:no|number)|has shipped|out for delivery|newsletter|unsubscribe|card payment|direct debit|transaction|verification code|one-time code|automated message|do not reply|no-reply|was delivered)\b/i;

const TYPE_SALIENCE: Record<string, number> = { identity: 1, relationship: 1, rule: 1, preference: 0.9, commitment: 0.9, episode: 0.7 };

/** A fixed rule that rejects a candidate whatever its score, or null. */
export function rejection(entry: LogEntry, fact: GraphFact): string | null {
  if (entry.role !== 'user' || SYSTEM.test(entry.speaker) || /^tool:/i.test(entry.source)) return "Charlie's own reply, tool or system text";
  if (TOOL_OUTPUT.test(entry.text)) return 'tool output';
  if (SALIENT.test(entry.text)) return null;
  if (isChitChat(entry.text) || isChitChat(fact.text) || SMALL_TALK_FACT.test(fact.text.trim())) return 'greeting or chit-chat';
  if (WEATHER.test(fact.text) && fact.type !== 'preference') return 'weather talk';
  return null;
}

/** "remember that …", "don't forget …", 📌: promoted at once. */
export function askedToRemember(entry: LogEntry): boolean {
  return entry.role === 'user' && SALIENT.test(entry.text);
}

export function isChitChat(text: string): boolean {
  return CHIT_CHAT.test(text.trim());
}

/** ingest 1 ≫ typed 0.7 ≫ voice 0.5. */
export function sourceWeight(source: string): number {
  if (/^inbox\//i.test(source) || /^ingest:/i.test(source)) return 1;
  if (/^voice:/i.test(source)) return 0.5;
  return 0.7;
}

function named(entity: string, message: string): boolean {
  const m = ` ${norm(message)} `;
  return norm(entity)
    .split(' ')
    .some((w) => w.length > 1 && m.includes(` ${w} `));
}

/** A speaker talking about themself in the first person names themself ("I went …" about Caroline, said by Caroline). */
const FIRST_PERSON = /\b(?:i|i'm|i’m|i've|i’ve|i'd|i'll|me|my|mine|myself|we|we're|we've|our|us)\b/i;

/** The message does not name the entity, or says less than half of the fact's words (`speaker`: who said it). */
export function passingMention(entity: string, fact: string, message: string, speaker = ''): boolean {
  const m = ` ${norm(message)} `;
  const own = speaker !== '' && norm(speaker) === norm(entity) && FIRST_PERSON.test(message);
  const name = norm(entity).split(' ');
  // the speaker's own name in the fact ("Caroline attended …") is not a word their message repeats
  const words = norm(fact)
    .split(' ')
    .filter((w) => w.length > 3 && !(own && name.includes(w)));
  const said = words.filter((w) => m.includes(` ${w}`)).length;
  return (!own && !named(entity, message)) || (words.length > 0 && said / words.length < 0.5);
}

export interface FactorContext {
  /** Normalised names (titles, aliases) of tracked pages and speakers. */
  tracked: ReadonlySet<string>;
  /** When the project was last reflected on; null = never (every message counts as recent). */
  lastReflection: Date | null;
}

export function factors(entity: string, fact: GraphFact, entry: LogEntry, ctx: FactorContext): ScoreParts {
  const time = Date.parse(entry.time);
  const before = ctx.lastReflection && Number.isFinite(time) ? Math.max(0, (ctx.lastReflection.getTime() - time) / DAY_MS) : 0;
  const passing = passingMention(entity, fact.text, entry.text, entry.speaker);
  // untyped: the kind the statement reads as; a plan, a dated commitment or event, a relationship, a lasting preference
  // that the message itself says (not a passing mention): full salience at first mention
  const type = fact.type?.trim() || kindOf(fact.text);
  let salience = !passing && significance({ ...fact, type }) ? 1 : (TYPE_SALIENCE[type] ?? 0.4);
  if (HEDGE.test(entry.text)) salience *= 0.5;
  if (PASSING_STATE.test(fact.text) && fact.type !== 'commitment') salience *= 0.4;
  if (ROUTINE.test(entry.text)) salience *= 0.3;
  const identity = ctx.tracked.has(norm(entity)) ? 1 : named(entity, entry.text) ? 0.6 : 0.2;
  return {
    recency: Math.pow(0.5, before / RECENCY_HALF_LIFE_DAYS),
    salience,
    identity,
    source: sourceWeight(entry.source) * (passing ? 0.5 : 1),
  };
}

export function scoreOf(parts: ScoreParts, weights: GateWeights = GATE_WEIGHTS): number {
  return weights.recency * parts.recency + weights.salience * parts.salience + weights.identity * parts.identity + weights.source * parts.source;
}

/**
 * Which conversation a message belongs to: a chat channel (or voice, terminal, web) on one day,
 * or one inbox file. "Seen twice in separate conversations" compares these.
 */
export function conversationOf(entry: LogEntry): string {
  const day = entry.time.slice(0, 10);
  const discord = /^https:\/\/discord\.com\/channels\/([^/]+)\/([^/]+)\//.exec(entry.source);
  if (discord) return `discord:${discord[2] ?? ''}:${day}`;
  const file = /^(inbox\/[^#]+)/i.exec(entry.source);
  if (file?.[1]) return file[1];
  return `${entry.source.split(':')[0] ?? ''}:${day}`;
}
