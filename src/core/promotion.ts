/**
 * The promotion gate: every fact the memory lane proposes is a candidate, scored in plain code
 * on four factors before anything reaches a page —
 *   score = 0.2·recency + 0.25·novelty + 0.25·identity + 0.3·source
 * recency: how fresh the message is (halves every RECENCY_HALF_LIFE_DAYS); novelty: 1 when
 * recall finds no note about the statement, else 0.4; identity: the entity is a tracked page
 * (in the page map, by title or alias) or a speaker; source: ingest 1 ≫ typed 0.7 ≫ voice 0.5,
 * halved for a passing mention (the message does not name the entity or say most of the fact).
 * Salience overrides: "remember that …", "don't forget …" or 📌 promote at once. Never
 * promoted: Charlie's own replies, tool and system text, greetings and chit-chat.
 * Below the threshold a candidate waits (CandidateStore, under data/) and is promoted when it
 * is seen again before it expires.
 */
import { comparable as norm } from './comparable.js';
import type { GraphFact, GraphWrite, LogEntry } from './ports.js';
import { sensitivityOfText, stricter } from './sensitivity.js';

export const PROMOTE_AT = 0.6;
export const CANDIDATE_TTL_DAYS = 14;
const RECENCY_HALF_LIFE_DAYS = 7;
const DAY_MS = 86_400_000;

export interface ScoreParts {
  recency: number;
  novelty: number;
  identity: number;
  source: number;
}

export interface Candidate {
  /** From entity + normalised statement: the same fact proposed again has the same key. */
  key: string;
  entity: string;
  fact: GraphFact;
  /** The exact message the fact came from. */
  message: string;
  score: number;
  parts: ScoreParts;
  firstSeen: string;
  expires: string;
}

/** Waiting candidates of one project (or one private conversation). */
export interface CandidateStore {
  list(): Promise<Candidate[]>;
  replace(candidates: Candidate[]): Promise<void>;
}

export type Verdict = { kind: 'promote'; why: string; score: number; parts?: ScoreParts } | { kind: 'wait'; score: number; parts: ScoreParts } | { kind: 'reject'; why: string };

const SALIENT = /(?:\bremember (?:that|this)\b|\bdon'?t forget\b|\bnote (?:that|this)\b|\bkeep in mind\b|📌)/i;
const CHIT_CHAT =
  /^(?:(?:hi|hey|hello|yo|hiya|good (?:morning|afternoon|evening|night)|thanks?(?: you)?|thx|ty|ok(?:ay)?|cool|nice|great|lol|haha+|bye|see you|cheers|sure|yes|no|yep|nope|np|how are you|what'?s up|sup|gn|gm)[\s!.,?:)😀-🙏]*)+$/iu;
const SYSTEM = /^(?:system|tool|charlie|assistant)$/i;

/** A short, stable key (`c-` + FNV-1a of entity and statement) a person can type. */
export function candidateKey(entity: string, text: string): string {
  let h = 0x811c9dc5;
  for (const ch of `${norm(entity)}\n${norm(text)}`) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `c-${h.toString(16).padStart(8, '0')}`;
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

function passingMention(entity: string, fact: string, message: string): boolean {
  const m = ` ${norm(message)} `;
  const named = norm(entity)
    .split(' ')
    .some((w) => w.length > 1 && m.includes(` ${w} `));
  const words = norm(fact)
    .split(' ')
    .filter((w) => w.length > 3);
  const said = words.filter((w) => m.includes(` ${w}`)).length;
  return !named || (words.length > 0 && said / words.length < 0.5);
}

export interface GateContext {
  now: Date;
  /** Names (titles, aliases) of tracked pages and speakers, normalised or not. */
  tracked: readonly string[];
  /** Whether existing memory already holds something like the statement (recall). */
  known(text: string): Promise<boolean>;
}

export async function judge(entity: string, fact: GraphFact, entry: LogEntry | undefined, ctx: GateContext): Promise<Verdict> {
  if (!entry) return { kind: 'reject', why: 'no message to cite' };
  if (entry.role !== 'user' || SYSTEM.test(entry.speaker)) return { kind: 'reject', why: "Charlie's own reply, tool or system text" };
  if (isChitChat(entry.text) || isChitChat(fact.text)) return { kind: 'reject', why: 'greeting or chit-chat' };
  if (SALIENT.test(entry.text)) return { kind: 'promote', why: 'asked to remember', score: 1 };
  const age = Math.max(0, (ctx.now.getTime() - Date.parse(entry.time)) / DAY_MS);
  const tracked = new Set(ctx.tracked.map(norm));
  const parts: ScoreParts = {
    recency: Number.isNaN(age) ? 0.5 : Math.pow(0.5, age / RECENCY_HALF_LIFE_DAYS),
    novelty: (await ctx.known(fact.text).catch(() => false)) ? 0.4 : 1,
    identity: tracked.has(norm(entity)) ? 1 : 0,
    source: sourceWeight(entry.source) * (passingMention(entity, fact.text, entry.text) ? 0.5 : 1),
  };
  const score = 0.2 * parts.recency + 0.25 * parts.novelty + 0.25 * parts.identity + 0.3 * parts.source;
  return score >= PROMOTE_AT ? { kind: 'promote', why: 'score', score, parts } : { kind: 'wait', score, parts };
}

export interface GateReport {
  promoted: { entity: string; text: string; why: string }[];
  waiting: Candidate[];
  rejected: { entity: string; text: string; why: string }[];
}

/**
 * The write with only promoted facts (a waiting candidate seen again is promoted), and the
 * store updated: new waiting candidates added, promoted and expired ones removed.
 */
export async function gateWrite(write: GraphWrite, entries: readonly LogEntry[], ctx: GateContext, store: CandidateStore): Promise<{ write: GraphWrite; report: GateReport }> {
  // a reply is archived with the source of the message it answers: that source means the person's message
  const bySource = new Map<string, LogEntry>();
  for (const e of entries) if (e.role === 'user' || !bySource.has(e.source)) bySource.set(e.source, e);
  const now = ctx.now.toISOString();
  const waiting = new Map((await store.list()).filter((c) => c.expires > now).map((c) => [c.key, c]));
  const report: GateReport = { promoted: [], waiting: [], rejected: [] };
  const entities = [];
  for (const e of write.entities) {
    const facts: GraphFact[] = [];
    for (const f of e.facts) {
      const entry = bySource.get(f.source);
      const key = candidateKey(e.name, f.text);
      const verdict = await judge(e.name, f, entry, ctx);
      if (verdict.kind === 'reject') {
        report.rejected.push({ entity: e.name, text: f.text, why: verdict.why });
        continue;
      }
      const seen = waiting.get(key);
      if (verdict.kind === 'promote' || seen) {
        waiting.delete(key);
        // rules and the memory model: the stricter wins
        const sensitivity = stricter(sensitivityOfText(f.text), f.sensitivity);
        const gate =
          verdict.kind === 'promote'
            ? gateText(verdict)
            : `seen again before it expired (${scoreText(verdict.score, verdict.parts)} now; first ${seen?.score.toFixed(2) ?? '?'} on ${seen?.firstSeen.slice(0, 10) ?? '?'})`;
        facts.push({ ...f, confidence: confidenceOf(f.source, verdict), via: viaOf(f.source), gate, ...(sensitivity ? { sensitivity } : {}) });
        report.promoted.push({ entity: e.name, text: f.text, why: verdict.kind === 'promote' ? verdict.why : 'seen again' });
        continue;
      }
      const c: Candidate = {
        key,
        entity: e.name,
        fact: f,
        message: entry?.text ?? '',
        score: verdict.score,
        parts: verdict.parts,
        firstSeen: now,
        expires: new Date(ctx.now.getTime() + CANDIDATE_TTL_DAYS * DAY_MS).toISOString(),
      };
      waiting.set(key, c);
      report.waiting.push(c);
    }
    entities.push({ ...e, facts });
  }
  await store.replace([...waiting.values()]);
  const linked = new Set(write.links.flatMap((l) => [norm(l.from), norm(l.to)]));
  // a page is created only for something lasting: a promoted fact, an evidenced link, a speaker
  const kept = entities.map((e) => (e.create && e.facts.length === 0 && !e.discordId && !linked.has(norm(e.name)) && !ctx.tracked.some((t) => norm(t) === norm(e.name)) ? { ...e, create: false } : e));
  return { write: { ...write, entities: kept }, report };
}

const num = (n: number) => String(Math.round(n * 100) / 100);
function scoreText(score: number, parts?: ScoreParts): string {
  return `gate ${score.toFixed(2)}${parts ? ` (recency ${num(parts.recency)} · novelty ${num(parts.novelty)} · identity ${num(parts.identity)} · source ${num(parts.source)})` : ''}`;
}

/** The gate's verdict as the record's history keeps it. */
function gateText(verdict: Extract<Verdict, { kind: 'promote' }>): string {
  return verdict.why === 'score' ? scoreText(verdict.score, verdict.parts) : `${verdict.why} (gate ${verdict.score.toFixed(2)})`;
}

/** Promote a waiting candidate by hand (`/memory candidates` → promote): it leaves the store. */
export async function takeCandidate(store: CandidateStore, key: string): Promise<Candidate | null> {
  const all = await store.list();
  const found = all.find((c) => c.key === key || c.key.startsWith(key)) ?? null;
  if (found) await store.replace(all.filter((c) => c !== found));
  return found;
}

export function viaOf(source: string): string {
  if (/^inbox\//i.test(source) || /^ingest:/i.test(source)) return 'ingest';
  return /^voice:/i.test(source) ? 'voice' : 'chat';
}

/** What a promoted record starts with: how trustworthy its source is. */
function confidenceOf(source: string, verdict: Verdict): number {
  if (verdict.kind === 'promote' && verdict.why === 'asked to remember') return 1;
  return Math.round(Math.min(1, 0.3 + 0.7 * sourceWeight(source)) * 100) / 100;
}
