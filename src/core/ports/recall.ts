/** Ports owned by the core: retrieval. Adapters implement them; nothing here imports infrastructure. */
import type { Sensitivity } from '../privacy/sensitivity.js';
import type { Locality } from './chat-model.js';

/**
 * The embedder port: texts in, unit-length vectors out. The index stores every vector
 * with the embedder's id (`model:dimensions`) so a change of embedder re-embeds and
 * never mixes vectors of two models.
 */
export interface Embedder {
  /** `model:dimensions`, e.g. `Xenova/all-MiniLM-L6-v2:384` or `builtin-hash-v2:384`. */
  readonly id: string;
  readonly dimensions: number;
  /** Whether the embedder is a real sentence model (vs lexical hashing). */
  readonly semantic: boolean;
  /** Where it runs: a hosted embedder is never given a sensitive chunk or query (they are found by keywords). */
  readonly locality: Locality;
  embed(texts: string[]): Promise<Float32Array[]>;
  /** A search query's vector, when the model wants queries phrased differently (bge prefix). */
  embedQuery?(text: string): Promise<Float32Array>;
}

export interface ScoreParts {
  vector: number;
  keyword: number;
  usage: number;
  recency: number;
}

export interface RecallHit {
  /** Page path relative to the project folder, e.g. `notes/People/Sarah-Chen.md` or `log/2026-11-29.md`. */
  page: string;
  heading: string;
  lineStart: number;
  lineEnd: number;
  text: string;
  updated: string;
  staleness: number;
  score: number;
  parts: ScoreParts;
  /**
   * For a passage of typed records: the best effective confidence among them (confidence
   * decayed by category, see src/memory/records/decay.ts), which also multiplied the score.
   */
  confidence?: number;
  /** Which signals fired, e.g. ["vector", "keyword"]. */
  why: string[];
  /** The chunk's sensitivity: its page's front matter, or its own marker. */
  sensitivity?: Sensitivity;
  /** A section of a long archive message: the message's header line (lineStart..lineEnd is the section). */
  message?: number;
}

export interface RecallScope {
  project: string;
  limit?: number;
  /** Only note pages (records and the pages they live on): for "why", where archive messages would fill the hits. */
  notesOnly?: boolean;
  /** Asked by a turn that drew on sensitive context: the question gets no hosted vector (keywords answer it). */
  tainted?: boolean;
}

export interface Recall {
  recall(query: string, scope: RecallScope): Promise<RecallHit[]>;
  /**
   * The project's pages changed where the file watcher may not have said so yet (a label raised in
   * the archive): they are read again now, so the next search never finds the row as it was.
   */
  changed?(project: string): Promise<unknown>;
}

export type UsageKind = 'view' | 'tag' | 'suggestion_accepted' | 'retrieved';

export interface UsageStore {
  record(project: string, page: string, kind: UsageKind, at?: Date): void;
  /** Boost in [0, 1] of each of `pages` (none: 0), read at once: a search asks for a hundred candidates' pages. */
  boosts(project: string, pages: readonly string[], at?: Date): Map<string, number>;
}
