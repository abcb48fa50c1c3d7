/**
 * The page and archive grammar sync's merge reads (src/core/sync), from the one parser of each:
 * fact lines and inline fields (lines.ts), archive entry headers (archive-format.ts), front matter
 * fences as the merge compares them line by line.
 */
import type { MemoryGrammar } from '../../core/ports/index.js';
import { retrievable } from '../../core/records/record.js';
import { entryHeaderTime } from '../archive-format.js';
import { field, parseFactLine, setField } from '../markdown/lines.js';

const BLOCK_ID = /\^[A-Za-z0-9-]+(\s*)$/;

export const syncGrammar: MemoryGrammar = {
  record(line) {
    const fact = parseFactLine(line, 0);
    if (!fact?.blockId) return null;
    const status = field(fact.fields, 'status')?.toLowerCase() ?? 'active';
    return { id: fact.blockId, text: fact.text, about: field(fact.fields, 'about') ?? '', open: retrievable(status), fields: fact.fields };
  },
  setField,
  withId: (line, id) => line.replace(BLOCK_ID, `^${id}$1`),
  entryTime: entryHeaderTime,
  frontMatter(text) {
    const lines = text.split('\n');
    if (lines[0] !== '---') return { fm: null, body: lines };
    const end = lines.indexOf('---', 1);
    return end < 0 ? { fm: null, body: lines } : { fm: lines.slice(1, end), body: lines.slice(end + 1) };
  },
};
