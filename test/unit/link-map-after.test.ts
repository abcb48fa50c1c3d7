import { describe, expect, it } from 'vitest';
import { readPage, type WikiPage } from '../../src/memory/graph/page.js';
import { linkMap, linkMapAfter } from '../../src/memory/graph/traversal.js';
import { snapshot } from '../../src/memory/graph/wiki-pages.js';

function page(path: string, title: string, links: string[]): WikiPage {
  const text = `---\nschema: 1\ntitle: ${title}\n---\n\n## Related\n\n${links.map((l) => `- [[${l}]] knows`).join('\n')}\n`;
  const read = readPage(text, path, path);
  if (!read.ok) throw new Error('unreadable test page');
  return read.page;
}

describe('linkMapAfter', () => {
  it('gives the same map as a whole rebuild after pages were read again with the same names', () => {
    const pages = new Map([
      ['People/Ann.md', page('People/Ann.md', 'Ann', ['People/Bob'])],
      ['People/Bob.md', page('People/Bob.md', 'Bob', ['People/Ann', 'Cat'])],
      ['People/Cat.md', page('People/Cat.md', 'Cat', [])],
    ]);
    const before = snapshot(pages, []);
    const links = linkMap(before);
    // a hand edit: Ann now links to Cat as well, Bob to nobody (same titles: the snapshot is patched)
    const edited = new Map(pages);
    edited.set('People/Ann.md', page('People/Ann.md', 'Ann', ['People/Bob', 'Cat']));
    edited.set('People/Bob.md', page('People/Bob.md', 'Bob', []));
    const after = { ...before, pages: edited };
    const incremental = linkMapAfter({ snap: before, links }, after);
    expect(incremental).not.toBeNull();
    expect(Object.fromEntries(incremental!)).toEqual(Object.fromEntries(linkMap(after)));
    expect(incremental!.get('notes/People/Ann.md')).toEqual(['notes/People/Bob.md', 'notes/People/Cat.md']);
    expect(incremental!.has('notes/People/Bob.md')).toBe(false);
    // names may have changed (a new snapshot, its own targets): no shortcut
    expect(linkMapAfter({ snap: before, links }, snapshot(edited, []))).toBeNull();
  });

  it('resolves only the links of the pages a patched snapshot names (a scripted resolver counts)', () => {
    const pages = new Map(Array.from({ length: 50 }, (_, i) => [`People/P${i}.md`, page(`People/P${i}.md`, `P${i}`, [`People/P${(i + 1) % 50}`, `People/P${(i + 2) % 50}`])]));
    const base = snapshot(pages, []);
    const resolved: string[] = [];
    const counting = { ...base, target: (link: string) => (resolved.push(link), base.target(link)) };
    const links = linkMap(counting);
    expect(resolved).toHaveLength(100);
    resolved.length = 0;
    const edited = new Map(pages);
    edited.set('People/P3.md', page('People/P3.md', 'P3', ['People/P40']));
    const after = { ...counting, pages: edited, serial: counting.serial + 1000, patch: { of: counting.serial, paths: ['People/P3.md'] } };
    const incremental = linkMapAfter({ snap: counting, links }, after)!;
    expect(resolved).toEqual(['People/P40']);
    expect(incremental.get('notes/People/P3.md')).toEqual(['notes/People/P40.md']);
    expect(Object.fromEntries(incremental)).toEqual(Object.fromEntries(linkMap(after)));
  });
});
