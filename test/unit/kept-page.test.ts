/**
 * The page cache's copy of a page (src/memory/graph/kept-page.ts): the same page as read, with
 * short fields shared between records as one frozen object each (docs/performance.md, "A small machine").
 */
import { describe, expect, it } from 'vitest';
import { PageKeeper } from '../../src/memory/graph/kept-page.js';
import { readPage } from '../../src/memory/graph/page.js';

const page = (title: string, source: string) =>
  [
    '---',
    'schema: 1',
    `title: ${title}`,
    'category: People',
    'created: 2025-12-01T10:00:00.000Z',
    'updated: 2026-10-01T10:00:00.000Z',
    '---',
    '',
    '## Facts',
    `- Likes quince jam. [type:: fact] [confidence:: 0.8] [said:: 2026-05-01] [source:: ${source}] ^r-1a2b3c`,
    `- Works at Globex. [type:: fact] [confidence:: 0.8] [said:: 2026-05-02] [source:: ${source}]`,
    '',
    '## Related',
    '- [[People/Sarah]] (knows) [since:: 2020]',
    '',
  ].join('\n');

describe('the page cache keeps pages', () => {
  it('as they were read, with each short field one shared frozen object', () => {
    const keeper = new PageKeeper();
    const readA = readPage(page('Ann', 'terminal:1'), 'People/Ann.md', 'notes/People/Ann.md');
    const readB = readPage(page('Bob', 'log/2026-05-01.md:12 and a long source past the shared length'), 'People/Bob.md', 'notes/People/Bob.md');
    const a = keeper.keep(readA);
    const b = keeper.keep(readB);
    expect(a).toEqual(readA);
    expect(b).toEqual(readB);
    if (!a.ok || !b.ok) throw new Error('the pages should read');
    const typeA = a.page.facts[0]!.fields.find((f) => f.key === 'type')!;
    const typeB = b.page.facts[1]!.fields.find((f) => f.key === 'type')!;
    expect(typeA).toBe(typeB);
    expect(Object.isFrozen(typeA)).toBe(true);
    expect(a.page.facts[0]!.fields.find((f) => f.key === 'confidence')).toBe(b.page.facts[0]!.fields.find((f) => f.key === 'confidence'));
    // a long value is the record's own (and an array of fields can still take a field: graph-write adds a source)
    const longSource = b.page.facts[0]!.fields.find((f) => f.key === 'source')!;
    expect(Object.isFrozen(longSource)).toBe(false);
    a.page.facts[0]!.fields.push({ key: 'source', value: 'terminal:2' });
    expect(b.page.facts[0]!.fields).toHaveLength(4);
  });

  it('with every empty list one shared frozen array, and the rest its own', () => {
    const keeper = new PageKeeper();
    const bare = (title: string) => ['---', 'schema: 1', `title: ${title}`, '---', '', '## Facts', '- Likes plums.', '', '## Related', '- [[People/Ann]] (knows)', ''].join('\n');
    const readC = readPage(bare('Cy'), 'People/Cy.md', 'notes/People/Cy.md');
    const readD = readPage(bare('Di'), 'People/Di.md', 'notes/People/Di.md');
    // the cache passes its key as the page's path, kept as it is
    const c = keeper.keep(readC, 'People/Cy.md');
    const d = keeper.keep(readD);
    expect(c).toEqual(readC);
    expect(d).toEqual(readD);
    if (!c.ok || !d.ok) throw new Error('the pages should read');
    const empties = [c.page.aliases, c.page.tags, c.page.facts, c.page.unsourced[0]!.fields, c.page.links[0]!.fields];
    for (const empty of empties) {
      expect(empty).toHaveLength(0);
      expect(empty).toBe(d.page.aliases);
      expect(Object.isFrozen(empty)).toBe(true);
    }
    expect(() => c.page.tags.push('x')).toThrow(TypeError);
    expect(d.page.tags).toHaveLength(0);
    expect(c.page.unsourced).not.toBe(d.page.unsourced);
    expect(c.page.links).not.toBe(d.page.links);
  });
});
