/**
 * How memory is written after and during a turn: a tool's `remember` (directly for a local
 * model, as a write request for a hosted one), facts proposed from outside (MCP), and
 * distillation, queued per home off the reply's critical path, with the memory lane's review
 * of what hosted models asked to remember.
 */
import { reviewWriteRequests, NOT_SAID, saidByPeople, type MemoryWrites, type WriteRequest, type WriteRequestStore, type WriteResult } from './write-requests.js';
import { fileThroughGate, isUntrusted, NOBODY_SAID_IT, personalSource, PROPOSAL_ARCHIVE_DEPTH } from './outside-facts.js';
import { distill } from './distill.js';
import { DistillBackoff } from './distill-backoff.js';
import { ModelError } from '../errors.js';
import { ForgottenError } from '../inspector/tombstones.js';
import { KeyedQueue } from '../keyed-queue.js';
import type { DistillOutcome, FactProposal, MemoryApi } from '../assistant-api.js';
import type { Home } from '../home.js';
import type { ChatModel, Clock, LocalChatModel, Logger, NoteDraft } from '../ports/index.js';
import { errorMessage } from '../../util/error-text.js';

export interface MemoryWriterDeps {
  model: ChatModel;
  memoryModel: LocalChatModel | null;
  clock: Clock;
  logger: Logger;
  writeRequests: WriteRequestStore;
  settings: { distillBatchChars: number; distillDeadlineMs: number };
  newId: () => string;
}

export class MemoryWriter {
  /** Distillation runs one at a time per home, off the reply's critical path. */
  private readonly distilling = new KeyedQueue();
  private readonly backoff = new DistillBackoff();
  /** Per home: speaker name → Discord id, as messages arrive (for the speakers' own pages). */
  private readonly speakerIds = new Map<string, Map<string, string>>();

  constructor(private readonly deps: MemoryWriterDeps) {}

  /** Remembers who a speaker is in a project (their Discord id), for their own page. */
  noteSpeaker(home: Home, speaker: string, speakerId: string): void {
    if (!home.pages) return;
    let ids = this.speakerIds.get(home.key);
    if (!ids) this.speakerIds.set(home.key, (ids = new Map<string, string>()));
    ids.set(speaker, speakerId);
  }

  /** How tools of this turn write memory: directly for a local model, as candidates for a hosted one. */
  writesFor(home: Home, source: string, theirWords: () => string, asCandidates = false): MemoryWrites {
    if (!home.notes) return { saveNote: async () => ({ kind: 'refused', reason: 'notes are not kept for private conversations' }) };
    // a write whose only source is memory, a file or a tool result is refused, for either lane
    const said = (draft: NoteDraft) => saidByPeople(`${draft.title} ${draft.body}`, theirWords());
    if (this.deps.model.locality === 'local' && !asCandidates) return { saveNote: async (draft) => (said(draft) ? this.fileNote(home, draft) : { kind: 'refused', reason: NOT_SAID }) };
    return {
      saveNote: async (draft) => {
        if (!said(draft)) return { kind: 'refused', reason: NOT_SAID };
        const proposal = { title: draft.title, text: draft.body, ...(draft.category ? { category: draft.category } : {}), source: draft.source || source, by: this.deps.model.id };
        return this.request(home.key, proposal, draft.tags);
      },
    };
  }

  /**
   * A fact proposed from outside (an MCP client): refused unless a person of the project said
   * it; then an untrusted write request, with that message as its source, for the memory lane
   * and then the promotion gate (src/core/outside-facts.ts) — never a page write.
   */
  async proposeFact(home: Home, proposal: FactProposal): ReturnType<MemoryApi['proposeFact']> {
    if (!home.pages) return { kind: 'refused', reason: 'facts are not proposed into private conversations' };
    const message = personalSource(await home.recent(PROPOSAL_ARCHIVE_DEPTH), `${proposal.title} ${proposal.text}`);
    if (!message) return { kind: 'refused', reason: NOBODY_SAID_IT };
    return this.request(home.key, { ...proposal, source: message.source }, undefined, true);
  }

  private async request(slug: string, proposal: FactProposal, tags?: string[], untrusted = false): Promise<{ kind: 'requested'; reviewer: 'memory-lane' | 'none' }> {
    await this.deps.writeRequests.add({
      id: this.deps.newId(),
      project: slug,
      title: proposal.title,
      text: proposal.text,
      ...(proposal.category ? { category: proposal.category } : {}),
      ...(tags?.length ? { tags } : {}),
      source: proposal.source,
      requested: this.deps.clock.now().toISOString(),
      by: proposal.by,
      ...(untrusted ? { untrusted: true } : {}),
    });
    return { kind: 'requested', reviewer: this.deps.memoryModel ? 'memory-lane' : 'none' };
  }

  /**
   * Writes a note for the memory lane or a local chat model through the knowledge graph, the
   * only writer of pages ("Sarah" finds Sarah Chen's page; a restated fact is not added twice).
   * Forgotten items are refused by the graph.
   */
  private async fileNote(home: Home, draft: NoteDraft): Promise<WriteResult> {
    try {
      const graph = home.graph;
      if (!graph) return { kind: 'refused', reason: 'notes are not kept for private conversations' };
      const said = this.deps.clock.now().toISOString().slice(0, 10);
      const facts = sentences(draft.body).map((text) => ({ text, said, source: draft.source, gate: 'saved with the remember tool (the gate does not judge it)' }));
      const report = await graph.write({ origin: 'remember', entities: [{ name: draft.title, ...(draft.category ? { category: draft.category } : {}), create: true, facts }], links: [] });
      const path = report.created[0] ?? report.updated[0];
      if (!path) return report.refused[0] ? { kind: 'refused', reason: report.refused[0].reason } : { kind: 'unchanged' };
      return { kind: 'saved', path, created: report.created.length > 0, detail: `${report.factsAdded} fact(s) added, ${report.factsRefreshed} refreshed` };
    } catch (error) {
      if (error instanceof ForgottenError) return { kind: 'refused', reason: error.message };
      throw error;
    }
  }

  /** Queues a distillation run for the home; it runs when enough messages are waiting (any, when forced). */
  scheduleDistill(home: Home, force: boolean): Promise<DistillOutcome> {
    const memoryModel = this.deps.memoryModel;
    if (!memoryModel) return Promise.resolve({ ran: false, messages: 0, error: 'distillation needs a local model (LLM_LOCALITY)' });
    return this.distilling.run(home.key, async (): Promise<DistillOutcome> => {
      // after a failure an automatic run waits (distill-backoff.ts); a person's never does
      if (!force && !this.backoff.mayTry(home.key)) return { ran: false, messages: 0 };
      try {
        const target = home.distillTarget();
        if (home.notes) await this.reviewWaiting(home, memoryModel);
        const waiting = await target.pending();
        if (waiting.entries.filter((e) => e.role === 'user').length < (force ? 1 : home.distillEvery)) return { ran: false, messages: 0 };
        const { distillBatchChars, distillDeadlineMs } = this.deps.settings;
        const deps = { model: memoryModel, logger: this.deps.logger.child({ project: home.key }), batchChars: distillBatchChars, speakerIds: this.speakerIds.get(home.key), clock: this.deps.clock };
        const n = await distill(target, deps, AbortSignal.timeout(distillDeadlineMs));
        this.backoff.succeeded(home.key);
        return { ran: n > 0, messages: n };
      } catch (error) {
        this.backoff.failed(home.key, home.distillEvery);
        this.deps.logger.warn({ project: home.key, err: error, retryAfter: this.backoff.waiting(home.key) }, 'distillation failed; the messages stay pending');
        const what = error instanceof ModelError ? `${error.kind.replace(/_/g, ' ')}: ${error.message}` : errorMessage(error);
        return { ran: false, messages: 0, error: what };
      }
    });
  }

  /** The memory lane decides on what a hosted model asked to remember; failures leave them waiting. */
  private async reviewWaiting(home: Home, model: LocalChatModel): Promise<void> {
    const slug = home.key;
    try {
      const save = (draft: NoteDraft, request: WriteRequest) => (isUntrusted(request) ? fileThroughGate(home, draft, request, this.deps.clock.now(), sentences) : this.fileNote(home, draft));
      await reviewWriteRequests(slug, { model, requests: this.deps.writeRequests, save, logger: this.deps.logger.child({ project: slug }) });
    } catch (error) {
      this.deps.logger.warn({ project: slug, err: error }, 'memory candidates not reviewed; they wait for the next run');
    }
  }

  idle(): Promise<void> {
    return this.distilling.idle();
  }
}

/** A remembered text as atomic facts: one per sentence (at most 20). */
function sentences(text: string): string[] {
  const out = text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"“(])/)
    .map((s) => s.trim())
    .filter(Boolean);
  return out.slice(0, 20);
}
