/**
 * A project table's row format (project-table.ts; its Arrow schema is table-schema.ts's): a chunk as
 * the row written, and a row read back as the chunk kept in memory.
 */
import type { Chunk } from './chunker.js';

export interface StoredChunk extends Chunk {
  embedder: string;
  /** An archive message's content words (fusion's brevity prior), counted on its first search and kept in memory. */
  contentWords?: number;
}

export interface ChunkRow extends StoredChunk {
  vector: Float32Array;
}

/** The columns a search shows (a row without its vector, search text and context). */
export const SHOWN = ['page', 'heading', 'line_start', 'line_end', 'message_line', 'text', 'entity', 'updated', 'staleness', 'sensitivity', 'hash', 'embedder'];

/** A chunk with its vector as the table stores it. */
export function toRow(r: ChunkRow): Record<string, unknown> {
  return {
    page: r.page,
    heading: r.heading,
    line_start: r.lineStart,
    line_end: r.lineEnd,
    message_line: r.message ?? 0,
    text: r.text,
    search_text: `${r.heading}\n${r.text}`,
    context: r.context,
    entity: r.entity,
    updated: r.updated,
    staleness: r.staleness,
    sensitivity: r.sensitivity,
    hash: r.hash,
    embedder: r.embedder,
    vector: Array.from(r.vector),
  };
}

/** A row read from the table as the chunk kept in memory. */
export function toChunk(r: Record<string, unknown>): StoredChunk {
  return {
    page: String(r.page),
    heading: String(r.heading),
    lineStart: Number(r.line_start),
    lineEnd: Number(r.line_end),
    text: String(r.text),
    context: typeof r.context === 'string' ? r.context : '',
    entity: String(r.entity),
    updated: String(r.updated),
    staleness: Number(r.staleness),
    sensitivity: r.sensitivity === 'sensitive' || r.sensitivity === 'public' ? r.sensitivity : 'personal',
    hash: String(r.hash),
    embedder: String(r.embedder),
    ...(Number(r.message_line) > 0 ? { message: Number(r.message_line) } : {}),
  };
}
