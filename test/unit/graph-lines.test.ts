import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseSimpleYaml } from '../../src/memory/markdown/simple-yaml.js';
import { parseFactLine, parseFields, parseLinkLine, renderFact, renderLink, withSaid } from '../../src/memory/markdown/lines.js';
import { addToSection } from '../../src/memory/graph/page-edit.js';

const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_, x: unknown) => (typeof x === 'bigint' ? Number(x) : x)));

describe('the fast front matter reader', () => {
  const samples = [
    'title: Sarah Chen\naliases: [Sarah, "sarah.chen@acme.example"]\nstaleness: 3\ncreated: 2026-05-24\n',
    'title: Café Crème\ntags:\n  - a\n  - "b c"\nsources:\n  - https://discord.com/channels/1/2/3\n',
    "title: 'It''s'\n",
    'title: a # comment\nconfidence: 0.9\nupdated: 2026-11-29T18:20:11.000Z\n',
    'title: yes\nflag: true\n',
    'discord_id: 123456789012345678\n',
    'aliases: []\nempty:\n',
    'title: x\ntitle: y\n',
    'nested:\n  a: 1\n',
    'text: |\n  block\n',
    'title: "esc\\"aped"\n',
    'list: [a, [b]]\n',
    'odd: 0x1F\nn: 1e3\n',
    'k: -dash\n',
    '# only a comment\ntitle: T\n',
  ];
  it('reads exactly what the yaml library reads, or leaves the text to it', () => {
    let fast = 0;
    for (const s of samples) {
      const mine = parseSimpleYaml(s);
      if (mine === null) continue;
      fast++;
      expect(plain(mine), s).toEqual(plain(parse(s, { intAsBigInt: true })));
    }
    expect(fast).toBeGreaterThanOrEqual(5);
    expect(parseSimpleYaml('title: x\ntitle: y\n')).toBeNull();
    expect(parseSimpleYaml('flag: true\n')).toBeNull();
    expect(parseSimpleYaml('discord_id: 123456789012345678\n')).toBeNull();
  });
});

describe('fact and link lines', () => {
  it('round-trips a fact with Dataview fields and a block id', () => {
    const line = renderFact('People/Sarah.md', { text: 'Prefers async updates.', type: 'preference', said: '2026-06-20', source: 'https://discord.com/channels/1/2/4' });
    const fact = parseFactLine(line, 7);
    expect(fact).toMatchObject({ line: 7, text: 'Prefers async updates.', blockId: expect.stringMatching(/^r-[0-9a-f]{6}$/) });
    expect(fact?.fields).toEqual([
      { key: 'type', value: 'preference' },
      { key: 'said', value: '2026-06-20' },
      { key: 'source', value: '[msg](https://discord.com/channels/1/2/4)' },
    ]);
    expect(withSaid(line, '2026-07-01')).toContain('[said:: 2026-07-01]');
    expect(withSaid(line, '2026-07-01')).toMatch(/\^r-[0-9a-f]{6}$/);
  });
  it('reads links with labels, display text and headings', () => {
    expect(parseLinkLine('- [[Work/Acme|the firm]] (employer) [source:: [msg](https://x/1)]', 3)).toEqual({
      line: 3,
      target: 'Work/Acme',
      label: 'employer',
      fields: [{ key: 'source', value: '[msg](https://x/1)' }],
    });
    expect(parseLinkLine('* [[Places/Lisbon.md#Food]]', 1)).toMatchObject({ target: 'Places/Lisbon', label: '' });
    expect(parseLinkLine('Some prose with [[Link]]', 1)).toBeNull();
    expect(renderLink('Work/Acme.md', 'employer (current)', '[[Work/Acme]]')).toBe('- [[Work/Acme]] (employer current) [source:: [[Work/Acme]]]');
    expect(parseFields('text [a:: [[X]]] more [b:: 1]')).toEqual({
      fields: [
        { key: 'a', value: '[[X]]' },
        { key: 'b', value: '1' },
      ],
      rest: 'text more',
    });
  });
  it('adds to a section, creating it before Related when missing', () => {
    const page = '---\ntitle: A\n---\n\nIntro.\n\n## Related\n\n- [[B]] (friend)\n\n## Notes\n\nHand text.\n';
    const withFact = addToSection(page, 'Facts', ['- F1'], 'Related');
    expect(withFact).toBe('---\ntitle: A\n---\n\nIntro.\n\n## Facts\n\n- F1\n\n## Related\n\n- [[B]] (friend)\n\n## Notes\n\nHand text.\n');
    expect(addToSection(withFact, 'Related', ['- [[C]] (x)'])).toContain('- [[B]] (friend)\n- [[C]] (x)\n\n## Notes');
  });
});
