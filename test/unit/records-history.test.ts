/** The record history in `_log.md`: lines written by the writers read back, and the chains built from them. */
import { describe, expect, it } from 'vitest';
import { chainLines, explainWhy, whyText } from '../../src/core/inspector/why.js';
import { applyToPage, type PagePlan } from '../../src/memory/graph/graph-write.js';
import { renderFact } from '../../src/memory/markdown/lines.js';
import { blockIdFor } from '../../src/core/records/block-id.js';
import { readPage, type WikiPage } from '../../src/memory/graph/page.js';
import { mergeEvent, parseRecordEvents, parseRenames, recordLogLine, type RecordEvent } from '../../src/memory/records/history.js';
import { buildChains, sourceLink, unloggedEdits } from '../../src/memory/records/provenance.js';

const PAGE = 'People/Sarah-Chen.md';
const url = (n: number) => `https://discord.com/channels/1/2/${n}`;

/** One log line as Wiki.log renders it. */
function line(at: string, e: Omit<RecordEvent, 'at'>): string {
  const l = recordLogLine(e);
  return `- ${at} ${l.action} ${l.path}${l.source ? ` (source: ${l.source})` : ''}${l.detail ? ` — ${l.detail}` : ''}`;
}

function page(facts: string[]): WikiPage {
  const text = `---\nschema: 2\ntitle: Sarah Chen\ncategory: People\ncreated: 2026-06-01\nupdated: 2026-06-01\nstaleness: 3\nsensitivity: personal\n---\n\n## Facts\n${facts.join('\n')}\n`;
  const read = readPage(text, PAGE, PAGE);
  if (!read.ok) throw new Error(read.problem.message);
  return read.page;
}

const plan = (facts: PagePlan['facts']): PagePlan => ({ path: PAGE, isNew: false, title: 'Sarah Chen', category: 'People', aliases: [], description: '', staleness: 3, facts, links: [] });

describe('record history in _log.md', () => {
  it('parses the lines the writers render, and skips page lines and other text', () => {
    const log = [
      '# Ingestion log',
      '- 2026-06-01T10:00:00.000Z updated People/Sarah-Chen.md (source: distillation)',
      line('2026-06-01T10:00:00.000Z', { action: 'added', page: PAGE, id: 'r-aaaaaa', source: url(1), detail: 'by distillation; gate 0.66 (recency 1 · salience 1 · identity 0 · source 0.7)' }),
      line('2026-06-10T03:00:00.000Z', mergeEvent({ page: PAGE, id: 'r-aaaaaa' }, { page: 'People/Sarah.md', id: 'r-bbbbbb' })),
      '- 2026-06-11T00:00:00.000Z renamed People/Sarah.md → People/Sarah-Chen.md (source: hand edit)',
    ].join('\n');
    const events = parseRecordEvents(log);
    expect(events).toEqual([
      { at: '2026-06-01T10:00:00.000Z', action: 'added', page: PAGE, id: 'r-aaaaaa', source: url(1), detail: 'by distillation; gate 0.66 (recency 1 · salience 1 · identity 0 · source 0.7)' },
      { at: '2026-06-10T03:00:00.000Z', action: 'merged', page: PAGE, id: 'r-aaaaaa', source: 'reflection', detail: 'absorbed People/Sarah.md#^r-bbbbbb' },
    ]);
    expect(parseRenames(log).get(PAGE)).toEqual(['People/Sarah.md']);
  });

  it("reads the reflection job's record lines (one line format for every writer)", () => {
    const log = [
      '- 2026-06-10T03:00:00.000Z merged People/Sarah-Chen.md#^r-aaaaaa (source: reflection) — absorbed People/Sarah-Chen.md#^r-bbbbbb',
      '- 2026-06-10T03:00:00.000Z distilled Topics/Work.md#^r-eeeeee (source: reflection) — a rule distilled from ^r-aaaaaa + ^r-dddddd',
      '- 2026-06-10T03:00:00.000Z expired People/Sarah-Chen.md#^r-ffffff (source: reflection) — (due 2026-06-05)',
      '- 2026-06-10T03:00:00.000Z review People/Sarah-Chen.md#^r-aaaaaa (source: reflection) — disagrees with ^r-999999 (proposed by reflection: employer)',
      '- 2026-06-10T03:00:00.000Z updated People/Sarah-Chen.md (source: reflection) — previous version kept in .history/x.md',
    ].join('\n');
    expect(parseRecordEvents(log).map((e) => [e.action, e.id, e.detail])).toEqual([
      ['merged', 'r-aaaaaa', `absorbed ${PAGE}#^r-bbbbbb`],
      ['distilled', 'r-eeeeee', 'a rule distilled from ^r-aaaaaa + ^r-dddddd'],
      ['expired', 'r-ffffff', '(due 2026-06-05)'],
      ['review', 'r-aaaaaa', 'disagrees with ^r-999999 (proposed by reflection: employer)'],
    ]);
  });

  it('applyToPage reports what it did to which record: added, restated, and the pair put into review', () => {
    const first = applyToPage(null, { ...plan([{ text: 'Works at Acme.', said: '2026-06-01', source: url(1), gate: 'gate 0.66' }]), isNew: true }, '2026-06-01', () => null);
    const id = blockIdFor(PAGE, 'Works at Acme.');
    expect(first?.events).toEqual([{ action: 'added', page: PAGE, id, source: url(1), detail: 'gate 0.66' }]);
    const again = applyToPage(first?.content ?? '', plan([{ text: 'Works at Acme.', said: '2026-06-08', source: url(2) }]), '2026-06-08', () => null);
    expect(again?.events).toEqual([{ action: 'restated', page: PAGE, id, source: url(2), detail: 'said 2026-06-08' }]);
    const other = applyToPage(again?.content ?? '', plan([{ text: 'Joined Globex.', said: '2026-06-09', source: url(3) }]), '2026-06-09', () => null);
    const globex = blockIdFor(PAGE, 'Joined Globex.');
    expect(other?.events).toEqual([
      { action: 'added', page: PAGE, id: globex, source: url(3), detail: 'written without the promotion gate' },
      { action: 'review', page: PAGE, id, detail: `disagrees with ^${globex}` },
      { action: 'review', page: PAGE, id: globex, detail: `disagrees with ^${id}` },
    ]);
  });

  it('a hand edit is found once (by the hash of its new statement); a record on a renamed page is not an edit', () => {
    const written = renderFact(PAGE, { text: 'Works at Acme.', said: '2026-06-01', source: url(1) });
    const edited = written.replace('Works at Acme.', 'Works at Acme, in Lisbon.');
    const p = page([edited]);
    const edits = unloggedEdits([p], [], new Map());
    expect(edits).toEqual([{ action: 'edited', page: PAGE, id: blockIdFor(PAGE, 'Works at Acme.'), source: 'hand edit', detail: `statement now ${blockIdFor(PAGE, 'Works at Acme, in Lisbon.')}` }]);
    const logged = edits.map((e) => ({ ...e, at: '2026-06-09T00:00:00.000Z' }));
    expect(unloggedEdits([p], logged, new Map())).toEqual([]);
    // edited again: a new edit
    const twice = page([written.replace('Works at Acme.', 'Works at Acme, in Porto.')]);
    expect(unloggedEdits([twice], logged, new Map())).toHaveLength(1);
    // written on People/Sarah.md, the page renamed since: its id hashes the old path
    const moved = page([renderFact('People/Sarah.md', { text: 'Works at Acme.', said: '2026-06-01', source: url(1) })]);
    expect(unloggedEdits([moved], [], new Map())).toHaveLength(1);
    expect(unloggedEdits([moved], [], new Map([[PAGE, ['People/Sarah.md']]]))).toEqual([]);
  });

  it('builds the chain in date order, follows a merged-away record into the one that absorbed it, and says when history is missing', () => {
    const kept = renderFact(PAGE, { text: 'Is head of design at Acme.', type: 'identity', confidence: 0.79, said: '2026-06-08', source: url(1) });
    const keptId = blockIdFor(PAGE, 'Is head of design at Acme.');
    const goneId = blockIdFor(PAGE, 'Leads design at Acme.');
    const legacy = renderFact(PAGE, { text: 'Likes green tea.', said: '2026-05-01', source: 'terminal:1780000000000' });
    const pages = new Map([[PAGE, page([kept, legacy])]]);
    const events: RecordEvent[] = [
      { at: '2026-06-01T10:00:00.000Z', action: 'added', page: PAGE, id: keptId, source: url(1), detail: 'by distillation; gate 0.66' },
      { at: '2026-06-03T10:00:00.000Z', action: 'added', page: PAGE, id: goneId, source: url(5), detail: 'by distillation; gate 0.71' },
      { at: '2026-06-08T10:00:00.000Z', action: 'restated', page: PAGE, id: keptId, source: url(9), detail: 'said 2026-06-08' },
      { at: '2026-06-10T03:00:00.000Z', ...mergeEvent({ page: PAGE, id: keptId }, { page: PAGE, id: goneId }) },
    ];
    const now = new Date('2026-06-20T00:00:00Z');
    const out = buildChains(pages, events, [{ id: goneId }, { id: 'r-000000' }, { page: PAGE, lineStart: 1, lineEnd: 999 }], now);
    expect(out.missing).toEqual(['r-000000']);
    expect(out.chains.map((c) => c.id)).toEqual([keptId, blockIdFor(PAGE, 'Likes green tea.')]);
    const [chain, old] = out.chains;
    expect(chain?.askedFor).toBe(goneId);
    expect(chain?.steps.map((s) => [s.at.slice(0, 10), s.kind, s.from ?? ''])).toEqual([
      ['2026-06-01', 'added', ''],
      ['2026-06-03', 'added', goneId],
      ['2026-06-08', 'restated', ''],
      ['2026-06-10', 'merged', ''],
    ]);
    expect(chain?.confidence).toBe(0.79);
    expect(chain?.effective).toBeLessThan(0.79); // identity fades over two years, counted from said
    expect(chain?.effective).toBeGreaterThan(0.78);
    // written before history was kept: the source on its line, said so, with the archive file of a terminal message
    expect(old?.steps).toEqual([{ at: '2026-05-01', kind: 'said', text: expect.stringContaining('not recorded') as string, source: 'log/2026-05-28.md (terminal:1780000000000)' }]);
    const text = chainLines(chain ?? old!).join('\n');
    expect(text).toContain('2026-06-10  merged');
    expect(text).toContain(`(merged record ^${goneId})`);
    expect(text).toContain('confidence 0.79, 0.78 after decay');
    expect(sourceLink(url(1))).toBe(url(1));
  });

  it('explainWhy takes record ids as ids and anything else as a question; a button id that is not a record id is never looked up', async () => {
    const asked: unknown[] = [];
    const searched: string[] = [];
    const graph = {
      provenance: async (_p: string, refs: readonly unknown[]) => (asked.push(refs), { chains: [], missing: [] }),
      records: async (p: string) => (searched.push(p), []),
    };
    const now = new Date('2026-06-01T00:00:00Z');
    await explainWhy(graph, 'p', { query: '^r-3f9a1c r-88d0e2' }, now);
    await explainWhy(graph, 'p', { ids: ['r-3f9a1c', 'Sarah; DROP', '../x'] }, now);
    await explainWhy(graph, 'p', { query: 'where does Sarah work' }, now);
    // a question reads the records; none answer it, so no chain is looked up
    expect(asked).toEqual([[{ id: 'r-3f9a1c' }, { id: 'r-88d0e2' }], [{ id: 'r-3f9a1c' }]]);
    expect(searched).toEqual(['p']);
    expect(whyText({ chains: [], missing: [], unavailable: 'this memory keeps no record history' })).toContain('No record history here');
    expect(whyText({ chains: [], missing: [] })).toBe('No record in memory answers that.');
  });
});
