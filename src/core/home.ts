/**
 * A conversation's home: a shared Markdown project or a private DM in SQLite. The assistant
 * resolves a `Place` (the address a front door gives) into a `Home` once per call; everything
 * after that — the turn, the tools, distillation, memory edits — talks to the home and never
 * asks which kind it is. What only projects have (entity notes) is a capability that is absent
 * (`notes: null`) in a private conversation.
 */
import type { Place } from './place.js';
import type { DistillTarget } from './writing/distill.js';
import type { DeviceCursor } from './writing/device-cursor.js';
import { CharlieError } from './errors.js';
import type { NoteShelf, ProjectGraph, RecordShelf } from './home-shelves.js';
import { privateDistillGraph, privateRecordShelf } from './private/private-records.js';
import { retrievable } from './records/record.js';
import { privateCapabilities, projectCapabilities, type HomeCapabilities, type ReflectionDesk } from './home-capabilities.js';
import { searchPrivateHybrid } from './private/private-search.js';
import type { PrivateRecallIndex } from './private/private-recall.js';
import type { CandidateStore } from './records/candidates.js';
import type {
  Embedder,
  FileProblem,
  KnowledgeGraph,
  LogEntry,
  MemoryLayers,
  PrivateRecords,
  PrivateStore,
  ProjectConfig,
  ProjectStore,
  RaisedEntryLabel,
  Recall,
  RecallHit,
  UsageStore,
} from './ports/index.js';

export interface Home extends HomeCapabilities {
  /** Project slug, or `dm:<userId>` for a private conversation: the key of background work and logs (`id` says which). */
  readonly key: string;
  readonly name: string;
  readonly private: boolean;
  /** The project's settings; null for a private conversation. */
  readonly config: ProjectConfig | null;
  readonly problems: FileProblem[];
  readonly style: string;
  readonly distillEvery: number;
  /** Files that hold the three layers, relative to the project folder (none for a private home). */
  readonly layerPages: string[];
  readonly notes: NoteShelf | null;
  /** Only projects with a knowledge graph have one. */
  readonly graph: ProjectGraph | null;
  /** Typed records: a project's entity pages, or a DM's rows in private.db. */
  readonly records: RecordShelf;
  recent(limit: number): Promise<LogEntry[]>;
  archive(entry: LogEntry): Promise<void>;
  /**
   * Stores stricter labels on messages already archived here (a later message made them sensitive:
   * turn/judge-message.ts), and on the reply of each one's turn; a label only goes up.
   */
  raiseLabels(raised: readonly RaisedEntryLabel[]): Promise<void>;
  layers(): Promise<{ layers: MemoryLayers; problems: FileProblem[] }>;
  /** Rewrites the layers from the current ones; refuses when a file changed by hand meanwhile. */
  editLayers(edit: (current: MemoryLayers) => MemoryLayers): Promise<void>;
  setStyle(style: string): Promise<void>;
  /** Whether a project answers every message or only when addressed; a private home always answers. */
  setRespond(respond: 'always' | 'mention'): Promise<void>;
  /** `notesOnly`: records and their pages only (a private home has no other kind). */
  search(query: string, limit: number, options?: { notesOnly?: boolean }): Promise<RecallHit[]>;
  distillTarget(): DistillTarget;
}

/** Where memory lives: every store is required (production builds them all; the test fixture builds them the same way). */
export interface MemoryStores {
  store: ProjectStore;
  privateStore: PrivateStore;
  recall: Recall;
  usage: UsageStore;
  /** The knowledge graph of Markdown projects (traversal; distillation's page map and writes): the only writer of entity pages. */
  graph: KnowledgeGraph;
  /** Waiting candidates of the promotion gate, per project. */
  candidates: (project: string) => CandidateStore;
  /** Typed records of private conversations (private.db). */
  privateRecords: PrivateRecords;
  /** Each private conversation's own hybrid index (private.db). */
  privateRecall: PrivateRecallIndex;
  /** When reflection last ran over a project (the gate measures recency against it; null: never). */
  lastReflection: (project: string) => Promise<Date | null>;
}

/** What a home is built from: the stores, the time, and the private conversations' distil pace. */
export interface HomeStores extends MemoryStores {
  now(): Date;
  /** distill_every of private conversations (projects carry their own). */
  distillEvery: number;
  /** Reflection over projects' pages and their kept versions. */
  reflection: ReflectionDesk;
  /** On a device that syncs: the per-device distillation cursor (absent: the project's own cursor in project.md). */
  deviceCursor?: DeviceCursor | undefined;
  /** The sentence embedder "why?" by question ranks a project's records by meaning with (absent: by words only). */
  whyEmbedder?: Embedder | undefined;
}

/** A write to memory was refused (a hand edit since it was read, or a file that does not parse). */
export class MemoryWriteError extends CharlieError {}

export async function openHome(place: Place, stores: HomeStores): Promise<Home> {
  if (place.kind === 'private') return privateHome(place.userId, place.userName, stores);
  const { store } = stores;
  const config = await store.ensureProject(place.origin);
  const found = await store.getProject(config.slug);
  return projectHome(found?.config ?? config, found?.problems ?? [], stores);
}

function projectHome(config: ProjectConfig, problems: FileProblem[], stores: HomeStores): Home {
  const { store, recall, usage, deviceCursor } = stores;
  const slug = config.slug;
  const notePath = (path: string) => path.replace(/^notes\//, '');
  return {
    ...projectCapabilities(slug, stores),
    key: slug,
    name: config.name,
    private: false,
    config,
    problems,
    style: config.style,
    distillEvery: config.distillEvery,
    layerPages: ['project.md', 'decisions.md', 'quotes.md'],
    notes: {
      list: () => store.listNotes(slug),
      read: (path) => store.readNote(slug, notePath(path)),
      used: (note, kind) => {
        usage.record(slug, `notes/${note.path}`, kind, stores.now());
      },
      grep: (query, limit) => store.grepNotes(slug, query, limit),
    },
    graph: bindGraph(stores.graph, slug),
    records: projectRecords(stores.graph, slug, stores.candidates(slug)),
    recent: (limit) => store.recentLog(slug, limit),
    archive: async (entry) => {
      if (!config.archive) return;
      // noted as this device's before it is appended: a crash between leaves a key the cursor drops, never a message it skips
      await deviceCursor?.archived(slug, entry);
      await store.appendLog(slug, entry);
    },
    raiseLabels: async (raised) => {
      if (raised.length === 0) return;
      // the day file's label line; the index reads it again now (not when the watcher says so): the message's row is
      // labelled before the next search, and a labelled chunk gets no hosted vector
      await store.raiseLogLabels(slug, raised);
      await recall.changed?.(slug);
    },
    layers: async () => {
      const s = await store.readLayers(slug);
      return { layers: s.layers, problems: s.problems };
    },
    editLayers: async (edit) => {
      const snap = await store.readLayers(slug);
      const written = await store.writeLayers(slug, edit(snap.layers), snap.versions);
      if (!written.ok) throw new MemoryWriteError(`memory not saved: ${written.message}`);
    },
    setStyle: async (style) => {
      await store.updateProject(slug, { style });
    },
    setRespond: async (respond) => {
      await store.updateProject(slug, { respond });
    },
    search: (query, limit, options) => recall.recall(query, { project: slug, limit, ...(options?.notesOnly ? { notesOnly: true } : {}) }),
    distillTarget: () => ({
      ...projectDistillTarget(store, slug),
      ...(deviceCursor ? { pending: () => deviceCursor.pending(slug) } : {}),
      graph: {
        ...bindGraph(stores.graph, slug),
        related: async (text: string, tainted = false) => {
          const hits = await recall.recall(text, { project: slug, limit: 12, ...(tainted ? { tainted } : {}) });
          return [...new Set(hits.filter((h) => h.page.startsWith('notes/')).map((h) => h.page))];
        },
        candidates: stores.candidates(slug),
        lastReflection: () => stores.lastReflection(slug),
        known: async (pages: readonly string[]) => (await stores.graph.records(slug, stores.now(), pages)).filter((r) => retrievable(r.status)),
      },
    }),
  };
}

/**
 * A project as distillation reads and writes it: the archive after the distil cursor (commit
 * moves the cursor) and the three layers; entity facts go through the knowledge graph.
 */
export function projectDistillTarget(store: ProjectStore, slug: string): DistillTarget {
  return {
    label: slug,
    async pending() {
      const tail = await store.readLogSince(slug, await store.getDistillCursor(slug));
      return {
        entries: tail.entries,
        commit: async (count) => {
          const cursor = tail.after[count - 1];
          if (cursor) await store.setDistillCursor(slug, cursor);
        },
      };
    },
    readLayers: () => store.readLayers(slug),
    writeLayers: (layers, versions) => store.writeLayers(slug, layers, versions),
    raiseLabels: async (raised) => {
      await store.raiseLogLabels(slug, raised);
    },
  };
}

function bindGraph(graph: KnowledgeGraph, slug: string): ProjectGraph {
  return {
    taxonomy: () => graph.taxonomy(slug),
    pageMap: (request) => graph.pageMap(slug, request),
    write: (write) => graph.write(slug, write),
    follow: (start, options) => graph.follow(slug, start, options),
  };
}

function projectRecords(graph: KnowledgeGraph, slug: string, candidates: CandidateStore): RecordShelf {
  return {
    candidates,
    reviewList: () => graph.reviewList(slug),
    review: (id, choice) => graph.review(slug, id, choice),
    write: (write) => graph.write(slug, write),
    raisable: async (ask, now) => {
      const speakers = [{ name: ask.speaker, ...(ask.speakerId ? { discordId: ask.speakerId } : {}) }];
      const why = new Map((await graph.pageMap(slug, { texts: [ask.text], speakers })).filter((p) => p.why !== 'related').map((p) => [p.path, p.why]));
      if (why.size === 0) return [];
      return (await graph.records(slug, now, [...why.keys()]))
        .filter((r) => why.has(r.page))
        .map((r) => ({
          id: r.id,
          entity: r.pageTitle,
          statement: r.statement,
          category: r.category,
          status: r.status,
          state: r.decay,
          due: r.due,
          vs: r.vs,
          asked: r.asked,
          raised: r.raised,
          sensitive: r.sensitivity === 'sensitive',
          owner: why.get(r.page) === 'speaker',
          named: true,
        }));
    },
    mark: async (ids, what, date) => {
      await graph.markRecords(slug, ids, what, date);
    },
  };
}

function privateHome(userId: string, userName: string, stores: HomeStores): Home {
  const store = stores.privateStore;
  const current = store.readLayers(userId);
  return {
    ...privateCapabilities(userId, stores),
    key: `dm:${userId}`,
    name: `private conversation with ${userName}`,
    private: true,
    config: null,
    problems: [],
    style: current.style,
    distillEvery: stores.distillEvery,
    layerPages: [],
    notes: null,
    graph: null,
    records: privateRecordShelf(stores.privateRecords, userId, () => stores.now()),
    recent: async (limit) => store.recentMessages(userId, limit),
    archive: async (entry) => {
      store.appendMessage(userId, entry);
    },
    raiseLabels: async (raised) => {
      if (raised.length === 0) return;
      // the rows are found by what they hold (a rare write: a later message made an earlier one sensitive)
      const rows = store.messagesSince(userId, 0);
      const same = (a: LogEntry, b: LogEntry) => a.time === b.time && a.role === b.role && a.speaker === b.speaker && a.source === b.source && a.text === b.text;
      store.raiseMessageLabels(
        userId,
        raised.flatMap((r) => {
          const row = rows.findLast((x) => same(x.entry, r.entry));
          return row ? [{ id: row.id, label: r.label }] : [];
        }),
      );
    },
    layers: async () => ({ layers: store.readLayers(userId), problems: [] }),
    editLayers: async (edit) => {
      const cur = store.readLayers(userId);
      store.writeLayers(userId, edit({ summary: cur.summary, decisions: cur.decisions, quotes: cur.quotes }), cur.distilledThrough);
    },
    setStyle: async (style) => {
      store.setStyle(userId, style);
    },
    setRespond: async () => {},
    search: async (query, limit) => {
      return searchPrivateHybrid(store, stores.privateRecall, userId, query, limit, stores.privateRecords.list(userId, stores.now()));
    },
    distillTarget: () => {
      let ids: number[] = [];
      return {
        label: `dm:${userId}`,
        async pending() {
          const { distilledThrough } = store.readLayers(userId);
          const rows = store.messagesSince(userId, distilledThrough);
          ids = rows.map((r) => r.id);
          // The cursor moves together with the layers, in writeLayers (one SQLite write).
          return { entries: rows.map((r) => r.entry), commit: async () => {} };
        },
        readLayers: async () => {
          const { summary, decisions, quotes } = store.readLayers(userId);
          return { layers: { summary, decisions, quotes }, versions: {} };
        },
        writeLayers: async (layers, _versions, distilled) => {
          store.writeLayers(userId, layers, ids[distilled - 1] ?? store.readLayers(userId).distilledThrough);
          return { ok: true };
        },
        raiseLabels: async (raised) =>
          store.raiseMessageLabels(
            userId,
            raised.flatMap((r) => {
              const id = ids[r.index];
              return id === undefined ? [] : [{ id, label: r.label }];
            }),
          ),
        graph: privateDistillGraph(store, stores.privateRecords, userId, () => stores.now()),
      };
    },
  };
}
