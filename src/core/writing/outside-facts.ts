/**
 * Facts proposed from outside — an MCP client's `propose_fact` — are data, never a person's
 * word. One becomes a write request only when a person of the project said it: a message by a
 * person in the project's archive states it (the same words test as `remember`). The request
 * is marked untrusted and keeps that message as its source. The memory lane reviews it like
 * any other write request, and one it accepts is not written straight onto a page: it goes
 * through the plain-code promotion gate (src/core/promotion.ts) with the person's message as
 * its evidence, so it is promoted, waits or is rejected exactly as a distilled fact would be.
 */
import { gateWrite } from './promotion.js';
import { saidByPeople, type WriteRequest, type WriteResult } from './write-requests.js';
import type { Home } from '../home.js';
import type { LogEntry, NoteDraft } from '../ports/index.js';

/** How far back the archive is read for the message that says a proposed fact. */
export const PROPOSAL_ARCHIVE_DEPTH = 2_000;

export const NOBODY_SAID_IT =
  'refused: no message by a person in this project says that. A proposed fact is data from outside; it is kept only when someone here said it (then Charlie’s memory gate judges it)';

/** The newest message by a person that states `statement`, or null. */
export function personalSource(entries: readonly LogEntry[], statement: string): LogEntry | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e && e.role === 'user' && !/^tool:/i.test(e.source) && saidByPeople(statement, e.text)) return e;
  }
  return null;
}

/** Whether a waiting request came from outside (marked, or from an MCP client before requests were marked). */
export function isUntrusted(request: WriteRequest): boolean {
  return request.untrusted === true || /^mcp:/i.test(request.by);
}

/** A store that keeps nothing: where a home has no candidate store, a fact below the threshold is not kept. */

/**
 * Files an accepted untrusted request through the promotion gate. The gate's evidence is the
 * person's message the request names; when it is no longer in the archive, nothing is written.
 */
export async function fileThroughGate(home: Home, draft: NoteDraft, request: WriteRequest, now: Date, facts: (text: string) => string[]): Promise<WriteResult> {
  const graph = home.graph;
  if (!graph || !home.notes) return { kind: 'refused', reason: 'facts are not proposed into private conversations' };
  const entries = await home.recent(PROPOSAL_ARCHIVE_DEPTH);
  const message = entries.find((e) => e.source === request.source && e.role === 'user');
  if (!message || !saidByPeople(`${draft.title} ${draft.body}`, message.text)) return { kind: 'refused', reason: NOBODY_SAID_IT };
  const said = now.toISOString().slice(0, 10);
  const write = {
    origin: `propose_fact:${request.by}`,
    entities: [{ name: draft.title, ...(draft.category ? { category: draft.category } : {}), create: true, facts: facts(draft.body).map((text) => ({ text, said, source: message.source })) }],
    links: [],
  };
  const tracked = (await home.notes.list()).map((n) => n.title);
  const gated = await gateWrite(write, [message], { now, tracked }, home.records.candidates);
  const { promoted, waiting, rejected } = gated.report;
  if (promoted.length === 0) {
    if (waiting.length) return { kind: 'requested', reviewer: 'none' };
    return { kind: 'refused', reason: `the memory gate rejected it (${rejected.map((r) => r.why).join('; ') || 'nothing to keep'})` };
  }
  const report = await graph.write(gated.write);
  const path = report.created[0] ?? report.updated[0];
  if (!path) return report.refused[0] ? { kind: 'refused', reason: report.refused[0].reason } : { kind: 'unchanged' };
  return { kind: 'saved', path, created: report.created.length > 0, detail: `${report.factsAdded} fact(s) promoted by the gate` };
}
