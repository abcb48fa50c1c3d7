/**
 * The record format's line syntax the core asks (src/core/records/line-syntax.ts) instead of
 * patterns of its own (issue 37): each rule on a line that is one and a line that only looks like one.
 */
import { describe, expect, it } from 'vitest';
import {
  bareId,
  blocksOf,
  entryHeadings,
  entrySpeakers,
  fieldValues,
  firstFieldValue,
  firstRecordId,
  hasFieldValue,
  isBlockRecordId,
  isFieldOnlyLine,
  isHeading,
  isListItem,
  listItemText,
  recordIdsIn,
  sectionsOf,
  withoutField,
  withoutFields,
} from '../../src/core/records/line-syntax.js';

describe('the record line syntax', () => {
  it('knows a list item and a heading from text that starts like one', () => {
    expect(['- a', '  * b', '+ c'].map(isListItem)).toEqual([true, true, true]);
    expect(['-a', '**bold**', '1. one'].map(isListItem)).toEqual([false, false, false]);
    expect([listItemText('  - Leads design. ^r-1a2b'), listItemText('-   '), listItemText('text - not')]).toEqual(['Leads design. ^r-1a2b', '', null]);
    expect(['# A', '###### F', '#hashtag', '####### seven'].map(isHeading)).toEqual([true, true, false, false]);
  });

  it('cuts a body into sections at headings and a section into paragraphs and list items', () => {
    expect(sectionsOf('intro\n## A\none\n### B\ntwo')).toEqual(['intro', '## A\none', '### B\ntwo']);
    expect(blocksOf('para one\nstill one\n\npara two\n- item a\n- item b')).toEqual(['para one\nstill one', 'para two', '- item a', '- item b']);
    expect(entryHeadings('### 2026-01-01\nx\n## Facts\n### 2026-01-02 late')).toEqual(['2026-01-01', '2026-01-02 late']);
  });

  it('reads record ids: written ones, ones a line carries, and a caret typed before one', () => {
    const text = '- Leads design. [type:: identity] ^r-7f3a\n- no id here\n- Again ^r-7f3a\nnot a list ^r-aaaa\n- hand made ^r-7f3a-x1';
    expect(recordIdsIn(text)).toEqual(['r-7f3a']);
    expect(firstRecordId('see ^r-ab12 then ^r-cd34')).toBe('r-ab12');
    expect(firstRecordId('^r-xyz1')).toBeUndefined();
    expect(['r-7f3a-x1', 'r-A1', 'r-a_b', 'x-1'].map(isBlockRecordId)).toEqual([true, true, false, false]);
    expect([bareId('^r-7f3a'), bareId('r-7f3a')]).toEqual(['r-7f3a', 'r-7f3a']);
  });

  it('reads, tests and removes inline fields by key, in any case', () => {
    const line = '- Takes pills [Sensitivity:: sensitive/phi] [about:: health ] [status::held] ^r-1234';
    expect(fieldValues(line, 'sensitivity')).toEqual(['sensitive/phi']);
    expect(firstFieldValue(line, 'about')).toBe('health');
    expect(firstFieldValue('[about:: ]', 'about')).toBeUndefined();
    expect(hasFieldValue(line, 'status', ['held', 'superseded'])).toBe(true);
    expect(hasFieldValue('- x [status:: active]', 'status', ['held', 'superseded'])).toBe(false);
    expect(withoutField(line, 'sensitivity')).toBe('- Takes pills  [about:: health ] [status::held] ^r-1234');
    expect(withoutFields('a [type:: x] b [Kept:: y]')).toBe('a   b [Kept:: y]');
    expect([isFieldOnlyLine('  [sensitivity:: sensitive]  ', 'sensitivity'), isFieldOnlyLine('text [sensitivity:: sensitive]', 'sensitivity')]).toEqual([true, false]);
  });

  it("reads the speakers of archive entries' headers", () => {
    expect(entrySpeakers('### 10:02:00 · Ann · [↗](x)\n\nhi\n\n### 10:03 · Charlie (reply) · [↗](y)\nnot ### 10:04 · Bob ·')).toEqual(['Ann', 'Charlie (reply)']);
  });
});
