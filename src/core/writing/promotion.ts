/**
 * The promotion gate: every fact the memory lane proposes is a candidate, judged in plain code
 * before anything reaches a page. Fixed rules first — never promoted: Charlie's own replies,
 * tool and system text, pasted tool output, greetings and chit-chat, weather talk; always
 * promoted: "remember that …", "don't forget …", 📌 — then a score from four factors
 * (gate-factors.ts: recency against the last reflection · salience · identity · source),
 * weighted and thresholded as chosen on the labelled set in test/fixtures/gate/. Novelty is
 * judged against what memory holds (`known`): a near restatement refreshes the record it restates.
 * Below the threshold a candidate waits (CandidateStore, under data/) and is promoted when it
 * is seen again in a separate conversation before it expires. Every verdict carries its four
 * factors, and a promoted record keeps them in its history (`_log.md`).
 */
import { comparable as norm } from '../comparable.js';
import { askedToRemember, conversationOf, factors, PROMOTE_AT, rejection, scoreOf, sourceWeight } from './gate-factors.js';
import type { Candidate, CandidateStore, ScoreParts } from '../records/candidates.js';
import type { GraphFact, GraphWrite, LogEntry } from '../ports/index.js';
import { sensitivityOfText, stricter } from '../privacy/sensitivity.js';
import { matchTerms } from '../records/match.js';
import { exactDifference } from './statement-facts.js';
import { sameFact } from '../reflection/fact-difference.js';

export const CANDIDATE_TTL_DAYS = 14;
const DAY_MS = 86_400_000;

export type Verdict = { kind: 'promote'; why: string; score: number; parts: ScoreParts } | { kind: 'wait'; score: number; parts: ScoreParts } | { kind: 'reject'; why: string };

/** A short, stable key (`c-` + FNV-1a of entity and statement) a person can type. */
export function candidateKey(entity: string, text: string): string {
  let h = 0x811c9dc5;
  for (const ch of `${norm(entity)}\n${norm(text)}`) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `c-${h.toString(16).padStart(8, '0')}`;
}

export interface GateContext {
  now: Date;
  /** Names (titles, aliases) of tracked pages and speakers, normalised or not. */
  tracked: readonly string[];
  /** When the project was last reflected on (recency is measured against it); absent or null = never. */
  lastReflection?: Date | null;
  /** What memory already holds of the entities at hand (their pages' open records): novelty is judged against it. */
  known?: readonly KnownRecord[];
}

/** A record memory holds, with the names (title, aliases) of the entity it is about. */
export interface KnownRecord {
  names: readonly string[];
  statement: string;
}

/**
 * The statement of a held record that `text` restates in other words ("Leads design at Acme"
 * for "Is head of design at Acme" is not; "Sarah leads the design team" for "Leads the design
 * team" is), or null when the fact is novel. A near restatement refreshes the record it restates
 * instead of adding a second one; a new fact about a known entity is novel and judged as any.
 * Told again in the same words is not a restatement in other words (null): the write refreshes
 * that very record, never a twin of it that memory also holds (two records of one fact can both
 * be held until reflection merges them, e.g. when both were written in one batch).
 */
export function restates(entity: string, text: string, known: readonly KnownRecord[]): string | null {
  const name = norm(entity);
  const t = norm(text);
  const own = known.filter((k) => k.names.some((n) => norm(n) === name));
  if (own.some((k) => norm(k.statement) === t)) return null;
  for (const k of own) {
    if (sameFact(k.statement, text, { subject: entity })) return k.statement;
    if (exactDifference(k.statement, text) !== null) continue;
    const a = new Set(matchTerms(k.statement));
    const b = new Set(matchTerms(text));
    const shared = [...a].filter((w) => b.has(w)).length;
    if (shared >= 2 && shared / (a.size + b.size - shared) >= NEAR) return k.statement;
  }
  return null;
}

/** Where a gate's context comes from: the pages the memory model was shown, and what the graph can tell of them. */
export interface GateSources {
  map: readonly { path: string; title: string; aliases: readonly string[] }[];
  /** Speakers and other names that count as tracked beside the pages. */
  names: readonly string[];
  /** The open records of these pages (paths under notes/): the gate judges novelty against them. */
  known?: (pages: readonly string[]) => Promise<{ page: string; statement: string }[]>;
  /** When reflection last ran here (the gate's recency is measured against it); absent = never. */
  lastReflection?: () => Promise<Date | null>;
}

/** The gate's context for a batch (distillation or ingestion): tracked names, held records, last reflection; a failing read counts as none. */
export async function gateContext(now: Date, from: GateSources): Promise<GateContext> {
  const tracked = [...from.map.flatMap((p) => [p.title, ...p.aliases]), ...from.names];
  const known = knownOf(from.map, (await from.known?.(from.map.map((p) => p.path)).catch(() => [])) ?? []);
  return { now, tracked, known, lastReflection: (await from.lastReflection?.().catch(() => null)) ?? null };
}

/** The held records of the pages in a page map, with each page's names. */
function knownOf(map: readonly { path: string; title: string; aliases: readonly string[] }[], records: readonly { page: string; statement: string }[]): KnownRecord[] {
  const names = new Map(map.map((p) => [p.path, [p.title, ...p.aliases]]));
  return records.flatMap((r) => {
    const n = names.get(r.page);
    return n ? [{ names: n, statement: r.statement }] : [];
  });
}

/** Share of content words two statements must share to be one fact told twice (Jaccard). */
const NEAR = 0.75;

export function judge(entity: string, fact: GraphFact, entry: LogEntry | undefined, ctx: GateContext): Verdict {
  if (!entry) return { kind: 'reject', why: 'no message to cite' };
  const rejected = rejection(entry, fact);
  if (rejected) return { kind: 'reject', why: rejected };
  const parts = factors(entity, fact, entry, { tracked: new Set(ctx.tracked.map(norm)), lastReflection: ctx.lastReflection ?? null });
  const score = scoreOf(parts);
  if (askedToRemember(entry)) return { kind: 'promote', why: 'asked to remember', score, parts };
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
      const verdict = judge(e.name, f, entry, ctx);
      if (verdict.kind === 'reject') {
        report.rejected.push({ entity: e.name, text: f.text, why: verdict.why });
        continue;
      }
      const held = restates(e.name, f.text, ctx.known ?? []);
      if (held) {
        // told again in other words: the record memory holds is refreshed (said, confidence), not doubled
        waiting.delete(key);
        facts.push({ ...f, text: held });
        report.promoted.push({ entity: e.name, text: held, why: 'restates a record memory holds' });
        continue;
      }
      const conversation = entry ? conversationOf(entry) : '';
      const earlier = waiting.get(key);
      // seen again, but in the same conversation, is still one telling
      const seen = earlier && (earlier.conversation === undefined || earlier.conversation !== conversation) ? earlier : undefined;
      if (verdict.kind === 'promote' || seen) {
        waiting.delete(key);
        // rules and the memory model: the stricter wins
        const sensitivity = stricter(sensitivityOfText(f.text), f.sensitivity);
        const gate =
          verdict.kind === 'promote'
            ? gateText(verdict)
            : `seen again in another conversation before it expired (${scoreText(verdict.score, verdict.parts)} now; first ${seen?.score.toFixed(2) ?? '?'} on ${seen?.firstSeen.slice(0, 10) ?? '?'})`;
        facts.push({ ...f, confidence: confidenceOf(f.source, verdict), via: viaOf(f.source), gate, ...(sensitivity ? { sensitivity } : {}) });
        report.promoted.push({ entity: e.name, text: f.text, why: verdict.kind === 'promote' ? verdict.why : 'seen again' });
        continue;
      }
      if (earlier) {
        report.waiting.push(earlier);
        continue;
      }
      const c: Candidate = {
        key,
        entity: e.name,
        ...(e.category ? { category: e.category } : {}),
        fact: f,
        message: entry?.text ?? '',
        conversation,
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
/** A score with its four factors, as `_log.md` and `/memory candidates` show it. */
export function scoreText(score: number, parts: ScoreParts): string {
  return `gate ${score.toFixed(2)} (recency ${num(parts.recency)} · salience ${num(parts.salience)} · identity ${num(parts.identity)} · source ${num(parts.source)})`;
}

/** The gate's verdict as the record's history keeps it. */
function gateText(verdict: Extract<Verdict, { kind: 'promote' }>): string {
  const text = scoreText(verdict.score, verdict.parts);
  return verdict.why === 'score' ? text : `${verdict.why}; ${text}`;
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
