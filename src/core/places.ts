/**
 * A conversation's home: a shared Markdown project or a private DM in SQLite. Both look the
 * same to the turn (history, archive, layers, distillation target); only the storage differs.
 */
import type { Place } from './assistant-api.js';
import type { DistillTarget } from './distill.js';
import type { LogEntry, MemoryLayers, PrivateStore, ProjectConfig, ProjectStore, FileProblem } from './ports.js';
import type { ToolScope } from './tools/tool.js';

export interface Home {
  /** Project slug, or `dm:<userId>` for a private conversation. */
  key: string;
  name: string;
  scope: ToolScope;
  config?: ProjectConfig;
  problems: FileProblem[];
  style: string;
  distillEvery: number;
  recent(limit: number): Promise<LogEntry[]>;
  archive(entry: LogEntry): Promise<void>;
  layers(): Promise<{ layers: MemoryLayers; problems: FileProblem[] }>;
  distillTarget(): DistillTarget;
}

export class NoPrivateStoreError extends Error {
  constructor() {
    super('private conversations need the SQLite private store, which is not configured');
  }
}

export async function openHome(place: Place, store: ProjectStore, privateStore: PrivateStore | undefined, distillEvery: number): Promise<Home> {
  if (place.kind === 'private') {
    if (!privateStore) throw new NoPrivateStoreError();
    return privateHome(place.userId, place.userName, privateStore, distillEvery);
  }
  const config = await store.ensureProject(place.origin);
  const found = await store.getProject(config.slug);
  return projectHome(found?.config ?? config, found?.problems ?? [], store);
}

function projectHome(config: ProjectConfig, problems: FileProblem[], store: ProjectStore): Home {
  const slug = config.slug;
  return {
    key: slug,
    name: config.name,
    scope: { kind: 'project', slug },
    config,
    problems,
    style: config.style,
    distillEvery: config.distillEvery,
    recent: (limit) => store.recentLog(slug, limit),
    archive: async (entry) => {
      if (config.archive) await store.appendLog(slug, entry);
    },
    layers: async () => {
      const s = await store.readLayers(slug);
      return { layers: s.layers, problems: s.problems };
    },
    distillTarget: () => ({
      label: slug,
      async pending() {
        const cursor = await store.getDistillCursor(slug);
        const tail = await store.readLogSince(slug, cursor);
        return {
          entries: tail.entries,
          commit: async () => {
            if (tail.cursor) await store.setDistillCursor(slug, tail.cursor);
          },
        };
      },
      readLayers: () => store.readLayers(slug),
      writeLayers: (layers, versions) => store.writeLayers(slug, layers, versions),
      saveEntity: async (draft) => {
        await store.saveNote(slug, draft);
      },
    }),
  };
}

function privateHome(userId: string, userName: string, store: PrivateStore, distillEvery: number): Home {
  const current = store.readLayers(userId);
  return {
    key: `dm:${userId}`,
    name: `private conversation with ${userName}`,
    scope: { kind: 'private', userId },
    problems: [],
    style: current.style,
    distillEvery,
    recent: async (limit) => store.recentMessages(userId, limit),
    archive: async (entry) => store.appendMessage(userId, entry),
    layers: async () => ({ layers: store.readLayers(userId), problems: [] }),
    distillTarget: () => {
      let through = 0;
      return {
        label: `dm:${userId}`,
        async pending() {
          const { distilledThrough } = store.readLayers(userId);
          const rows = store.messagesSince(userId, distilledThrough);
          through = rows.length ? rows[rows.length - 1]!.id : distilledThrough;
          // The cursor moves together with the layers, in writeLayers (one SQLite write).
          return { entries: rows.map((r) => r.entry), commit: async () => {} };
        },
        readLayers: async () => {
          const { summary, decisions, quotes } = store.readLayers(userId);
          return { layers: { summary, decisions, quotes }, versions: {} };
        },
        writeLayers: async (layers) => {
          store.writeLayers(userId, layers, through);
          return { ok: true };
        },
      };
    },
  };
}
