/**
 * "Why does Charlie think that?": the records that answer a question (the records themselves,
 * searched by records/match.ts: statement, subject, attribute; the current one first; in a
 * project the best of them again by meaning, records/meaning.ts) or that
 * a reply used (their block ids), each with its provenance chain — the message that said it,
 * the promotion gate's verdict, every restatement, hand edit, merge and review decision with
 * its date — and its confidence now. The chains are built from the Markdown (the record line
 * and the project's `notes/_log.md`) by the knowledge graph; this module picks the records and
 * renders a chain as plain lines for every front door.
 */
import { isSensitive, labelOf, labelText, parseSensitivity } from '../privacy/sensitivity.js';
import type { Embedder, KnowledgeGraph, LogEntry, PrivateRecord, PrivateRecordEvent } from '../ports/index.js';
import type { ChainStep, Provenance, RecordChain } from '../records/provenance.js';
import { rankRecords, scoreRecords, type MatchableRecord, type Scored } from '../records/match.js';
import { byMeaning } from '../records/meaning.js';
import { errorMessage } from '../../util/error-text.js';
import { bareId, RECORD_ID } from '../records/line-syntax.js';

export interface WhyAnswer extends Provenance {
  /** Set when nothing could be looked up at all (no knowledge graph, no private records). */
  unavailable?: string;
  /** A caveat shown with the chains (e.g. what private records do not keep). */
  note?: string;
}

/** The archive's messages of some days (ProjectStore.logOn for one project). */
export type MessagesOn = (days: readonly string[]) => Promise<readonly LogEntry[]>;

/** How many of the best records by their own words have their source messages read for a second ranking (LoCoMo dev, first: 10 → 63.9 %, 50 → 65.6 %, 100 → 66.7 %, all → 66.7 %). */
const WITH_MESSAGES = 100;

/**
 * The records that answer `query`: the project's records themselves, ranked (records/match.ts),
 * each with its chain. With `messages`, the best WITH_MESSAGES by their own words are ranked
 * again with the words of the message that said each (read from the archive's days they were
 * said): a statement leaves out words its message had ("We even had a picnic last week!"). With
 * `meaning` (a sentence embedder), the best of those are ranked again by meaning
 * (records/meaning.ts); when it cannot embed, the order by words stands and the answer says so.
 */
export async function whyQuery(
  graph: Pick<KnowledgeGraph, 'provenance' | 'records'>,
  project: string,
  query: string,
  now: Date,
  limit = 3,
  messages?: MessagesOn,
  meaning?: Embedder,
): Promise<WhyAnswer> {
  const records = await graph.records(project, now);
  let scored = messages ? await scoreWithMessages(records, query, messages) : scoreRecords(records, query);
  let note: string | undefined;
  if (meaning && scored.length > 1) {
    try {
      scored = await byMeaning(scored, query, meaning);
    } catch (err) {
      note = `ranked by wording only: the sentence model could not be used (${errorMessage(err)})`;
    }
  }
  const chosen = scored.slice(0, limit).map((s) => s.record);
  if (chosen.length === 0) return { chains: [], missing: [] };
  const refs = chosen.map((r) => (r.id ? { id: r.id } : { page: r.page, lineStart: r.line, lineEnd: r.line }));
  return { chains: (await graph.provenance(project, refs)).chains, missing: [], ...(note ? { note } : {}) };
}

/** What ranking with messages reads of a record: what the ranking reads, and the message it came from. */
type SaidRecord = MatchableRecord & { said: string; provenance: { source: string } };

/** The records that answer `query`, the best WITH_MESSAGES of them ranked again with the messages that said them. */
export async function rankWithMessages<T extends SaidRecord>(records: readonly T[], query: string, limit: number, messages: MessagesOn): Promise<T[]> {
  return (await scoreWithMessages(records, query, messages)).slice(0, limit).map((s) => s.record);
}

/** `rankWithMessages` with each record's score, every record that answers (the best first). */
export async function scoreWithMessages<T extends SaidRecord>(records: readonly T[], query: string, messages: MessagesOn): Promise<Scored<T>[]> {
  const pool = new Set(rankRecords(records, query, WITH_MESSAGES));
  if (pool.size === 0) return [];
  // a labelled message's words are not read: the order of what a hosted asker is shown would tell of them
  const entries = (await messages([...new Set([...pool].map((r) => r.said.slice(0, 10)).filter(Boolean))])).map((e) => (isSensitive(labelOf(e)) ? { ...e, text: '' } : e));
  // each message with the one before it on the same day (what it answered, mostly)
  const said = new Map(entries.map((e, i) => [e.source, { text: e.text, preceding: sameDay(entries[i - 1], e) ? (entries[i - 1]?.text ?? '') : '' }]));
  const read = new Map(
    records.map((r) => {
      const message = pool.has(r) ? said.get(r.provenance.source) : undefined;
      return [{ ...r, context: message?.text ?? '', preceding: message?.preceding ?? '' }, r] as const;
    }),
  );
  // ranked with the messages' words, handed back as the records they were (never with the messages in them)
  return scoreRecords([...read.keys()], query).map((s) => ({ ...s, record: read.get(s.record) ?? (s.record as T) }));
}

const sameDay = (a: LogEntry | undefined, b: LogEntry) => a !== undefined && a.time.slice(0, 10) === b.time.slice(0, 10);

/**
 * The answer for `/memory why` (a question, or a record id such as `r-3f9a1c`) and for a reply's
 * "why?" button (the ids it used; anything that is not a record id is ignored, never looked up).
 */
export async function explainWhy(
  graph: Pick<KnowledgeGraph, 'provenance' | 'records'>,
  project: string,
  ask: { query: string } | { ids: readonly string[] },
  now: Date,
  messages?: MessagesOn,
  meaning?: Embedder,
): Promise<WhyAnswer> {
  const asIds = 'ids' in ask ? ask.ids : ask.query.trim().split(/[\s,]+/);
  const ids = asIds.map((id) => bareId(id)).filter((id) => RECORD_ID.test(id));
  if ('ids' in ask || (ids.length > 0 && ids.length === asIds.length))
    return graph.provenance(
      project,
      ids.map((id) => ({ id })),
    );
  const query = ask.query.trim();
  return query ? whyQuery(graph, project, query, now, 3, messages, meaning) : { chains: [], missing: [] };
}

/** The steps of a DM record written before private.db kept its history: what its own fields tell. */
function stepsFromFields(r: PrivateRecord): ChainStep[] {
  const steps: ChainStep[] = [{ at: r.said, kind: 'said', text: `said in this conversation, about ${r.entity}`, ...(r.source ? { source: r.source } : {}) }];
  if (r.vs && r.status !== 'superseded') steps.push({ at: '', kind: 'review', text: `in review: disagrees with ^${r.vs}` });
  if (r.superseded) steps.push({ at: r.superseded, kind: 'reviewed', text: `review decision: superseded${r.vs ? ` by ^${r.vs}` : ''}` });
  return steps;
}

/** A DM's record (private.db) as a chain: its history of changes, or its own fields when it has none. */
function privateChain(r: PrivateRecord, events: readonly PrivateRecordEvent[]): RecordChain {
  const steps: ChainStep[] = events.length ? events.map((e) => ({ at: e.at, kind: e.kind, text: e.text, ...(e.source ? { source: e.source } : {}) })) : stepsFromFields(r);
  return {
    id: r.id,
    page: `private: ${r.entity}`,
    statement: r.statement,
    category: r.category,
    status: r.status,
    via: r.via,
    confidence: r.confidence,
    effective: r.effective,
    state: r.state,
    said: r.said,
    handEdited: r.via === 'manual',
    sensitivity: labelText(r.statement, parseSensitivity(r.sensitivity)).sensitivity,
    steps,
  };
}

/**
 * `/memory why` in a private conversation: its records by id, or those that answer the question
 * (ranked as a project's are), each with its history from private.db (`history`).
 */
export function privateWhy(
  records: readonly PrivateRecord[],
  ask: { query: string } | { ids: readonly string[] },
  history: (ids: readonly string[]) => readonly PrivateRecordEvent[],
  limit = 3,
): WhyAnswer {
  const answer = (chosen: readonly PrivateRecord[], missing: string[]): WhyAnswer => {
    const events = history(chosen.map((r) => r.id));
    const chains = chosen.map((r) =>
      privateChain(
        r,
        events.filter((e) => e.id === r.id),
      ),
    );
    // records written before private.db kept a history can only tell their latest state
    const old = chosen.some((r) => !events.some((e) => e.id === r.id));
    return { chains, missing, ...(old ? { note: 'records written before Charlie kept their history show their latest state only' } : {}) };
  };
  const asIds = 'ids' in ask ? ask.ids : ask.query.trim().split(/[\s,]+/);
  const ids = asIds.map((id) => bareId(id)).filter((id) => RECORD_ID.test(id));
  if ('ids' in ask || (ids.length > 0 && ids.length === asIds.length)) {
    return answer(
      records.filter((r) => ids.includes(r.id)),
      ids.filter((id) => !records.some((r) => r.id === id)),
    );
  }
  const ranked = rankRecords(
    records.map((r) => ({ ...r, pageTitle: r.entity })),
    ask.query,
    limit,
    { remember: false },
  );
  return answer(ranked, []);
}

const day = (at: string) => at.slice(0, 10);

/** A chain as plain lines (Markdown-light: the same text reads in a terminal and on Discord). */
export function chainLines(chain: RecordChain, link: (source: string) => string = (s) => s): string[] {
  const head = `“${chain.statement}” — ${chain.page}${chain.id ? ` ^${chain.id}` : ''}`;
  const out = [head];
  if (chain.askedFor) out.push(`  (you asked about ^${chain.askedFor}, which was merged into this record)`);
  for (const s of chain.steps) out.push(`  ${day(s.at) || '????-??-??'}  ${s.kind.padEnd(8)} ${s.text}${s.source ? ` — ${link(s.source)}` : ''}${s.from ? ` (merged record ^${s.from})` : ''}`);
  const decayed = chain.effective < chain.confidence - 0.005 ? `, ${chain.effective.toFixed(2)} after decay` : '';
  out.push(
    `  now: confidence ${chain.confidence.toFixed(2)}${decayed} (${chain.state}${chain.category ? `, ${chain.category}` : ''}${chain.status !== 'active' ? `, status ${chain.status}` : ''}; via ${chain.via}${chain.said ? `, last said ${chain.said}` : ''})`,
  );
  return out;
}

/** The whole answer as text, for `/memory why` and the "why?" button. */
export function whyText(answer: WhyAnswer, link?: (source: string) => string): string {
  if (answer.unavailable) return `No record history here: ${answer.unavailable}.`;
  const parts = answer.chains.map((c) => chainLines(c, link).join('\n'));
  if (answer.note && parts.length) parts.push(`(${answer.note})`);
  if (answer.missing.length) parts.push(`No longer in memory: ${answer.missing.map((m) => `^${m}`).join(', ')} (forgotten, or changed by hand without its id).`);
  return parts.length ? parts.join('\n\n') : 'No record in memory answers that.';
}
