/**
 * CHARLIE_MEMORY_BUDGET, shared out: what the search index may keep in memory. One figure for
 * the owner to set, split here into LanceDB's two caches (vector index partitions; table
 * metadata, which every archive append adds a version of) and the projects kept resident (each
 * one's keyword index, rows and, up to `vectorRows`, vectors; resident-set.ts lets go of the
 * least recently used past it). Tuned on bench:scale (docs/performance.md, "A small machine").
 */
const MB = 1024 * 1024;

export interface MemoryBudget {
  /** The whole budget, in bytes. */
  bytes: number;
  /** LanceDB's index cache (the vector index of the largest table searched). */
  indexCacheBytes: number;
  /** LanceDB's metadata cache (manifests: old versions are never read again). */
  metadataCacheBytes: number;
  /** The projects' in-memory indexes together: past it the least recently used are let go. */
  residentBytes: number;
  /** A project not searched for this long is let go (read again on its next search). */
  idleMs: number;
  /** What one project's in-memory vectors may take (past it, or past the table's vector index size, LanceDB's index answers). */
  vectorBytes: number;
}

/** Before LanceDB's index cache is let grow past this, it is worth more as resident projects. */
const MAX_INDEX_CACHE = 256 * MB;
const MAX_METADATA_CACHE = 16 * MB;
export const IDLE_MS = 10 * 60_000;

/** The budget of `mb` megabytes (CHARLIE_MEMORY_BUDGET), shared out. */
export function memoryBudget(mb: number, idleMs = IDLE_MS): MemoryBudget {
  const bytes = Math.max(1, mb) * MB;
  // half: the vector index of a 10,000-page project (about 45,000 rows) must fit, or every search reads it
  // again (a sixth, 32 MB of 192, doubled recall's p50 and took its p95 past a second in bench:scale)
  const indexCacheBytes = Math.min(MAX_INDEX_CACHE, Math.floor(bytes / 2));
  const metadataCacheBytes = Math.max(2 * MB, Math.min(MAX_METADATA_CACHE, Math.floor(bytes / 16)));
  const residentBytes = Math.max(0, bytes - indexCacheBytes - metadataCacheBytes);
  return {
    bytes,
    indexCacheBytes,
    metadataCacheBytes,
    residentBytes,
    idleMs,
    // a project's vectors take at most an eighth of what residents may hold (384 dimensions: 8,000 rows are 12 MB)
    vectorBytes: Math.floor(residentBytes / 8),
  };
}
