/**
 * Page titles in the web app's words: an entity page by its name, and a day of the conversation
 * archive (what a search_memory hit in the chat's trace often is) as "conversation of <day>" in
 * the reader's locale, never as the file name's digits.
 */
import { describe, expect, it } from 'vitest';
import { day, pageTitle } from '../../src/web/client/words.js';

describe('pageTitle', () => {
  it('names an entity page by its file name in words', () => {
    expect(pageTitle('notes/People/Sarah-Chen.md')).toBe('Sarah Chen');
    expect(pageTitle('notes/People/Sarah-Chen.md:21')).toBe('Sarah Chen');
  });

  it('names a day of the conversation by its date in the reader’s locale', () => {
    expect(pageTitle('log/2026-12-02.md')).toBe(`conversation of ${day('2026-12-02')}`);
    expect(pageTitle('log/2026-12-02.md:14')).toBe(`conversation of ${day('2026-12-02')}`);
    expect(day('2026-12-02')).not.toContain('2026-12-02');
    expect(pageTitle('log/2026-12-02.md')).not.toMatch(/2026 12 02/);
  });
});
