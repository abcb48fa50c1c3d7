/**
 * The derived index's vocabulary: what a search asks (SearchQuery), what each of its passes
 * found (Candidates) and what a sync did (SyncStats, with its sums). Shared by the index, recall
 * and the benchmarks without importing the index.
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

export const emptyStats = (): SyncStats => ({ projects: 0, pages: 0, changed: 0, deleted: 0, chunks: 0, embedded: 0, ms: 0 });

/** Adds one project's sync to `total` (its time is the caller's to measure). */
export function addStats(total: SyncStats, s: SyncStats): void {
  total.projects++;
  total.pages += s.pages;
  total.changed += s.changed;
  total.deleted += s.deleted;
  total.chunks += s.chunks;
  total.embedded += s.embedded;
}
