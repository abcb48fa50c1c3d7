/**
 * Which LanceDB table holds a project's chunks: one per project, embedder and row layout (its
 * name says which), so none of them is ever mixed and a new layout gets a new table. Apart from
 * project-table.ts so the index names tables without loading LanceDB.
 */
import { sha1 } from './chunker.js';

/** Bumped when the row layout changes: a new layout gets a new table, the old one is dropped. */
const LAYOUT = 6;

/** One table per project, embedder and row layout, so none of them is ever mixed. */
export function tableName(project: string, embedderId: string): string {
  return `${project.replace(/[^A-Za-z0-9_-]/g, '_')}__${sha1(`${embedderId}\n${LAYOUT}`).slice(0, 10)}`;
}

export function projectOfTable(name: string): string | null {
  const m = /^(.*)__[0-9a-f]{10}$/.exec(name);
  return m ? m[1]! : null;
}
