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
});
