/**
 * What of a page a prompt may see: held and superseded records stay on the page for the
 * record but never reach a model. (Records are parsed in src/memory/records; the core, which
 * imports no infrastructure, only needs the line syntax of src/core/records/line-syntax.ts: a
 * list item, its status field, its block id.)
 */
import { isSensitive, markedSensitivity } from '../privacy/sensitivity.js';
import { hasFieldValue, isListItem, recordIdsIn } from '../records/line-syntax.js';

const isHidden = (line: string) => isListItem(line) && hasFieldValue(line, 'status', ['held', 'superseded']);

export function withoutHiddenRecords(body: string): string {
  return body
    .split('\n')
    .filter((line) => !isHidden(line))
    .join('\n');
}

/** The block ids of the record lines in a text a model was shown (for the reply's "why?"). */
export function recordIds(text: string): string[] {
  return recordIdsIn(text);
}

/** For a hosted model: list items marked sensitive (any spelling, any kind) are cut, the rest kept. */
export function withoutSensitiveRecords(text: string): string {
  return text
    .split('\n')
    .filter((line) => !isSensitiveFactLine(line))
    .join('\n');
}

/** A list item (a fact line) marked sensitive, in any spelling and of any kind. */
export function isSensitiveFactLine(line: string): boolean {
  return isListItem(line) && isSensitive(markedSensitivity(line));
}
