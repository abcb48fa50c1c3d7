/**
 * What of a page a prompt may see: held and superseded records stay on the page for the
 * record but never reach a model. (Records are parsed in src/memory/records; the core, which
 * imports no infrastructure, only needs to recognise the status field on a list line.)
 */
import { isSensitive, markedSensitivity } from '../privacy/sensitivity.js';

const HIDDEN = /^\s*[-*+]\s.*\[status::\s*(?:held|superseded)\s*\]/i;

export function withoutHiddenRecords(body: string): string {
  return body
    .split('\n')
    .filter((line) => !HIDDEN.test(line))
    .join('\n');
}

const BLOCK_ID = /^\s*[-*+]\s.*\s\^(r-[0-9a-f]{4,12})\s*$/gm;

/** The block ids of the record lines in a text a model was shown (for the reply's "why?"). */
export function recordIds(text: string): string[] {
  return [...new Set([...text.matchAll(BLOCK_ID)].map((m) => m[1] ?? ''))].filter(Boolean);
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
  return /^\s*[-*+]\s/.test(line) && isSensitive(markedSensitivity(line));
}
