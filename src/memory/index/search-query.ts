/**
 * The derived index's vocabulary: what a search asks (SearchQuery), what each of its passes
 * found (Candidates) and what a sync did (SyncStats). Types only, shared by the index, recall and
 * the benchmarks without importing the index.
 */
import type { ScoredChunk } from './project-table.js';

export interface SearchQuery {
  vector: Float32Array | null;
  terms: string[];
  limit: number;
  contextBoost: number;
  /** Time windows the question names: chunks said within them are searched for on their own. */
  windows?: readonly { start: number; end: number }[];
  /** Only pages whose path starts with this (e.g. `notes/`). */
  pagePrefix?: string;
  /** Benchmarks: hears how long each pass took (vector, keyword, temporal), in ms. */
  phase?: (phase: string, ms: number) => void;
}

/** What each pass of a search found; fusion merges them into one rank. */
export interface Candidates {
  vector: ScoredChunk[];
  keyword: ScoredChunk[];
  temporal: ScoredChunk[];
}

export interface SyncStats {
  projects: number;
  pages: number;
  changed: number;
  deleted: number;
  chunks: number;
  embedded: number;
  ms: number;
}
