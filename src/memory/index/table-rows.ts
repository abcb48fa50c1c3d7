/**
 * A project table's row format (project-table.ts): its Arrow schema, a chunk as the row written,
 * and a row read back as the chunk kept in memory.
 */
import { Field, FixedSizeList, Float32, Float64, Int32, Schema, Utf8 } from 'apache-arrow';
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

export function schema(dimensions: number): Schema {
  const str = (name: string) => new Field(name, new Utf8(), false);
  return new Schema([
    str('page'),
    str('heading'),
    new Field('line_start', new Int32(), false),
    new Field('line_end', new Int32(), false),
    // a section of a long archive message: the message's header line (0: a whole message or a note)
    new Field('message_line', new Int32(), false),
    str('text'),
    str('search_text'),
    str('context'),
    str('entity'),
    str('updated'),
    new Field('staleness', new Float64(), false),
    str('sensitivity'),
    str('hash'),
    str('embedder'),
    new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
  ]);
}

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
