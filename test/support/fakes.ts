/** Scripted fakes of the core's ports: they record calls and return what the test scripted. */
import type {
  ChatChunk,
  ChatModel,
  ChatRequest,
  Clock,
  LayersSnapshot,
  LogCursor,
  LogEntry,
  LogTail,
  MemoryLayers,
  Note,
  NoteDraft,
  NoteSummary,
  ProjectConfig,
  ProjectOrigin,
  ProjectStore,
  Recall,
  RecallHit,
  RecallScope,
  TextHit,
  UsageKind,
  UsageStore,
  ToolCall,
  WriteOutcome,
  PrivateStore,
  RaisedEntryLabel,
} from '../../src/core/ports/index.js';
import { isSensitive, type SensitivityValue } from '../../src/core/privacy/sensitivity.js';
import { relabelledEntry } from '../../src/core/writing/sensitivity-verdict.js';
import { ForgottenError, forgottenBy, keysOf, type ForgetOutcome, type ForgetTarget, type Tombstone } from '../../src/core/inspector/tombstones.js';

export type ScriptStep = { text?: string; toolCalls?: Omit<ToolCall, 'id'>[]; error?: Error; hang?: boolean; finishReason?: string };

/** A chat model that answers each request with the next scripted step (or a function of the request). */
export class ScriptedChatModel<L extends 'local' | 'hosted' = 'local'> implements ChatModel<L> {
  readonly id = 'scripted';
  readonly requests: ChatRequest[] = [];
  constructor(
    private readonly script: ScriptStep[] | ((req: ChatRequest, n: number) => ScriptStep),
    readonly acceptsImages = false,
    readonly locality: L = 'local' as L,
  ) {}

  async *stream(request: ChatRequest): AsyncIterable<ChatChunk> {
    const n = this.requests.length;
    this.requests.push(structuredClone({ ...request, signal: undefined }));
    const step = typeof this.script === 'function' ? this.script(request, n) : (this.script[n] ?? { text: '(script exhausted)' });
    if (step.error) throw step.error;
    if (step.hang) {
      await new Promise<void>((_, reject) => {
        request.signal?.addEventListener('abort', () => reject(request.signal!.reason as Error), { once: true });
      });
    }
    if (step.text) {
      for (const piece of step.text.match(/.{1,12}/gs) ?? []) yield { type: 'text', text: piece };
    }
    for (const [i, call] of (step.toolCalls ?? []).entries()) yield { type: 'tool_call', call: { id: `call_${n}_${i}`, ...call } };
    yield { type: 'done', finishReason: step.finishReason ?? (step.toolCalls?.length ? 'tool_calls' : 'stop') };
  }
}

export class FixedClock implements Clock {
  constructor(private time = new Date('2026-11-29T12:00:00Z')) {}
  now(): Date {
    return new Date(this.time);
  }
  advance(ms: number): void {
    this.time = new Date(this.time.getTime() + ms);
  }
}

interface FakeProject {
  config: ProjectConfig;
  layers: MemoryLayers;
  version: number;
  log: LogEntry[];
  cursor: number;
  notes: Map<string, Note>;
}

/** In-memory ProjectStore: log cursors are entry indexes, versions a counter bumped on every write. */
export class InMemoryProjectStore implements ProjectStore {
  readonly projects = new Map<string, FakeProject>();

  private get(slug: string): FakeProject {
    const p = this.projects.get(slug);
    if (!p) throw new Error(`no project ${slug}`);
    return p;
  }

  async ensureProject(origin: ProjectOrigin): Promise<ProjectConfig> {
    for (const p of this.projects.values()) if (p.config.keys.includes(origin.key)) return p.config;
    const slug = origin.name.toLowerCase().replace(/[^a-z0-9]+/g, '-') || 'project';
    const config: ProjectConfig = { slug, name: origin.name, style: '', distillEvery: 5, archive: true, respond: 'always', keys: [origin.key], created: '2026-11-29', updated: '2026-11-29' };
    this.projects.set(slug, { config, layers: { summary: '', decisions: [], quotes: [] }, version: 0, log: [], cursor: 0, notes: new Map() });
    return config;
  }
  async getProject(slug: string) {
    const p = this.projects.get(slug);
    return p ? { config: p.config, problems: [] } : null;
  }
  async updateProject(slug: string, patch: Partial<ProjectConfig>) {
    const p = this.get(slug);
    p.config = { ...p.config, ...patch };
    return p.config;
  }
  async listProjects(): Promise<ProjectConfig[]> {
    return [...this.projects.values()].map((p) => p.config).sort((a, b) => a.slug.localeCompare(b.slug));
  }
  async relabelProject(slug: string, change: { name?: string; archived?: boolean }): Promise<ProjectConfig> {
    return this.updateProject(slug, { ...(change.name !== undefined ? { name: change.name } : {}), ...(change.archived !== undefined ? { archived: change.archived } : {}) });
  }
  /** No files here: a page is only read from disk. */
  async readPage(_slug: string, _page: string): Promise<string | null> {
    return null;
  }
  async readLayers(slug: string): Promise<LayersSnapshot> {
    const p = this.get(slug);
    return { layers: structuredClone(p.layers), versions: { all: String(p.version) }, problems: [] };
  }
  async writeLayers(slug: string, layers: MemoryLayers, versions: Record<string, string>): Promise<WriteOutcome> {
    const p = this.get(slug);
    if (versions.all !== String(p.version)) return { ok: false, reason: 'conflict', paths: ['project.md'], message: 'changed since read' };
    p.layers = structuredClone(layers);
    p.version++;
    return { ok: true };
  }
  /** A person editing the files by hand. */
  handEdit(slug: string, edit: (layers: MemoryLayers) => void): void {
    const p = this.get(slug);
    edit(p.layers);
    p.version++;
  }
  async appendLog(slug: string, entry: LogEntry) {
    this.get(slug).log.push(entry);
  }
  async readLogSince(slug: string, cursor: LogCursor | null): Promise<LogTail> {
    const p = this.get(slug);
    const from = cursor?.offset ?? 0;
    const entries = p.log.slice(from);
    return { entries, cursor: { file: 'log', offset: p.log.length }, after: entries.map((_, i) => ({ file: 'log', offset: from + i + 1 })) };
  }
  async recentLog(slug: string, limit: number) {
    return this.get(slug).log.slice(-limit);
  }
  async logOn(slug: string, days: readonly string[]) {
    return this.get(slug).log.filter((e) => days.includes(e.time.slice(0, 10)));
  }
  async raiseLogLabels(slug: string, raised: readonly RaisedEntryLabel[]) {
    const log = this.get(slug).log;
    let n = 0;
    for (const r of raised) {
      const at = log.findIndex((e) => e.time === r.entry.time && e.source === r.entry.source && e.role === r.entry.role && e.text === r.entry.text);
      if (at < 0 || (log[at]!.sensitivity === 'sensitive' && !log[at]!.unjudged)) continue;
      log[at] = relabelledEntry(log[at]!, r.label);
      n++;
    }
    return n;
  }
  async getDistillCursor(slug: string) {
    return { file: 'log', offset: this.get(slug).cursor };
  }
  async setDistillCursor(slug: string, cursor: LogCursor) {
    this.get(slug).cursor = cursor.offset;
  }
  /** Paths of notes a test marks as unreadable (front matter that does not parse). */
  readonly unreadable: string[] = [];
  async unreadableNotes(_slug: string): Promise<string[]> {
    return [...this.unreadable];
  }

  async listNotes(slug: string): Promise<NoteSummary[]> {
    return [...this.get(slug).notes.values()].map(({ path, title, tags, updated }) => ({ path, title, tags, updated }));
  }
  async readNote(slug: string, path: string) {
    return this.get(slug).notes.get(path) ?? null;
  }
  /**
   * A page lying in the project's notes/ folder, as a test sets it up (no port method: in
   * production the knowledge graph is the only writer of pages; see test/support/pages.ts).
   */
  async putPage(slug: string, draft: NoteDraft) {
    const tomb = forgottenBy(this.forgotten.get(slug) ?? [], { title: draft.title, aliases: draft.aliases, text: draft.body });
    if (tomb) throw new ForgottenError(tomb);
    const path = `${draft.category ?? 'Topics'}/${draft.title.replace(/\s+/g, '-')}.md`;
    const notes = this.get(slug).notes;
    const old = notes.get(path);
    notes.set(path, {
      path,
      title: draft.title,
      tags: draft.tags ?? [],
      updated: '2026-11-29',
      body: old ? `${old.body}\n\n${draft.body}` : draft.body,
      aliases: [],
      staleness: 5,
      confidence: 0.8,
      sensitivity: 'personal',
    });
    return { path, created: !old };
  }
  readonly forgotten = new Map<string, Tombstone[]>();
  async tombstones(slug: string): Promise<Tombstone[]> {
    return this.forgotten.get(slug) ?? [];
  }
  /** Notes and decisions only, enough for core tests (the file store does all four kinds). */
  async forget(slug: string, target: ForgetTarget, by: string): Promise<ForgetOutcome> {
    const p = this.get(slug);
    const when = '2026-11-29T12:00:00.000Z';
    let tomb: Tombstone | null = null;
    if (target.kind === 'note') {
      const note = p.notes.get(target.path.replace(/^notes\//, ''));
      if (note && p.notes.delete(note.path)) tomb = { kind: 'note', description: `note ${note.path}`, keys: keysOf({ title: note.title, aliases: note.aliases }), when, by };
    } else if (target.kind === 'decision') {
      const d = p.layers.decisions[target.index - 1];
      if (d) {
        p.layers.decisions.splice(target.index - 1, 1);
        p.version++;
        tomb = { kind: 'decision', description: `decision of ${d.date}`, keys: keysOf({ text: d.text }), when, by };
      }
    }
    if (!tomb) return { forgotten: false, description: '', redacted: 0 };
    this.forgotten.set(slug, [...(this.forgotten.get(slug) ?? []), tomb]);
    return { forgotten: true, description: tomb.description, redacted: 0 };
  }
  async grepNotes(slug: string, query: string, limit: number): Promise<TextHit[]> {
    const hits: TextHit[] = [];
    for (const n of this.get(slug).notes.values()) {
      n.body.split('\n').forEach((line, i) => {
        if (line.toLowerCase().includes(query.toLowerCase())) hits.push({ path: n.path, line: i + 1, text: line });
      });
    }
    return hits.slice(0, limit);
  }
}

/** In-memory PrivateStore (the real one is SQLite). */
export class InMemoryPrivateStore implements PrivateStore {
  readonly messages = new Map<string, { id: number; entry: LogEntry }[]>();
  readonly memory = new Map<string, MemoryLayers & { distilledThrough: number; style: string }>();
  private nextId = 1;
  appendMessage(userId: string, entry: LogEntry) {
    const list = this.messages.get(userId) ?? [];
    list.push({ id: this.nextId++, entry });
    this.messages.set(userId, list);
  }
  recentMessages(userId: string, limit: number) {
    return (this.messages.get(userId) ?? []).slice(-limit).map((m) => m.entry);
  }
  messagesSince(userId: string, afterId: number) {
    return (this.messages.get(userId) ?? []).filter((m) => m.id > afterId);
  }
  raiseMessageLabels(userId: string, raised: readonly { id: number; label: SensitivityValue }[]) {
    for (const m of this.messages.get(userId) ?? []) {
      const r = raised.find((x) => x.id === m.id);
      if (!r) continue;
      if (isSensitive(r.label) || m.entry.unjudged) m.entry = relabelledEntry(m.entry, r.label);
    }
  }
  searchMessages(userId: string, terms: string[], limit: number) {
    const words = terms.map((t) => t.toLowerCase());
    return (this.messages.get(userId) ?? [])
      .map((m) => ({ m, hits: words.filter((w) => m.entry.text.toLowerCase().includes(w)).length }))
      .filter((x) => x.hits > 0)
      .sort((a, b) => b.hits - a.hits || b.m.id - a.m.id)
      .slice(0, limit)
      .map((x) => x.m.entry);
  }
  readLayers(userId: string) {
    return structuredClone(this.memory.get(userId) ?? { summary: '', decisions: [], quotes: [], distilledThrough: 0, style: '' });
  }
  writeLayers(userId: string, layers: MemoryLayers, distilledThrough: number) {
    const tombs = this.tombstones(userId);
    const kept = { ...layers, decisions: layers.decisions.filter((d) => !forgottenBy(tombs, { text: d.text })), quotes: layers.quotes.filter((q) => !forgottenBy(tombs, { text: q.text })) };
    this.memory.set(userId, { ...structuredClone(kept), distilledThrough, style: this.readLayers(userId).style });
  }
  setStyle(userId: string, style: string) {
    this.memory.set(userId, { ...this.readLayers(userId), style });
  }
  readonly tombs = new Map<string, Tombstone[]>();
  messageStats(userId: string) {
    const list = this.messages.get(userId) ?? [];
    return { count: list.length, first: list[0]?.entry.time ?? null, last: list[list.length - 1]?.entry.time ?? null };
  }
  deleteMessages(userId: string, range: { sinceTime: string } | { lastN: number }) {
    const list = this.messages.get(userId) ?? [];
    const keep = 'sinceTime' in range ? list.filter((m) => m.entry.time < range.sinceTime) : list.slice(0, Math.max(0, list.length - range.lastN));
    this.messages.set(userId, keep);
    return list.length - keep.length;
  }
  tombstones(userId: string) {
    return this.tombs.get(userId) ?? [];
  }
  addTombstone(userId: string, t: Tombstone) {
    this.tombs.set(userId, [...this.tombstones(userId), t]);
  }
  wipe(userId: string) {
    this.messages.delete(userId);
    this.memory.delete(userId);
    this.tombs.delete(userId);
  }
  sensitiveMessages(userId: string) {
    return (this.messages.get(userId) ?? []).map((m) => m.entry).filter((e) => e.sensitivity === 'sensitive' || e.text.includes('[sensitivity:: sensitive]'));
  }
}

/** Recall by plain note grep: for tests that do not exercise the hybrid engine (covered by retrieval tests). */
export class GrepRecall implements Recall {
  readonly queries: { query: string; scope: RecallScope }[] = [];
  constructor(private readonly store: ProjectStore) {}

  async recall(query: string, scope: RecallScope): Promise<RecallHit[]> {
    this.queries.push({ query, scope });
    const hits = await this.store.grepNotes(scope.project, query, scope.limit ?? 8);
    return hits.map((h) => ({
      page: `notes/${h.path}`,
      heading: '',
      lineStart: h.line,
      lineEnd: h.line,
      text: h.text,
      updated: '',
      staleness: 0,
      score: 1,
      parts: { vector: 0, keyword: 1, usage: 0, recency: 0 },
      why: ['keyword'],
    }));
  }
}

/** Records usage; the boost is the number of records of a page, capped at 1. */
export class RecordingUsageStore implements UsageStore {
  readonly records: { project: string; page: string; kind: UsageKind }[] = [];
  record(project: string, page: string, kind: UsageKind): void {
    this.records.push({ project, page, kind });
  }
  boosts(project: string, pages: readonly string[]): Map<string, number> {
    return new Map(pages.map((page) => [page, Math.min(1, this.records.filter((r) => r.project === project && r.page === page).length)]));
  }
}
