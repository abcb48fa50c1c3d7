import { describe, expect, it } from 'vitest';
import { formatLogEntry, logFileHeading } from '../../src/memory/archive-format.js';
import { chunkPage, LONG_MESSAGE, spokenDate } from '../../src/memory/index/chunker.js';

describe('Markdown chunking', () => {
  const page = [
    '---',
    'title: Sarah Chen',
    'aliases: [Sarah, S. Chen]',
    'tags: [people]',
    'updated: 2026-11-20T10:00:00.000Z',
    'staleness: 4',
    '---',
    '',
    '# Sarah Chen',
    '',
    'Leads the payments team.',
    'Prefers async standups.',
    '',
    '## Related',
    '',
    '- [[People/David-Kim]] (manager)',
    '',
    '```',
    '# not a heading',
    '```',
  ].join('\n');

  it('splits by heading with line ranges, front matter metadata and a content hash', () => {
    const chunks = chunkPage('notes/People/Sarah-Chen.md', page);
    expect(chunks.map((c) => [c.heading, c.lineStart, c.lineEnd])).toEqual([
      ['Sarah Chen', 11, 12],
      ['Sarah Chen › Related', 16, 20],
    ]);
    expect(chunks[0]).toMatchObject({ updated: '2026-11-20T10:00:00.000Z', staleness: 4, entity: 'Sarah Chen · Sarah · S. Chen' });
    expect(chunks[0]!.context).toContain('#people');
    expect(chunks[1]!.text).toContain('# not a heading');
    expect(chunks[0]!.hash).toMatch(/^[0-9a-f]{40}$/);
    expect(chunkPage('notes/People/Sarah-Chen.md', page)[0]!.hash).toBe(chunks[0]!.hash);
  });

  it('splits long sections at paragraph boundaries', () => {
    const para = (n: number) => `Paragraph ${n} ${'word '.repeat(60)}`.trim();
    const text = ['# Long', '', para(1), '', para(2), '', para(3)].join('\n');
    const chunks = chunkPage('notes/Long.md', text, { maxChars: 400 });
    expect(chunks.map((c) => [c.lineStart, c.lineEnd])).toEqual([
      [3, 3],
      [5, 5],
      [7, 7],
    ]);
  });
});

describe('archive chunking', () => {
  const entries = [
    { time: '2023-05-08T13:56:00.000Z', speaker: 'Caroline', source: 'locomo:D1:1', text: 'I went to a support group yesterday.', role: 'user' as const },
    { time: '2023-05-08T13:56:10.000Z', speaker: 'Melanie', source: 'locomo:D1:2', text: 'How was it?\nTell me everything.', role: 'user' as const },
    { time: '2023-05-08T13:56:20.000Z', speaker: 'Caroline', source: 'locomo:D1:3', text: 'Really powerful.', role: 'user' as const },
  ];
  const content = logFileHeading('2023-05-08.md') + entries.map(formatLogEntry).join('');

  it('makes one chunk per message with its neighbours as context and the spoken date', () => {
    const chunks = chunkPage('log/2023-05-08.md', content);
    expect(chunks).toHaveLength(3);
    expect(chunks.map((c) => [c.lineStart, c.lineEnd])).toEqual([
      [3, 5],
      [7, 10],
      [12, 14],
    ]);
    expect(chunks[1]).toMatchObject({ text: 'How was it?\nTell me everything.', entity: 'Melanie', updated: '2023-05-08T13:56:10.000Z' });
    expect(chunks[1]!.heading).toBe('8 May 2023 13:56 · Melanie');
    expect(chunks[1]!.context).toBe('Caroline: I went to a support group yesterday.\nCaroline: Really powerful.');
    expect(chunks[0]!.context).toBe('Melanie: How was it?\nTell me everything.\nCaroline: Really powerful.');
    expect(chunkPage('log/2023-05-08.md', content, { neighbours: 1 })[0]!.context).toBe('Melanie: How was it?\nTell me everything.');
  });

  it('sections a long structured message by its headings and size; each section names its message and its lines', () => {
    const para = (word: string) => Array.from({ length: Math.ceil(LONG_MESSAGE / 40) }, (_, i) => `${word}${i}`).join(' ');
    const reply = [
      '## Setup',
      '',
      para('install'),
      '',
      '```sh',
      '# not a heading: inside a fence',
      'npm ci',
      '```',
      '',
      '## Usage',
      '',
      `- ${para('run')}`,
      `- ${para('stop')}`,
      '',
      para('usage'),
      '',
      para('more'),
      '',
      para('tail'),
    ].join('\n');
    expect(reply.length).toBeGreaterThan(LONG_MESSAGE);
    const long = [entries[0]!, { ...entries[1]!, role: 'assistant' as const, text: reply }, entries[2]!];
    const page = logFileHeading('2023-05-08.md') + long.map(formatLogEntry).join('');
    const chunks = chunkPage('log/2023-05-08.md', page);
    const whole = chunkPage('log/2023-05-08.md', content)[1]!;
    const sections = chunks.filter((c) => c.message !== undefined);
    expect(sections.length).toBeGreaterThanOrEqual(3);
    // every section points at its message's header line; the first starts there, the last ends with it
    expect(new Set(sections.map((c) => c.message))).toEqual(new Set([whole.lineStart]));
    expect(sections[0]!.lineStart).toBe(whole.lineStart);
    expect(chunks[chunks.length - 1]!.lineStart).toBe(sections.at(-1)!.lineEnd + 2);
    expect(sections.map((c) => c.heading.split(' › ').slice(1).join(' › '))).toEqual(['Setup', ...Array<string>(sections.length - 1).fill('Usage')]);
    // the fenced '#' line stayed code, in the Setup section
    expect(sections[0]!.text).toContain('# not a heading');
    // the section's lines are its text in the file
    const file = page.split('\n');
    for (const c of sections.slice(1))
      expect(
        file
          .slice(c.lineStart - 1, c.lineEnd)
          .join('\n')
          .trim(),
      ).toBe(c.text);
    // a short message stays one chunk, with no message pointer
    expect(chunks[0]!.message).toBeUndefined();
    expect(new Set(chunks.map((c) => c.lineStart)).size).toBe(chunks.length);
  });

  it('writes dates as people say them', () => {
    expect(spokenDate('2023-12-01')).toBe('1 December 2023');
  });
});

describe('which files are indexed', () => {
  it('takes layers, notes and the archive, never generated, hidden or temp files', async () => {
    const { isIndexedPage } = await import('../../src/memory/index/page-files.js');
    const yes = ['project.md', 'decisions.md', 'quotes.md', 'notes/People/Sarah-Chen.md', 'notes/Top.md', 'log/2026-11-29.md'];
    const no = ['notes/_index.md', 'notes/_log.md', 'log/notes.md', 'log/2026-11-29.md.tmp', 'notes/.draft.md', '.git/x.md', 'private/dm.md', 'other.md', 'notes/a.txt'];
    expect(yes.filter((p) => !isIndexedPage(p))).toEqual([]);
    expect(no.filter((p) => isIndexedPage(p))).toEqual([]);
  });
});

describe('a heading labels its section (sweep 7, P2)', () => {
  // a hand-written heading the rules label, over ordinary lines: the breadcrumb says it with every hit of the section
  const page = '---\ntitle: Family\n---\n\n## Tilda and the eating disorder clinic\n\nShe goes on Tuesdays.\n\n### Lifts\n\nDad drives.\n\n## Garden\n\nThe shed is green.\n';
  const chunks = chunkPage('notes/People/Family.md', page);
  it('the section under it and a deeper one are sensitive; the next section is not', () => {
    expect(chunks.find((c) => c.text.includes('Tuesdays'))?.sensitivity).toBe('sensitive');
    expect(chunks.find((c) => c.text.includes('Dad drives'))?.sensitivity).toBe('sensitive');
    expect(chunks.find((c) => c.text.includes('shed'))?.sensitivity).toBe('personal');
  });
});
