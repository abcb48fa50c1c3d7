/**
 * What a home can do beyond the turn, as capabilities that are `null` where the home has none:
 * the Memory Inspector's typed records (a project's pages, or a DM's rows in private.db), a
 * project's pages (links, hand edits, forgetting with tombstones) and their kept versions.
 * The inspector (core/inspector/inspector.ts) asks for a capability instead of asking which kind of home
 * it holds; a home says who it is with `id`, never with a string to parse.
 */
import { privateRecordView } from './private/private-records.js';
import { explainWhy, privateWhy, type WhyAnswer } from './inspector/why.js';
import type { ForgetOutcome, ForgetTarget } from './inspector/tombstones.js';
import type { PageVersion, ReflectionReport, RestoreOutcome } from './reflection/reflection.js';
import type { Embedder, KnowledgeGraph, PageLinks, PrivateRecords, ProjectStore, RecordView } from './ports/index.js';
import { entryHeadings } from './records/line-syntax.js';

/** Which place a home is: the folder of a project, or the user of a private conversation. */
export type HomeId = { kind: 'project'; slug: string } | { kind: 'private'; userId: string };

export type WhyAsk = { query: string } | { ids: readonly string[] };

/** Typed records as the Memory Inspector shows them, with each one's history. */
export interface RecordInspector {
  /** Every record, with decay read now. */
  records(): Promise<RecordView[]>;
  why(ask: WhyAsk): Promise<WhyAnswer>;
}

/** A project's pages as people edit them: links, hand edits and forgetting (tombstones in forgotten.md). */
export interface PageShelf {
  links(): Promise<PageLinks | null>;
  editRecord(id: string, statement: string): Promise<boolean>;
  editPage(path: string, body: string): Promise<boolean>;
  forget(target: ForgetTarget, by: string, options: { removeMessages: boolean }): Promise<ForgetOutcome>;
  /** The forgettable items of the store itself: decisions, quotes, notes and their dated entries. */
  forgettable(): Promise<{ label: string; target: ForgetTarget }[]>;
}

/** Reflection over a project's pages and the versions it keeps of them. */
export interface PageVersions {
  reflect(): Promise<ReflectionReport>;
  list(page?: string): Promise<PageVersion[]>;
  restore(page: string, version?: string): Promise<RestoreOutcome>;
}

/** What reflection offers the homes (core/reflection/reflection.ts `Reflection`). */
export interface ReflectionDesk {
  run(project: string, scope: 'all'): Promise<ReflectionReport>;
  versions(project: string, page?: string): Promise<PageVersion[]>;
  restore(project: string, page: string, version?: string): Promise<RestoreOutcome>;
}

export interface HomeCapabilities {
  readonly id: HomeId;
  /** Typed records and their history. */
  readonly inspector: RecordInspector;
  /** A project's pages (null in a private conversation: it has none). */
  readonly pages: PageShelf | null;
  /** Reflection and kept page versions (null in a private conversation). */
  readonly versions: PageVersions | null;
}

interface CapabilityStores {
  store: ProjectStore;
  graph: KnowledgeGraph;
  privateRecords: PrivateRecords;
  reflection: ReflectionDesk;
  now(): Date;
  /** The sentence embedder "why?" by question ranks a project's records by meaning with (absent: by words only). */
  whyEmbedder?: Embedder | undefined;
}

export function projectCapabilities(slug: string, stores: CapabilityStores): HomeCapabilities {
  const { store, graph, reflection } = stores;
  return {
    id: { kind: 'project', slug },
    inspector: {
      records: () => graph.records(slug, stores.now()),
      // the records themselves are searched (the best of them with the archive messages that said them, then by meaning); each comes with its chain
      why: (ask) => explainWhy(graph, slug, ask, stores.now(), (days) => store.logOn(slug, days), stores.whyEmbedder),
    },
    pages: {
      links: () => graph.pageLinks(slug),
      editRecord: (id, statement) => graph.editRecord(slug, id, statement),
      editPage: (path, body) => graph.editPage(slug, path, body),
      forget: (target, by, options) => store.forget(slug, target, by, options),
      forgettable: () => storeForgettable(store, slug),
    },
    versions: {
      reflect: () => reflection.run(slug, 'all'),
      list: (page) => reflection.versions(slug, page),
      restore: (page, version) => reflection.restore(slug, page, version),
    },
  };
}

export function privateCapabilities(userId: string, stores: CapabilityStores): HomeCapabilities {
  const records = stores.privateRecords;
  return {
    id: { kind: 'private', userId },
    inspector: {
      records: async () => records.list(userId, stores.now()).map(privateRecordView),
      why: async (ask) => privateWhy(records.list(userId, stores.now()), ask, (ids) => records.history(userId, ids)),
    },
    pages: null,
    versions: null,
  };
}

async function storeForgettable(store: ProjectStore, slug: string): Promise<{ label: string; target: ForgetTarget }[]> {
  const items: { label: string; target: ForgetTarget }[] = [];
  const { layers } = await store.readLayers(slug);
  layers.decisions.forEach((d, i) => items.push({ label: `decision ${d.date}: ${d.text}`, target: { kind: 'decision', index: i + 1 } }));
  layers.quotes.forEach((q, i) => items.push({ label: `quote ${q.speaker}: ${q.text}`, target: { kind: 'quote', index: i + 1 } }));
  for (const n of await store.listNotes(slug)) {
    items.push({ label: `note ${n.path}`, target: { kind: 'note', path: n.path } });
    const note = await store.readNote(slug, n.path).catch(() => null);
    const entries = note ? entryHeadings(note.body) : [];
    entries.forEach((heading, i) => items.push({ label: `entry ${i + 1} (${heading}) of ${n.path}`, target: { kind: 'entry', path: n.path, entry: i + 1 } }));
  }
  return items;
}
