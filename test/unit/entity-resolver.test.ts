/**
 * Entity resolution (src/memory/graph/resolver.ts) and a snapshot's link targets
 * (src/memory/graph/wiki-pages.ts), kept compact (a name that means one page holds its path, not
 * a set of one): one page, several pages and every kind of name answer as they did.
 */
import { describe, expect, it } from 'vitest';
import { EntityResolver } from '../../src/memory/graph/resolver.js';
import { snapshot } from '../../src/memory/graph/wiki-pages.js';
import type { WikiPage } from '../../src/memory/graph/page.js';

const page = (path: string, title: string, aliases: string[] = [], discordId?: string) => ({
  path,
  title,
  aliases,
  category: path.split('/')[0]!,
  ...(discordId ? { discordId } : {}),
});

const pages = [
  page('People/Ann-Lee.md', 'Ann Lee', ['Annie']),
  page('People/Ann-Lee-2.md', 'Ann Lee'),
  page('People/Bo-Ray.md', 'Bo Ray', [], '42'),
  page('Places/Old-Mill.md', 'The Mill', ['Mill']),
  page('Things/Mill.md', 'Grinder', ['Mill']),
  page('Topics/Mill.md', 'Milling'),
];

describe('EntityResolver', () => {
  const r = new EntityResolver(pages);

  it('answers one page by its title, alias, file name, first name, Discord id and path', () => {
    expect(r.resolve('bo ray')).toBe('People/Bo-Ray.md');
    expect(r.resolve('Bo')).toBe('People/Bo-Ray.md');
    expect(r.resolve('Annie')).toBe('People/Ann-Lee.md');
    expect(r.resolve('Old Mill')).toBe('Places/Old-Mill.md');
    expect(r.resolve('someone', '42')).toBe('People/Bo-Ray.md');
    expect(r.resolve('notes/People/Ann-Lee-2.md')).toBe('People/Ann-Lee-2.md');
    expect(r.resolve('Nobody')).toBeNull();
  });

  it('gives every page a shared name means, sorted, and resolves none of them', () => {
    expect(r.candidates('Ann Lee')).toEqual(['People/Ann-Lee-2.md', 'People/Ann-Lee.md']);
    expect(r.resolve('Ann Lee')).toBeNull();
    // first names shared by two person pages
    expect(r.candidates('Ann')).toEqual(['People/Ann-Lee-2.md', 'People/Ann-Lee.md']);
    // an alias of two pages and the file name of a third; a page twice under one name counts once
    expect(r.candidates('Mill')).toEqual(['Places/Old-Mill.md', 'Things/Mill.md', 'Topics/Mill.md']);
    const again = new EntityResolver([...pages, page('Things/Mill.md', 'Grinder', ['Mill'])]);
    expect(again.candidates('Mill')).toEqual(['Places/Old-Mill.md', 'Things/Mill.md', 'Topics/Mill.md']);
  });

  it('names in a text only the pages a name means alone, in order of first mention', () => {
    expect(r.mentions('Bo Ray met Ann Lee at the Mill (not a Mill of many), then Annie and Bo again; Grinder too.')).toEqual([
      'People/Bo-Ray.md',
      'Places/Old-Mill.md',
      'People/Ann-Lee.md',
      'Things/Mill.md',
    ]);
  });
});

describe('a snapshot link target', () => {
  const snap = snapshot(new Map(pages.map((p) => [p.path, { ...p, tags: [], facts: [], links: [], unsourced: [] } as unknown as WikiPage])), []);

  it('finds a path, any case, or a file name only one page has', () => {
    expect(snap.target('People/Bo-Ray')).toBe('People/Bo-Ray.md');
    expect(snap.target('notes/people/ann-lee.md')).toBe('People/Ann-Lee.md');
    expect(snap.target('bo-ray')).toBe('People/Bo-Ray.md');
    expect(snap.target('Mill')).toBeNull();
    expect(snap.target('Old-Mill')).toBe('Places/Old-Mill.md');
    expect(snap.target('Nowhere')).toBeNull();
  });
});
