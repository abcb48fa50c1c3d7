/**
 * The columns of a project's table (project-table.ts), as an Arrow schema. Loaded with the table
 * code, never at start-up.
 */
import { createRequire } from 'node:module';
import type * as Arrow from 'apache-arrow';

/**
 * LanceDB's own apache-arrow: its CommonJS build, which LanceDB (a CommonJS package) requires. An
 * `import` of the package would load its ES module build beside it, a second copy of Arrow (134
 * modules) loaded with the search index, for the few classes of the table's schema.
 */
const { Field, FixedSizeList, Float32, Float64, Int32, Schema, Utf8 } = createRequire(import.meta.url)('apache-arrow') as typeof Arrow;

/** One row per chunk: its place in the page, its texts, labels and vector. */
export function schema(dimensions: number): Arrow.Schema {
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
