/** A temp projects/ + data/ pair with a real LanceDB index and SQLite usage store. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Clock, Embedder, Logger } from '../../src/core/ports/index.js';
import { HashingEmbedder } from '../../src/memory/index/hashing-embedder.js';
import { createRecall, type RecallService } from '../../src/memory/recall.js';
import type { RecallWeights } from '../../src/memory/index/fusion.js';
import { SqliteUsageStore } from '../../src/storage/usage-store.js';

/** Wraps an embedder and counts the texts it was asked to embed. */
export class CountingEmbedder implements Embedder {
  texts: string[] = [];
  constructor(private readonly inner: Embedder = new HashingEmbedder()) {}
  get id() {
    return this.inner.id;
  }
  get dimensions() {
    return this.inner.dimensions;
  }
  get semantic() {
    return this.inner.semantic;
  }
  get locality() {
    return this.inner.locality;
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    this.texts.push(...texts);
    return this.inner.embed(texts);
  }
  /** Queries are counted apart, so `texts` holds only indexing work. */
  async embedQuery(text: string): Promise<Float32Array> {
    const [v] = await this.inner.embed([text]);
    return v!;
  }
}

export interface RetrievalFixture {
  root: string;
  projectsDir: string;
  dataDir: string;
  usage: SqliteUsageStore;
  /** Warnings logged by the services opened through `open`. */
  warnings: string[];
  write(project: string, page: string, content: string): void;
  open(embedder?: Embedder, weights?: Partial<RecallWeights>, clock?: Clock): RecallService;
  cleanup(): Promise<void>;
}

export function retrievalFixture(): RetrievalFixture {
  const root = mkdtempSync(join(tmpdir(), 'charlie-retrieval-'));
  const projectsDir = join(root, 'projects');
  const dataDir = join(root, 'data');
  mkdirSync(projectsDir, { recursive: true });
  const usage = new SqliteUsageStore(join(dataDir, 'usage.sqlite'));
  const services: RecallService[] = [];
  const warnings: string[] = [];
  const logger: Logger = {
    debug() {},
    info() {},
    warn: (obj, msg) => void warnings.push(typeof obj === 'string' ? obj : (msg ?? '')),
    error: (obj, msg) => void warnings.push(typeof obj === 'string' ? obj : (msg ?? '')),
    child: () => logger,
  };
  return {
    warnings,
    root,
    projectsDir,
    dataDir,
    usage,
    write(project, page, content) {
      const path = join(projectsDir, project, page);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    },
    open(embedder = new HashingEmbedder(), weights, clock) {
      const s = createRecall({ projectsDir, dataDir, embedder, usage, logger, weights: { recency: 0, ...weights }, ...(clock ? { clock } : {}) });
      services.push(s);
      return s;
    },
    async cleanup() {
      for (const s of services) await s.close().catch(() => undefined);
      usage.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export function note(title: string, body: string, extra = ''): string {
  return `---\nschema: 1\ntitle: ${title}\n${extra}updated: 2026-11-01T00:00:00.000Z\nstaleness: 2\n---\n\n# ${title}\n\n${body}\n`;
}
