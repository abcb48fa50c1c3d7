/**
 * The Memory Inspector: what a person sees and changes of a place's memory outside a turn —
 * notes, typed records and why Charlie holds them, records in review, candidates waiting for
 * promotion, hand edits, forgetting, reflection and kept page versions. Each method opens the
 * place's home and asks it for a capability (home-capabilities.ts); where a home has none,
 * the answer is empty, never a guess about which kind of place it is.
 */
import type { DistillOutcome, FactProposal, ForgettableItem, MemoryApi } from '../assistant-api.js';
import type { Place } from '../place.js';
import type { Home } from '../home.js';
import type { MemoryWriter } from '../writing/memory-writer.js';
import type { Clock, Logger, Note, NoteSummary, PageLinks, RecallHit, RecordView, ReviewChoice, ReviewPair } from '../ports/index.js';
import { scoreText, takeCandidate, viaOf } from '../writing/promotion.js';
import { type Candidate } from '../records/candidates.js';
import { NO_MEMORY_MODEL, type PageVersion, type ReflectionReport, type RestoreOutcome } from '../reflection/reflection.js';
import { sensitivityOfText, stricter } from '../privacy/sensitivity.js';
import type { ForgetOutcome, ForgetTarget } from './tombstones.js';
import type { WhyAnswer } from './why.js';
import { bareId, isBlockRecordId } from '../records/line-syntax.js';

export interface InspectorDeps {
  clock: Clock;
  logger: Logger;
  writer: MemoryWriter;
  openHome: (place: Place) => Promise<Home>;
}

export class MemoryInspector implements MemoryApi {
  constructor(private readonly deps: InspectorDeps) {}

  private home(place: Place): Promise<Home> {
    return this.deps.openHome(place);
  }

  async distillNow(place: Place): Promise<DistillOutcome> {
    return this.deps.writer.scheduleDistill(await this.home(place), true);
  }

  async proposeFact(place: Place, proposal: FactProposal): ReturnType<MemoryApi['proposeFact']> {
    return this.deps.writer.proposeFact(await this.home(place), proposal);
  }

  async searchMemory(place: Place, query: string, limit = 8): Promise<RecallHit[]> {
    return (await this.home(place)).search(query, limit);
  }

  async listNotes(place: Place): Promise<NoteSummary[]> {
    return (await (await this.home(place)).notes?.list()) ?? [];
  }

  async readNote(place: Place, path: string, reason: 'view' | 'suggestion_accepted' | 'tag'): Promise<Note | null> {
    const notes = (await this.home(place)).notes;
    const note = (await notes?.read(path)) ?? null;
    if (note) notes?.used(note, reason);
    return note;
  }

  async forgetNote(place: Place, path: string, by = 'someone'): Promise<boolean> {
    return (await this.forget(place, { kind: 'note', path: path.replace(/^notes\//, '') }, by)).forgotten;
  }

  /** Forgets a note, one entry of a note, a decision or a quote, leaving a tombstone (forgotten.md). */
  async forget(place: Place, target: ForgetTarget, by: string, options: { removeMessages?: boolean } = {}): Promise<ForgetOutcome> {
    const home = await this.home(place);
    if (!home.pages) return { forgotten: false, description: '', redacted: 0 };
    const outcome = await home.pages.forget(target, by, { removeMessages: options.removeMessages ?? false });
    if (outcome.forgotten) this.deps.logger.info({ project: home.key, kind: target.kind, redacted: outcome.redacted }, 'forgotten, with a tombstone');
    return outcome;
  }

  /** Everything /memory forget can name, for autocomplete: notes, their entries, typed records, decisions, quotes. */
  async forgettable(place: Place): Promise<ForgettableItem[]> {
    const home = await this.home(place);
    if (!home.pages) return [];
    const items = await home.pages.forgettable();
    for (const r of await home.inspector.records()) if (r.id) items.push({ label: `record ${r.pageTitle}: ${r.statement}`, target: { kind: 'record', path: r.page, id: r.id } });
    return items;
  }

  async memoryCandidates(place: Place): Promise<Candidate[]> {
    const candidates = (await this.home(place)).records.candidates;
    const now = this.deps.clock.now().toISOString();
    return (await candidates.list()).filter((c) => c.expires > now).sort((a, b) => b.score - a.score);
  }

  async promoteCandidate(place: Place, key: string): Promise<boolean> {
    const records = (await this.home(place)).records;
    if (!key.trim()) return false;
    const taken = await takeCandidate(records.candidates, key.trim());
    if (!taken) return false;
    // a person vouched for it: full confidence, provenance as it came, sensitivity as the gate sets it
    const sensitivity = stricter(sensitivityOfText(taken.fact.text), taken.fact.sensitivity);
    const gate = `promoted by hand from the waiting candidates (${scoreText(taken.score, taken.parts)} on ${taken.firstSeen.slice(0, 10)})`;
    const fact = { ...taken.fact, confidence: 1, via: viaOf(taken.fact.source), gate, ...(sensitivity ? { sensitivity } : {}) };
    // the page is filed where the memory model proposed it (People/Friends …), not under Misc
    const entity = { name: taken.entity, create: true, facts: [fact], ...(taken.category ? { category: taken.category } : {}) };
    await records.write({ origin: 'promotion', links: [], entities: [entity] });
    return true;
  }

  async why(place: Place, ask: { query: string } | { ids: readonly string[] }): Promise<WhyAnswer> {
    return (await this.home(place)).inspector.why(ask);
  }

  async reviewList(place: Place): Promise<ReviewPair[]> {
    return (await this.home(place)).records.reviewList();
  }

  async resolveReview(place: Place, id: string, choice: ReviewChoice): Promise<boolean> {
    const records = (await this.home(place)).records;
    if (!isBlockRecordId(bareId(id))) return false;
    return records.review(bareId(id), choice);
  }

  async records(place: Place): Promise<RecordView[]> {
    return (await this.home(place)).inspector.records();
  }

  async pageLinks(place: Place): Promise<PageLinks | null> {
    return (await (await this.home(place)).pages?.links()) ?? null;
  }

  async editRecord(place: Place, id: string, statement: string): Promise<boolean> {
    const pages = (await this.home(place)).pages;
    if (!pages || !isBlockRecordId(id) || !statement.trim()) return false;
    return pages.editRecord(id, statement);
  }

  async editNotePage(place: Place, path: string, body: string): Promise<boolean> {
    const pages = (await this.home(place)).pages;
    if (!pages || !body.trim()) return false;
    return pages.editPage(path, body);
  }

  async reflect(place: Place): Promise<ReflectionReport> {
    const home = await this.home(place);
    const empty = { project: home.key, pages: 0, merged: 0, rules: 0, expired: 0, settled: 0, proposed: 0, rejected: 0, dropped: 0, rejections: [] };
    if (!home.pages) return { ...empty, error: 'reflection curates the pages of a project; a private conversation has none' };
    if (!home.versions) return { ...empty, error: NO_MEMORY_MODEL };
    return home.versions.reflect();
  }

  async pageVersions(place: Place, page?: string): Promise<PageVersion[]> {
    return (await (await this.home(place)).versions?.list(page)) ?? [];
  }

  async restorePage(place: Place, page: string, version?: string): Promise<RestoreOutcome> {
    const versions = (await this.home(place)).versions;
    if (!versions) return { ok: false, reason: 'no page versions are kept here' };
    return versions.restore(page, version);
  }
}
