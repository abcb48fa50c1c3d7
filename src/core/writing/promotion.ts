/**
 * The promotion gate: every fact the memory lane proposes is a candidate, judged in plain code
 * before anything reaches a page. Fixed rules first — never promoted: Charlie's own replies,
 * tool and system text, pasted tool output, greetings and chit-chat, weather talk; always
 * promoted: "remember that …", "don't forget …", 📌 — then a score from four factors
 * (gate-factors.ts: recency against the last reflection · salience · identity · source),
 * weighted and thresholded as chosen on the labelled set in test/fixtures/gate/.
 * Below the threshold a candidate waits (CandidateStore, under data/) and is promoted when it
 * is seen again in a separate conversation before it expires. Every verdict carries its four
 * factors, and a promoted record keeps them in its history (`_log.md`).
 */
import { comparable as norm } from '../comparable.js';
import { askedToRemember, conversationOf, factors, PROMOTE_AT, rejection, scoreOf, sourceWeight } from './gate-factors.js';
import type { Candidate, CandidateStore, ScoreParts } from '../records/candidates.js';
import type { GraphFact, GraphWrite, LogEntry } from '../ports/index.js';
import { sensitivityOfText, stricter } from '../privacy/sensitivity.js';

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
}

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
